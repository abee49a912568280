"""Every lesson runs top to bottom offline, has objectives and key points, and its links resolve."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import nbformat
import pytest

from autograder.course import ROOT
from editions import EDITIONS, ENGLISH, case_id, cases
from tests.ahead import Ahead
from tests.e2e.labdriver import run_all_in_browser
from toolfaults.progress import execute_notebook

COURSE = ROOT / "course"
LESSONS = ENGLISH.lessons()          # 00_index and the numbered lessons
APPENDICES = ENGLISH.appendices()    # reference notebooks, linked from lessons and index
#: Every notebook a learner opens, in both editions (course/ and its translation course/es/).
ALL = cases(lambda e: [*e.lessons(), *e.appendices()])
LINK = re.compile(r"\]\(([^)#\s]+\.ipynb)(?:#[^)]*)?\)")


def _markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.language)
def test_course_has_an_index_eight_lessons_and_an_appendix(edition):
    """Each edition holds the index page, the eight lessons and the wire-format appendix, and the index links them all."""
    index = edition.folder / "00_index.ipynb"
    assert index.exists(), f"{index} (the first page) is missing"
    numbered, appendices = edition.numbered(), edition.appendices()
    assert len(numbered) == 8, f"expected 8 lessons in {edition.folder}, found {[p.name for p in numbered]}"
    assert [p.name for p in appendices] == ["A1_wire_formats.ipynb"], f"appendices: {[p.name for p in appendices]}"
    index_links = set(LINK.findall(_markdown(nbformat.read(index, as_version=4))))
    unlinked = [p.name for p in [*numbered, *appendices] if p.name not in index_links]
    assert not unlinked, f"the index's course map does not link {unlinked}"


def test_each_index_links_the_other_language():
    """The English first page links the Spanish one and back: the language switch."""
    english = set(LINK.findall(_markdown(nbformat.read(COURSE / "00_index.ipynb", as_version=4))))
    spanish = set(LINK.findall(_markdown(nbformat.read(COURSE / "es" / "00_index.ipynb", as_version=4))))
    assert "es/00_index.ipynb" in english, "course/00_index.ipynb has no link to the Spanish edition (es/00_index.ipynb)"
    assert "../00_index.ipynb" in spanish, "course/es/00_index.ipynb has no link back to the English edition"


SPANISH_ALL = [case for case in ALL if case[0].language == "es"]


@pytest.mark.parametrize(("edition", "path"), SPANISH_ALL, ids=map(case_id, SPANISH_ALL))
def test_spanish_lessons_link_spanish_pages(edition, path: Path):
    """A Spanish lesson's links to lessons and exercises stay in Spanish (the switch back to English excepted)."""
    links = [link for link in LINK.findall(_markdown(nbformat.read(path, as_version=4))) if not link.startswith("http")]
    english = [link for link in links if link != "../00_index.ipynb"
               and (link.startswith("../") and "exercises/" not in link or "exercises/" in link and "_es" not in link)]
    assert not english, f"{path.name} (es) links English pages: {english}"


@pytest.mark.parametrize(("edition", "path"), ALL, ids=map(case_id, ALL))
def test_links_resolve(edition, path: Path):
    """Every relative notebook link in a lesson points to a file that exists."""
    nb = nbformat.read(path, as_version=4)
    broken = [link for link in LINK.findall(_markdown(nb))
              if not link.startswith("http") and not (path.parent / link).resolve().exists()]
    assert not broken, f"{path.name} links to notebooks that do not exist: {broken}"


NUMBERED_BOTH = cases(lambda e: e.numbered())


@pytest.mark.parametrize(("edition", "path"), NUMBERED_BOTH, ids=map(case_id, NUMBERED_BOTH))
def test_lesson_has_objectives_and_key_points(edition, path: Path):
    """A lesson states its learning objectives and ends with key points."""
    text = _markdown(nbformat.read(path, as_version=4)).lower()
    assert any(words in text for words in edition.objectives), f"{path.name}: no learning objectives section"
    assert edition.key_points in text, f"{path.name}: no key points section ({edition.key_points!r})"


def _run_offline(edition, path: Path):
    """The lesson executed top to bottom in a kernel with no key and no network (its outputs kept)."""
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    env.update(TOOLFAULTS_MODE="offline", MPLBACKEND="Agg")
    nb = nbformat.read(path, as_version=4)
    # The index's progress cell runs every exercise's visible tests in a kernel of its own (~1 min).
    timeout = 300 if path.name == "00_index.ipynb" else 120
    execute_notebook(nb, start={"env": env}, timeout=timeout, kernel_name="python3",
                     resources={"metadata": {"path": str(path.parent)}})
    return nb


#: Every selected lesson runs at the first one's request, one kernel per core (tests/ahead.py).
AHEAD = Ahead(_run_offline, ("edition", "path"))


@pytest.fixture(scope="session")
def executed(request):
    return AHEAD.bind(request.session, "test_lesson_runs_offline")


IN_BROWSER = pytest.mark.skip(reason="JupyterLab's Run All runs this lesson on this Python, with the same check, "
                                     "as a learner runs it (tests/e2e/test_run_all.py; without Chromium, this test runs it)")


def _marks(edition) -> list:
    return [*([pytest.mark.spanish] if edition.language == "es" else []),
            *([IN_BROWSER] if run_all_in_browser(edition.language) else [])]


@pytest.mark.slow
@pytest.mark.parametrize(("edition", "path"), [pytest.param(e, p, id=case_id((e, p)), marks=_marks(e)) for e, p in ALL])
def test_lesson_runs_offline(executed, edition, path: Path):
    """The lesson executes top to bottom with no key and no network, without errors.

    Where the browser tests run (Chromium installed), JupyterLab's Run All is this check, on every
    supported Python: a learner runs the lessons that way, so this test runs only where it cannot.
    """
    nb = executed(edition=edition, path=path)
    unexpected, missing = [], []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        expected = "raises-exception" in cell.metadata.get("tags", [])
        if errors and not expected:
            unexpected += [(i, e.get("ename"), e.get("evalue")) for e in errors]
        if expected and not errors:
            missing.append(i)
    assert not unexpected, f"{path.name}: cells raised errors: {unexpected}"
    assert not missing, (
        f"{path.name}: cells {missing} are tagged raises-exception (a failure shown on purpose) but did not raise"
    )


def _code(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "code")


NUMBERED = [p for p in LESSONS if not p.name.startswith("00_")]
READ = [*NUMBERED, *APPENDICES]   # every notebook a learner reads


def test_one_error_contract_across_the_lessons():
    """Lesson 03 builds ToolError by hand, then every lesson that uses a contract imports toolfaults.contract's."""
    defined = {p.name for p in [*NUMBERED, *APPENDICES]
               if re.search(r"^class ToolError\b", _code(nbformat.read(p, as_version=4)), re.M)}
    assert defined == {"03_errors_for_the_model.ipynb"}, (
        f"only lesson 03 builds ToolError by hand (then imports toolfaults.contract); defined in: {sorted(defined)}")
    for stem in ("03_errors_for_the_model", "06_fallback_and_degradation", "07_safe_agent_loop",
                 "08_troubleshooting_and_measuring"):
        code = _code(nbformat.read(COURSE / f"{stem}.ipynb", as_version=4))
        assert "from toolfaults.contract import" in code, f"{stem} should reuse toolfaults.contract's ToolError"
        assert not re.search(r"^(ACTIONS|RECOVERIES)\s*=", code, re.M), f"{stem} defines its own recovery vocabulary"


def _dumps_calls(source: str):
    """(call node, its source line) for every json.dumps(...) in a code cell (top-level await allowed)."""
    tree = compile(source, "<cell>", "exec", ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    lines = source.splitlines()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "json.dumps":
            yield node, lines[node.lineno - 1]


READ_BOTH = cases(lambda e: [*e.numbered(), *e.appendices()])


@pytest.mark.parametrize(("edition", "path"), READ_BOTH, ids=map(case_id, READ_BOTH))
def test_json_for_the_model_keeps_non_ascii_text(edition, path: Path):
    """Every json.dumps in a lesson keeps non-ASCII text ("devolución", not "devoluci\\u00f3n").

    Exempt: dictionary keys (sort_keys=True), storage (of messages_to_dict) and the line that shows the default
    (its comment says so: "json.dumps's default", in Spanish "valor por defecto de json.dumps").
    """
    bad = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        for call, line in _dumps_calls(cell.source):
            keywords = {k.arg: ast.unparse(k.value) for k in call.keywords}
            if (keywords.get("ensure_ascii") == "False" or keywords.get("sort_keys") == "True"
                    or "messages_to_dict" in ast.unparse(call) or re.search(r"json\.dumps's default|valor por defecto de json\.dumps", line)):
                continue
            bad.append(line.strip())
    assert not bad, f"{path.name}: json.dumps without ensure_ascii=False (the model would read \\u escapes): {bad}"


@pytest.mark.parametrize(("edition", "path"), READ_BOTH, ids=map(case_id, READ_BOTH))
def test_lessons_speak_only_of_what_learners_saw(edition, path: Path):
    """No lesson refers to the course's source material ('the seed ...'), which learners never see."""
    text = _markdown(nbformat.read(path, as_version=4)) + _code(nbformat.read(path, as_version=4))
    assert not re.search(r"\b(seed|semilla)s?\b", text, re.I), f"{path.name} mentions a 'seed' the learner never saw"
