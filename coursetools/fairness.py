"""Prove the grader fair: grade the catalogue of wrong and right implementations.

    python -m coursetools.fairness                      # every assignment
    python -m coursetools.fairness 05_retry_with_backoff  # one

The catalogue lives in ``coursetools/catalogue/<assignment>/``, one file per
implementation of one answer cell::

    # cell: resilient_invoke_answer
    # mistake: catches OSError, so FileNotFoundError is retried
    # expect: FileNotFoundError
    <the code a learner would put in that answer cell>

Files named ``wrong_*.py`` must lose points, and one of their failing tests'
messages must contain the ``expect`` text (case-insensitive): the learner is
told what the mistake is. Files named ``right_*.py`` are correct alternatives
written differently from the solution and must keep full marks. Besides the
catalogue, the solution must score full marks and the released stub zero.

Each implementation is graded as a submission by a pseudo-student, in a scratch
course directory, by the same grading loop that grades the class
(:func:`autograder.pool.grade_tasks`: nbgrader through :mod:`autograder.engine`, on a
Dask LocalCluster), sandboxed as `make grade` grades a class where the sandbox runs
(each kernel a fork of a warm one, :mod:`autograder.kernelfork`), unsandboxed elsewhere:
the catalogue is the course's own code.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

import nbformat

from toolfaults.language import english_name, language_of

from autograder.course import CATALOGUE, SOLUTIONS, assignments
from autograder.engine import Course
from autograder.results import SubmissionResult
from autograder.testcells import replace_answer

SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION")
#: Right answers that use the course's helper package (``right_helpers_*``): always graded in full, by the
#: grading loop, in both editions and on every Python, never by their tests alone in the clean room. What they
#: prove is that importing, subclassing and using ``toolfaults`` is not taken for tampering, and only the
#: kernel's helper-package check (:mod:`autograder.guard`) can get that wrong.
GRADED_IN_FULL = "right_helpers_"


@dataclass
class Variant:
    """One implementation in the catalogue."""

    name: str  # the file's stem, e.g. "wrong_catches_oserror"
    kind: str  # "wrong" | "right"
    cell: str  # grade_id of the answer cell it replaces
    code: str
    mistake: str = ""
    expect: str = ""

    @classmethod
    def load(cls, path: Path, language: str = "en") -> Variant:
        """The implementation in ``path``; ``expect`` in ``language`` (``# expect-es:`` for Spanish)."""
        text = path.read_text()
        header: dict[str, str] = {}
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            key, _, value = line.lstrip("# ").partition(":")
            if key.strip() in {"cell", "mistake", "expect", "expect-es"}:
                header[key.strip()] = value.strip()
        kind = path.stem.split("_", 1)[0]
        if kind not in {"wrong", "right"}:
            raise ValueError(f"{path}: catalogue files are named wrong_*.py or right_*.py")
        if "cell" not in header:
            raise ValueError(f"{path}: the first lines must name the answer cell ('# cell: <grade_id>')")
        expect_key = "expect" if language == "en" else f"expect-{language}"
        if kind == "wrong" and not header.get(expect_key):
            raise ValueError(f"{path}: a wrong implementation must say what the feedback names "
                             f"in the {language} edition ('# {expect_key}: ...')")
        return cls(path.stem, kind, header["cell"], text, header.get("mistake", ""), header.get(expect_key, ""))


def catalogue_folder(assignment: str, folder: Path = CATALOGUE) -> Path:
    """Where an assignment's catalogue lives: both editions of an assignment share the English one's."""
    return folder / english_name(assignment)


def has_catalogue(assignment: str, folder: Path = CATALOGUE) -> bool:
    """Whether the assignment has a catalogue to grade: entries at the top of its folder. A practice exercise's
    answers live in ``visible/`` only (proven by tests/exercises/test_visible_parts.py, not graded)."""
    return any(catalogue_folder(assignment, folder).glob("*.py"))


def catalogue(assignment: str, folder: Path = CATALOGUE) -> list[Variant]:
    """Every catalogued implementation for an assignment, wrong ones first.

    A Spanish assignment (``05_retry_with_backoff_es``) is proven on the same answers as the
    English one, each wrong answer judged by its ``# expect-es:`` line.
    """
    paths = sorted(catalogue_folder(assignment, folder).glob("*.py"))
    language = language_of(assignment)
    return sorted((Variant.load(p, language) for p in paths), key=lambda v: (v.kind != "wrong", v.name))


def solution_code(source_cell: str) -> str:
    """An answer cell's solution as a learner would type it (without nbgrader's markers)."""
    return "\n".join(line for line in source_cell.splitlines() if line.strip() not in SOLUTION_MARKERS)


def answer_cells(nb: nbformat.NotebookNode) -> dict[str, str]:
    """``grade_id -> solution code`` for every answer (solution, not graded) cell."""
    return {
        cell.metadata["nbgrader"]["grade_id"]: solution_code(cell.source)
        for cell in nb.cells
        if cell.cell_type == "code"
        and cell.metadata.get("nbgrader", {}).get("solution")
        and not cell.metadata["nbgrader"].get("grade")
    }


def solved(course: Course, assignment: str, **replacements: str) -> nbformat.NotebookNode:
    """The released notebook with every answer cell holding the solution, except ``replacements``."""
    nb = course.released(assignment)
    for grade_id, code in {**answer_cells(course.solution(assignment)), **replacements}.items():
        nb = replace_answer(nb, grade_id, code)
    return nb


@dataclass
class Verdict:
    """What one implementation scored and whether that is what the catalogue claims."""

    name: str
    kind: str  # "solution" | "stub" | "wrong" | "right"
    result: SubmissionResult
    ok: bool
    why: str
    graded_by: str = "nbgrader"  # "nbgrader" (the grading loop) | "clean room" (the tests alone, see clean_result)


def judge(kind: str, result: SubmissionResult, expect: str = "") -> tuple[bool, str]:
    full = result.max_score > 0 and result.score == result.max_score
    if kind in {"solution", "right"}:
        problems = "".join(f" [{p.kind}: {p.text}]" for p in result.problems)
        return full, "full marks" if full else "lost points: " + "; ".join(
            f"{t.grade_id}: {t.message}" for t in result.failed) + problems
    if kind == "stub":
        return result.score == 0, "zero" if result.score == 0 else f"scored {result.score}"
    if full:
        return False, "kept full marks: the tests do not catch this mistake"
    named = any(expect.lower() in t.message.lower() for t in result.failed)
    return named, ("lost points and the feedback names it" if named else
                   f"lost points, but no failing message contains {expect!r}")


def prove(assignment: str, root: Path, folder: Path = CATALOGUE, source: Path = SOLUTIONS,
          workers: int | None = None) -> list[Verdict]:
    """Grade the solution, the stub and the catalogue of ``assignment`` in a scratch course.

    The implementations are graded like a class: by ``workers`` long-lived processes
    (default: one per core), each notebook in its own kernel.
    """
    return prove_all([assignment], root, folder, source, workers)[assignment]


def prove_all(names: list[str], root: Path, folder: Path = CATALOGUE, source: Path = SOLUTIONS,
              workers: int | None = None, only: dict[str, set[str]] | None = None,
              clean_room: Collection[str | tuple[str, str]] = ()) -> dict[str, list[Verdict]]:
    """:func:`prove` for several assignments in one grading run (one cluster, its workers warmed up once).

    Args:
        names: the assignments.
        root: an empty folder for the scratch course.
        folder: the catalogue; source: the assignments' sources.
        workers: grading workers (default: one per core).
        only: ``assignment -> catalogue entry names`` to grade for that assignment
            (the solution and the stub are always graded); an assignment not in it
            gets its whole catalogue.
        clean_room: the catalogue entries judged by their tests alone, run in the clean room
            (:func:`clean_result`): an assignment's name stands for its whole catalogue, an
            ``(assignment, entry)`` pair for one entry; the solution, the stub and the
            :data:`GRADED_IN_FULL` answers are always graded by the grading loop. What `make test` does for the Spanish editions, for
            every assignment on the other supported Pythons, and for the wording variants: what
            may change there is how the tests judge the answers, not the grading machinery,
            which is proven on the English catalogue on the course's own Python.

    Returns:
        ``assignment -> verdicts`` (solution, stub, then the catalogue's order).
    """
    from autograder.pool import Task, grade_tasks
    from autograder.sandbox import where_available

    # Graded as `make grade` grades a class: sandboxed where the sandbox runs, so each kernel is a fork
    # of a warm one (autograder.kernelfork); unsandboxed elsewhere (the catalogue is the course's own code).
    course = Course.scratch(root, source, config=where_available())
    entries: dict[str, list[tuple[str, str, nbformat.NotebookNode, str]]] = {}
    for assignment in names:
        course.generate(assignment)
        entries[assignment] = [
            ("solution", "solution", solved(course, assignment), ""),
            ("stub", "stub", course.released(assignment), ""),
        ]
        picked = (only or {}).get(assignment)
        for variant in catalogue(assignment, folder):
            if picked is not None and variant.name not in picked:
                continue
            entries[assignment].append((variant.name, variant.kind,
                                        solved(course, assignment, **{variant.cell: variant.code}), variant.expect))
        for name, _, nb, _ in entries[assignment]:
            course.submit(name, assignment, nb)
    clean = {(assignment, name) for assignment, found in entries.items() for name, *_ in found
             if (assignment in clean_room or (assignment, name) in clean_room)
             and name not in ("solution", "stub") and not name.startswith(GRADED_IN_FULL)}
    tasks = [Task(assignment, name) for assignment, found in entries.items() for name, *_ in found
             if (assignment, name) not in clean]
    results = {(r.assignment, r.student): r for r in grade_tasks(course, tasks, workers)}
    if clean:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(workers or os.cpu_count() or 1) as pool:
            for key, result in zip(sorted(clean), pool.map(lambda key: clean_result(course, *key), sorted(clean))):
                results[key] = result
    verdicts: dict[str, list[Verdict]] = {}
    for assignment, found in entries.items():
        verdicts[assignment] = []
        for name, kind, _, expect in found:
            result = results[(assignment, name)]
            ok, why = judge(kind, result, expect)
            verdicts[assignment].append(Verdict(name, kind, result, ok, why,
                                                "clean room" if (assignment, name) in clean else "nbgrader"))
    return verdicts


def clean_result(course: Course, assignment: str, student: str) -> SubmissionResult:
    """What the assignment's tests alone make of a submitted notebook: its cells and the tests, hidden
    ones included, run in the clean room (a plain Python process, :mod:`autograder.cleanroom`).

    The grading loop runs the same tests on the same code (in a kernel, then in the clean room, keeping each
    test's lower score); the fairness proofs on the course's own Python show the two agree on every
    catalogued answer. Scores and messages are read as :mod:`autograder.readback` reads a graded notebook's.
    """
    import time

    from autograder import cleanroom
    from autograder.readback import test_result
    from autograder.testcells import hidden_code, test_descriptions

    started = time.perf_counter()
    folder = course.submitted(assignment, student)
    described = test_descriptions(assignment, course.source)
    hidden = hidden_code(assignment, course.source)
    tests = []
    for name in course.notebook_names(assignment):
        submitted = nbformat.read(folder / f"{name}.ipynb", as_version=4)
        source = nbformat.read(course.source / assignment / f"{name}.ipynb", as_version=4)
        done = cleanroom.run(cleanroom.plan(submitted, source), folder, cleanroom.settings(course.config))
        for gid, (description, points) in described.items():
            found = done.tests.get(gid)
            tests.append(test_result(gid, description, points,
                                     None if found is None else (points if found.passed else 0.0),
                                     None if found is None else found.message, hidden))
    return SubmissionResult(student, assignment, sum(t.points for t in tests), sum(t.max_points for t in tests),
                            tests, seconds=time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m coursetools.fairness", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("assignments", nargs="*", help="assignments to prove (default: every one with a catalogue)")
    names = parser.parse_args(argv).assignments or [a for a in assignments() if has_catalogue(a)]
    bad = 0
    with tempfile.TemporaryDirectory(prefix="fairness-") as tmp:
        proven = prove_all(names, Path(tmp))
    for assignment, verdicts in proven.items():
        print(f"\n{assignment}")
        for v in verdicts:
            mark = "ok  " if v.ok else "FAIL"
            print(f"  {mark} {v.kind:8} {v.name:40} {v.result.score:g}/{v.result.max_score:g}  {v.why}")
            bad += not v.ok
    print(f"\n{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
