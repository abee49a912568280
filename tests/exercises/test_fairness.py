"""The grader is fair: solutions get full marks, stubs zero, every catalogued mistake
loses points with a message that names it, and correct alternatives keep full marks.

Each assignment is graded once (solution, stub and the catalogue entries the selected
tests name) in a scratch course directory by the same engine that grades the class;
each test then checks one implementation's verdict. Every assignment the session's
tests need is graded in one run (one LocalCluster whose workers warm up once, not one
per assignment).

The ``right_wording_*`` answers are marked ``wording``: they prove the meaning matchers
of ``toolfaults.grading_text``, plain regular expressions whose unit tests
(``tests/package``) run on every supported Python; `make test` judges them on the
course's own Python only, by the tests alone in the clean room, but for the first of each
assignment, which is graded in full (:data:`WORDING_GRADED`): what a wording variant
changes is the text the tests read, and the tests are the same in both runs.

The English catalogue is graded in full on the course's own Python. Elsewhere the solution
and the stub are graded in full, and each catalogue entry is judged by the tests alone, run
in the clean room (``coursetools.fairness.clean_result``): for the Spanish editions, whose
notebooks run the same code with translated messages, and, with ``FAIRNESS_CATALOGUE=clean-room``
(set by `make test`), for every assignment on the other supported Pythons. What can differ
from one edition or one Python to another is how the tests judge the answers; the grading
machinery around them, and its agreement with the clean room on every entry
(``test_no_catalogued_answer_is_flagged_by_the_cross_checks``,
``test_the_clean_room_judges_catalogue_entries_as_the_grading_loop_does``), is proven on the
English catalogue on the course's own Python (the wording variants but one per assignment aside).

The ``right_helpers_*`` answers import, subclass and use the course's helper package as the lessons
do; they are graded in full everywhere (``coursetools.fairness.GRADED_IN_FULL``), because only the
kernel's helper-package check can mistake an import for tampering.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from autograder.course import assignments
from autograder.course import ROOT
from coursetools.fairness import GRADED_IN_FULL, Verdict, catalogue, has_catalogue, prove_all
from toolfaults.language import english_name

GRADED = [a for a in assignments() if has_catalogue(a)]
#: The Spanish editions (05_retry_with_backoff_es): proven on the English edition's catalogue.
SPANISH = [a for a in GRADED if english_name(a) != a]
CASES = [(a, name) for a in GRADED for name in ["solution", "stub", *(v.name for v in catalogue(a))]]


WORDING = ("right_wording_", "right_es_wording_")


def marked(assignment: str, *rest, id: str | None = None):
    """A test parameter; a Spanish edition's is marked `spanish`, a wording variant `wording`
    (both run on the course's own Python only). The answers that use the helper package
    (``GRADED_IN_FULL``) are proven in both editions on every Python: never marked `spanish`."""
    helpers = bool(rest) and str(rest[0]).startswith(GRADED_IN_FULL)
    marks = [pytest.mark.spanish] if assignment in SPANISH and not helpers else []
    if rest and str(rest[0]).startswith(WORDING):
        marks.append(pytest.mark.wording)
    return pytest.param(assignment, *rest, id=id, marks=marks)


GRADED_PARAMS = [marked(a, id=a) for a in GRADED]
#: The wording variant of each English assignment graded in full: its first ``right_wording_*`` in the catalogue.
WORDING_GRADED = {a: next((v.name for v in catalogue(a) if v.name.startswith(WORDING[0])), None)
                  for a in GRADED if a not in SPANISH}
#: What is judged in the clean room (see the module's docstring): whole assignments' catalogues, and the
#: other wording variants.
CLEAN_ROOM: set[str | tuple[str, str]] = {
    *(GRADED if os.environ.get("FAIRNESS_CATALOGUE", "") == "clean-room" else SPANISH),
    *((a, v.name) for a, kept in WORDING_GRADED.items() for v in catalogue(a) if v.name.startswith(WORDING) and v.name != kept),
}

_verdicts: dict[str, dict[str, Verdict]] = {}
#: assignment -> the folder of the scratch course it was graded in (prove_all's root): its release and every
#: graded entry's submission stay there, for the tests that run an entry again.
_graded_in: dict[str, Path] = {}
_failed: list[str] = []  # why the grading run failed: later tests say so at once instead of grading again

#: pytest-timeout for a test that reads verdicts: the first one pays for the session's whole grading run
#: (every selected assignment: about 250 notebooks graded in full on the course's own Python, the English catalogue).
GRADING_RUN_TIMEOUT = 3600


@pytest.fixture(scope="session")
def verdicts(request, tmp_path_factory):
    # The assignments whose verdicts the selected tests read, and the catalogue entries their
    # test_verdict tests name (all of them when none is selected): graded together at the first request.
    needed: dict[str, set[str] | None] = {}
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "verdicts" in getattr(item, "fixturenames", ()) and "assignment" in params:
            names = needed.setdefault(params["assignment"], set())
            if "name" in params:
                names.add(params["name"])
    for assignment, names in needed.items():
        needed[assignment] = names - {"solution", "stub"} or None

    def get(assignment: str) -> dict[str, Verdict]:
        if _failed:
            pytest.fail(f"the grading run of the fairness proofs failed in an earlier test: {_failed[0]}")
        if assignment not in _verdicts:
            names = sorted({assignment, *(a for a in needed if a not in _verdicts)})
            root = tmp_path_factory.mktemp("fair")
            try:
                proven = prove_all(names, root, only={a: needed[a] for a in names if needed.get(a)},
                                   clean_room=CLEAN_ROOM)
            except BaseException as err:  # a timeout too: one failed run, not one per test
                _failed.append(f"{type(err).__name__}: {str(err)[:500]}")
                raise
            _verdicts.update({a: {v.name: v for v in found} for a, found in proven.items()})
            _graded_in.update(dict.fromkeys(proven, root))
        return _verdicts[assignment]

    return get


@pytest.mark.parametrize("assignment", GRADED)
def test_catalogue_is_big_enough(assignment):
    """Every graded function has at least 8 wrong and 2 right implementations catalogued."""
    found = catalogue(assignment)
    by_cell: dict[str, dict[str, int]] = {}
    for v in found:
        if v.name.startswith(GRADED_IN_FULL):  # proves the guard, not the catalogue's breadth (may target a practice part)
            continue
        by_cell.setdefault(v.cell, {"wrong": 0, "right": 0})[v.kind] += 1
    graded = {cell: n for cell, n in by_cell.items() if n["wrong"] or n["right"]}
    assert graded, f"{assignment}: the catalogue is empty"
    for cell, n in graded.items():
        if n["wrong"] < 8 or n["right"] < 2:
            pytest.fail(f"{assignment}/{cell}: {n['wrong']} wrong and {n['right']} right implementations; "
                        "need at least 8 and 2")


@pytest.mark.parametrize("assignment", GRADED)
def test_messages_are_judged_by_meaning(assignment):
    """Tests of messages use the shared meaning matchers, and at least two right answers word every message otherwise.

    COURSE_SPEC §5: a correct answer worded differently keeps full marks. The ``right_wording_*``
    implementations rephrase every message the tests read (and ``test_verdict`` proves they keep
    full marks); the matchers in ``toolfaults.grading_text`` are what lets them.
    """
    import nbformat

    from autograder.course import SOLUTIONS

    nb = nbformat.read(SOLUTIONS / assignment / f"{assignment}.ipynb", as_version=4)
    tests = "\n".join(c.source for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade"))
    assert "toolfaults.grading_text" in tests, f"{assignment}: no test judges a message with toolfaults.grading_text"
    wording = [v.name for v in catalogue(assignment) if v.kind == "right" and v.name.startswith("right_wording_")]
    assert len(wording) >= 2, f"{assignment}: {wording} - need at least two right_wording_* answers in the catalogue"


@pytest.mark.slow
@pytest.mark.timeout(GRADING_RUN_TIMEOUT)
@pytest.mark.parametrize(("assignment", "name"), [marked(a, n, id=f"{a}:{n}") for a, n in CASES])
def test_verdict(verdicts, assignment, name):
    """The implementation scores what the catalogue says it should."""
    verdict = verdicts(assignment)[name]
    failed = "; ".join(f"{t.grade_id} -> {t.message}" for t in verdict.result.failed)
    if name.startswith(GRADED_IN_FULL):  # full marks through the clean room's overrule would hide a false alarm
        from autograder.cleanroom import CHANGED, OVERRULED

        flags = [p.text for p in verdict.result.problems if p.kind in ("tampered", OVERRULED, CHANGED)]
        assert verdict.graded_by == "nbgrader" and not flags, (
            f"{assignment}/{name} uses the helper package as the lessons do; graded by {verdict.graded_by}, "
            f"it was flagged: {flags}")
    assert verdict.ok, (
        f"{assignment}/{name} ({verdict.kind}) scored {verdict.result.score:g}/{verdict.result.max_score:g}: "
        f"{verdict.why}. Failing tests: {failed or 'none'}"
    )


@pytest.mark.slow
@pytest.mark.timeout(GRADING_RUN_TIMEOUT)
@pytest.mark.parametrize("assignment", GRADED_PARAMS)
def test_feedback_never_shows_hidden_tests(verdicts, assignment):
    """The feedback of every graded implementation (solution, stub, catalogue) has no hidden test code."""
    import html

    from autograder.testcells import hidden_code
    from autograder.feedback import as_data, render_html

    hidden = hidden_code(assignment)
    assert hidden, f"{assignment} has no hidden tests"
    for name, verdict in verdicts(assignment).items():  # a clean-room judgement's messages too: they can reach feedback
        text = html.unescape(render_html(verdict.result)) + repr(as_data(verdict.result))
        leaked = [line for line in hidden if line in text]
        assert not leaked, f"{assignment}/{name}: hidden test source in the feedback: {leaked[:3]}"
        assert "BEGIN HIDDEN" not in text


@pytest.mark.slow
@pytest.mark.timeout(GRADING_RUN_TIMEOUT)
@pytest.mark.parametrize("assignment", GRADED_PARAMS)
def test_no_catalogued_answer_is_flagged_by_the_cross_checks(verdicts, assignment):
    """The clean room, the scan (autograder.crosscheck) and the helper-package check (autograder.guard) flag none
    of the solution, stub, right or wrong answers: an answer that imports, subclasses or uses ``toolfaults``
    (the ``right_helpers_*`` answers, graded in full everywhere) is not taken for tampering."""
    from autograder.cleanroom import CHANGED, CHANNEL, DIFFERS, KERNEL_KEPT, OVERRULED, UNFINISHED
    from autograder.problems import RECHECK_FAILED, TAMPERED
    from autograder.scan import SUSPICIOUS

    flags = (CHANGED, CHANNEL, DIFFERS, KERNEL_KEPT, OVERRULED, UNFINISHED, RECHECK_FAILED, SUSPICIOUS, TAMPERED)
    for name, verdict in verdicts(assignment).items():
        if verdict.graded_by != "nbgrader":
            continue
        ours = [p.text for p in verdict.result.problems if p.kind in flags]
        assert not ours, f"{assignment}/{name}: {ours}"


@pytest.mark.slow
@pytest.mark.timeout(GRADING_RUN_TIMEOUT)
@pytest.mark.parametrize("assignment", [marked(a, id=a) for a in SPANISH])
def test_both_editions_score_every_answer_the_same(verdicts, assignment):
    """The same answer code scores the same in the Spanish and the English edition, test by test."""
    english, spanish = verdicts(english_name(assignment)), verdicts(assignment)
    assert spanish.keys() == english.keys()
    differ = []
    for name, en in english.items():
        es = spanish[name]
        en_failed = sorted(t.grade_id for t in en.result.failed)
        es_failed = sorted(t.grade_id for t in es.result.failed)
        if (en.result.score, en.result.max_score, en_failed) != (es.result.score, es.result.max_score, es_failed):
            differ.append(f"{name}: English {en.result.score:g}/{en.result.max_score:g} failing {en_failed}, "
                          f"Spanish {es.result.score:g}/{es.result.max_score:g} failing {es_failed}")
    assert not differ, f"{assignment} grades answers differently from {english_name(assignment)}: {differ}"


@pytest.mark.slow
@pytest.mark.timeout(GRADING_RUN_TIMEOUT)
@pytest.mark.parametrize("assignment", [a for a in GRADED if a not in SPANISH])
def test_the_clean_room_judges_catalogue_entries_as_the_grading_loop_does(verdicts, assignment):
    """What the other Pythons and the wording variants rely on (FAIRNESS_CATALOGUE=clean-room, CLEAN_ROOM): the
    tests alone, in the clean room, give a catalogue entry the score and the failing tests its full grading
    gives it. Checked here on the first and the last wrong and right entry of each assignment, and its wording
    variant graded in full, against the full gradings: the very notebooks graded, as submitted to the grading
    run's scratch course (its release generated once, not again here)."""
    from autograder.engine import Course
    from coursetools.fairness import clean_result

    graded = verdicts(assignment)
    entries = [v for v in catalogue(assignment) if v.name in graded and graded[v.name].graded_by == "nbgrader"]
    if not entries and any(v.graded_by != "nbgrader" for v in graded.values()):
        pytest.skip("the catalogue was judged in the clean room in this run: nothing to compare it with")
    picked = {e.name: e for kind in ("wrong", "right") for e in [x for x in entries if x.kind == kind][::-1][:1]
              + [x for x in entries if x.kind == kind][:1]}
    picked.update({e.name: e for e in entries if e.name == WORDING_GRADED.get(assignment)})
    assert picked, f"{assignment}: no catalogue entry was graded in this run"
    course = Course.scratch(_graded_in[assignment])  # no sandbox settings: the clean room's defaults
    differ = []
    for name in picked:
        clean, full = clean_result(course, assignment, name), graded[name].result
        if (clean.score, sorted(t.grade_id for t in clean.failed)) != (full.score, sorted(t.grade_id for t in full.failed)):
            differ.append(f"{name}: clean room {clean.score:g} failing {sorted(t.grade_id for t in clean.failed)}, "
                          f"graded {full.score:g} failing {sorted(t.grade_id for t in full.failed)}")
    assert not differ, differ


# -- right answers that use the helper package: every module a lesson imports, every import form ----------
def _toolfaults_imports(code: str) -> set[str]:
    """The ``toolfaults`` modules a piece of code imports, read as the clean room reads a cell's imports
    (:func:`autograder.cleanroom.imports`, magics turned into Python first), plus what it names as
    ``from toolfaults import module`` and loads with ``importlib.import_module("toolfaults.x")``."""
    from autograder.cleanroom import imports, python_source

    source = python_source(code)
    modules, names = imports([{"kind": "code", "source": source}], kind="code")
    found = {*modules, *(f"{module}.{name}" for module, name in names if module == "toolfaults")}
    found |= set(re.findall(r"import_module\(\s*[\"'](toolfaults\.\w+)[\"']", source))
    return {m for m in found if m.startswith("toolfaults.") and (ROOT / (m.replace(".", "/") + ".py")).is_file()}


def _lesson_imports() -> dict[str, set[str]]:
    """``toolfaults`` module -> the lessons (both editions) that import it."""
    import nbformat

    out: dict[str, set[str]] = {}
    for path in sorted([*(ROOT / "course").glob("*.ipynb"), *(ROOT / "course" / "es").glob("*.ipynb")]):
        for cell in nbformat.read(path, as_version=4).cells:
            for module in _toolfaults_imports(cell.source) if cell.cell_type == "code" else ():
                out.setdefault(module, set()).add(str(path.relative_to(ROOT)))
    return out


HELPER_ANSWERS = [(a, v) for a in GRADED if a not in SPANISH for v in catalogue(a) if v.name.startswith(GRADED_IN_FULL)]


def test_every_module_a_lesson_imports_has_a_right_answer_that_imports_it():
    """Issue 44: a right answer that imports what a lesson imports keeps full marks; each such module is proven."""
    covered = set().union(*(_toolfaults_imports(v.code) for _, v in HELPER_ANSWERS))
    missing = {m: sorted(where)[:2] for m, where in _lesson_imports().items() if m not in covered}
    assert not missing, (f"toolfaults modules the lessons import with no {GRADED_IN_FULL}* answer in the catalogue that "
                         f"imports them: {missing}. Add one (any exercise) that imports the module as a learner would.")


FORMS = {
    "from toolfaults.x import name": r"^from toolfaults\.\w+ import (?!\*)",
    "import toolfaults.x as y": r"^import toolfaults\.\w+ as \w+",
    "from toolfaults.x import *": r"^from toolfaults\.\w+ import \*",
    "from toolfaults import module": r"^from toolfaults import \w+",
    "importlib.import_module": r"import_module\(\s*[\"']toolfaults\.",
    "a dataclass built on ToolError": r"@dataclass[^\n]*\n\s*class \w+\((\w+\.)?ToolError\)",
    "a subclass of ToolError": r"^class \w+\((\w+\.)?ToolError\)",
    "a subclass of MockTool": r"^class \w+\((\w+\.)?MockTool\)",
}


@pytest.mark.parametrize("assignment", [a for a in GRADED if a not in SPANISH])
def test_every_exercise_has_right_answers_that_use_the_helpers(assignment):
    """Each graded exercise has at least one right answer that imports the helper package for the first time."""
    names = [v.name for a, v in HELPER_ANSWERS if a == assignment]
    assert names, f"{assignment}: no {GRADED_IN_FULL}* answer in its catalogue"


def test_the_helper_answers_use_every_import_form():
    code = "\n".join(v.code for _, v in HELPER_ANSWERS)
    missing = [form for form, pattern in FORMS.items() if not re.search(pattern, code, re.M)]
    assert not missing, f"no {GRADED_IN_FULL}* answer in the catalogues uses: {missing}"
