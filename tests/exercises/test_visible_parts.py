"""Practice parts are fair too: their catalogued answers are proven by the visible tests.

A practice part (visible tests only, no points) cannot be proven by lost points, so its
catalogue lives apart, in ``coursetools/catalogue/<exercise>/visible/`` (``fairness.prove``
reads only the top level). Each entry is put into its answer cell of the RELEASED exercise
notebook (``exercises/``, the other answers left as stubs) and the notebook is checked with
``toolfaults.progress``, the way ``make progress`` runs a learner's own notebook: a wrong
answer leaves its part short of "done", with a failing test that names the mistake; a right
answer makes it "done". The cells after the entry's part are left out: they run after its
tests and cannot change its row. Where the sandbox runs, each notebook's kernel is one the grader
starts, a fork of a warm kernel (``autograder.kernelfork``): the same kernel with its imports
done, without a fresh one's second of start-up per case (``make progress``'s own kernels are
started in ``tests/progress``).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import nbformat
import pytest

from autograder.testcells import replace_answer
from coursetools.fairness import CATALOGUE, Variant
from tests.ahead import Ahead
from toolfaults.progress import check_notebook, find_parts

ROOT = Path(__file__).resolve().parents[2]
EXERCISES = ROOT / "exercises"
SOLUTIONS = ROOT / "solutions"
ENTRIES = sorted(CATALOGUE.glob("*/visible/*.py"))
_HEADER = re.compile(r"^#\s*(cell|mistake|expect|expect-es)\s*:")



def _id(path: Path) -> str:
    return f"{path.parent.parent.name}:{path.stem}"


#: Each entry in each edition: the Spanish one (<exercise>_es) judged by the entry's `# expect-es:` line.
CASES = [pytest.param(path, edition, id=_id(path) + ("[es]" if edition == "es" else ""),
                      marks=[pytest.mark.spanish] if edition == "es" else [])
         for path in ENTRIES for edition in ("en", "es")
         if edition == "en" or (SOLUTIONS / f"{path.parent.parent.name}_es").is_dir()]


def as_typed(variant: Variant) -> str:
    """The entry's code without its header lines, as a learner would type it."""
    lines = variant.code.splitlines()
    while lines and _HEADER.match(lines[0]):
        lines.pop(0)
    return "\n".join(lines).strip() + "\n"


def _grade_id(cell) -> str:
    return (cell.metadata.get("nbgrader") or {}).get("grade_id", "")


def part_of(nb, answer_id: str):
    """The progress part whose answer cells include ``answer_id``."""
    for part in find_parts(nb):
        if any(_grade_id(nb.cells[i]) == answer_id for i in part.answers):
            return part
    raise AssertionError(f"no part of the notebook has the answer cell {answer_id!r}")


def test_there_are_visible_catalogues():
    """Practice parts have catalogues under visible/: exercise 04's lookup_country (Part B) 4+ wrong and 2+
    right; exercise 07's debug_tool_loop (Part A) 8+ wrong and 2+ right, write_with_key (Part C) 5+ wrong
    and 2+ right; the practice exercises 01, 02, 03 and 08 (both parts) 5+ wrong and 2+ right each."""
    counts: dict[str, dict[str, int]] = {}
    for p in ENTRIES:
        v = Variant.load(p)
        counts.setdefault(f"{p.parent.parent.name}/{v.cell}", {"wrong": 0, "right": 0})[v.kind] += 1
    for cell, least in [("04_validate_then_execute/lookup_country_answer", 4),
                        ("07_safe_agent_loop/debug_tool_loop_answer", 8), ("07_safe_agent_loop/write_with_key_answer", 5),
                        ("01_five_error_types/classify_answer", 5), ("02_is_error_protocol/answer_tool_calls_answer", 5),
                        ("03_errors_for_the_model/to_contract_answer", 5), ("08_troubleshooting_and_measuring/metrics_answer", 5),
                        ("08_troubleshooting_and_measuring/checks_answer", 5)]:
        n = counts.get(cell, {"wrong": 0, "right": 0})
        assert n["wrong"] >= least and n["right"] >= 2, f"{cell}: {n}"


@pytest.mark.parametrize("path", ENTRIES, ids=[_id(p) for p in ENTRIES])
def test_entry_belongs_to_a_practice_part(path):
    """A visible/ entry names an answer cell whose part has visible tests and no graded ones."""
    assignment = path.parent.parent.name
    variant = Variant.load(path)
    solution = nbformat.read(SOLUTIONS / assignment / f"{assignment}.ipynb", as_version=4)
    part = part_of(solution, variant.cell)
    assert part.tests, f"{assignment}/{variant.cell}: its part has no test to prove the entry with"
    graded = [_grade_id(solution.cells[i]) for i in part.tests if solution.cells[i].metadata["nbgrader"].get("grade")]
    assert not graded, (f"{assignment}/{variant.cell}: its part has graded tests {graded}; catalogue it at the top "
                        "level, where fairness.prove grades it")


def kernel_manager() -> type | None:
    """The grader's forked sandboxed kernels where the sandbox runs; fresh kernels (None) elsewhere (in CI,
    where the sandbox is required, a missing one fails the test: ``probe_assignment.sandboxed``)."""
    from autograder.sandbox import SandboxedKernelManager
    from tests.sandbox.probe_assignment import sandboxed

    return SandboxedKernelManager if sandboxed() else None


def _progress(path: Path, edition: str):
    """Put the entry into its answer cell of the released notebook and run it as `make progress` does.

    Returns the entry, its part's title and that part's progress row.
    """
    assignment = path.parent.parent.name + ("_es" if edition == "es" else "")
    variant = Variant.load(path, edition)
    released = EXERCISES / assignment
    nb = nbformat.read(released / f"{assignment}.ipynb", as_version=4)
    part = part_of(nb, variant.cell)
    entered = replace_answer(nb, variant.cell, as_typed(variant))
    # The notebook runs top to bottom: the cells after the part's last one run after its tests and cannot change
    # its row, so they are left out (exercise 07's Part A is its first 14 cells of 63).
    entered.cells = entered.cells[:max(part.answers + part.tests) + 1]
    with tempfile.TemporaryDirectory(prefix="visible-part-") as tmp:
        work = Path(tmp) / assignment
        shutil.copytree(released, work)
        nbformat.write(entered, work / f"{assignment}.ipynb")
        rows = {r.part: r for r in check_notebook(work / f"{assignment}.ipynb", exercise=assignment, timeout=60,
                                                  kernel_manager_class=kernel_manager())}
    return variant, part.title, rows[part.title]


#: Every selected case runs at the first one's request, one kernel per core (tests/ahead.py).
AHEAD = Ahead(_progress, ("path", "edition"))


@pytest.fixture(scope="session")
def progress(request):
    return AHEAD.bind(request.session, "test_visible_tests_prove_the_entry")


@pytest.mark.slow
@pytest.mark.parametrize(("path", "edition"), CASES)
def test_visible_tests_prove_the_entry(progress, path, edition):
    """Wrong: its part is not "done", a failing test names the mistake, and every failing test says what is
    wrong in its own words (an AssertionError, not a traceback from the learner's code). Right: its part is
    "done". In both editions: the Spanish notebook's failing message names the mistake in Spanish."""
    variant, title, row = progress(path=path, edition=edition)
    report = "\n".join(f"  {t.name}: {'pass' if t.passed else t.error}" for t in row.tests)
    assert row.total, f"{title}: no visible test ran"
    if variant.kind == "right":
        assert row.status == "done", f"{path.name} is right, but {title} is {row.status} ({row.passed}/{row.total}):\n{report}"
    else:
        assert row.status != "done" and row.failing, f"{path.name} ({variant.mistake}) passes every visible test:\n{report}"
        raw = [f"{t.name}: {t.error}" for t in row.failing if not t.error.startswith("AssertionError")]
        assert not raw, f"{path.name} ({variant.mistake}): these tests fail with a raw error, not a message:\n" + "\n".join(raw)
        errors = " ".join(t.error for t in row.failing).lower()
        assert variant.expect.lower() in errors, (
            f"{path.name} ({variant.mistake}) fails, but no failing test names {variant.expect!r}:\n{report}")
