"""Broken submissions get a score and a reason, never stop the batch, and never touch anyone else's grade.

One class of the toy assignment (see ``toy.py``): well-behaved students around every
kind of broken submission, graded in one batch by two worker processes, the way
`make grade` grades (the ``toy_class_graded`` fixture of ``conftest.py``, shared with
``test_parallel_grading.py``). Each test checks one student's score and that the feedback
(the result's problems, which the report and the feedback page show) names what
happened. A control course without the helper-package check proves the cheats work.
"""

from __future__ import annotations

import html

import pytest

from autograder import feedback
from autograder import gradebook as gbook
from autograder.engine import Course
from autograder.results import ATTENTION
from autograder.preprocessors import CheckHelperPackage, autograde_pipeline, RestoreTestSource
from tests.grading.toy import ASSIGNMENT, CHEAT, NO_RETRY, SETTINGS, SOURCE, answer_only, hidden_source

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def batch(toy_class_graded):
    return {"course": toy_class_graded["course"], "students": toy_class_graded["students"],
            "results": {r.student: r for r in toy_class_graded["results"]}}


def result(batch, student):
    return batch["results"][student]


def problem(batch, student, *kinds):
    r = result(batch, student)
    found = [p for p in r.problems if p.kind in kinds]
    assert found, f"{student}: expected a problem of kind {kinds}, got {[(p.kind, p.text) for p in r.problems]}"
    page = feedback.render_html(r)
    assert found[0].text[1:40] in html.unescape(page), f"{student}: the feedback page does not name what happened"
    return found[0]


def score(batch, student) -> float:
    return result(batch, student).score


# -- the batch as a whole ---------------------------------------------------------------
def test_every_submission_is_graded(batch):
    """One result per submission, whatever was wrong with it."""
    assert sorted(batch["results"]) == sorted(batch["students"])


def test_well_behaved_students_are_unaffected(batch):
    """Full marks, partial credit and the stub score as they should, before and after the broken ones."""
    assert score(batch, "ana") == score(batch, "zoe") == score(batch, "ben") == 8
    assert score(batch, "carla") == 5  # also sleeps after the last attempt: the hidden "gives up" check fails
    assert score(batch, "dmitri") == 2  # no retries: only "works the first time" passes
    assert score(batch, "eve") == 0  # the stub
    for student in ("ana", "ben", "carla", "dmitri", "eve", "zoe"):
        assert result(batch, student).status == "graded" and not result(batch, student).problems, student


def test_gradebook_holds_exactly_the_reported_grades(batch):
    """The gradebook has one submission per student, with the score each result reports."""
    course = batch["course"]
    table = {row["student"]: row for row in gbook.scores(course.db_url, course.course_id)}
    assert sorted(table) == sorted(batch["students"])
    for student, r in batch["results"].items():
        assert table[student]["submitted"], student
        assert table[student]["score"] == r.score, (student, table[student], r.score)
        assert r.max_score == table[student]["max_score"] == 8


def test_submissions_folder_is_never_modified(batch):
    """Grading reads a staged copy: the renamed notebook keeps its name, the broken file its bytes."""
    course = batch["course"]
    assert (course.submitted(ASSIGNMENT, "renamed") / "toy_retry-Copy1.ipynb").exists()
    assert not (course.submitted(ASSIGNMENT, "renamed") / "toy_retry.ipynb").exists()
    assert not (course.submitted(ASSIGNMENT, "missing") / "toy_retry.ipynb").exists()


# -- one test per kind of breakage ------------------------------------------------------
def test_syntax_error(batch):
    assert score(batch, "syntax") == 0
    p = problem(batch, "syntax", "syntax_error")
    assert "syntax error" in p.text and "call_with_retries_answer" in p.text


def test_endless_loop_in_the_answer(batch):
    """Each looping cell is stopped at the cell time limit; the notebook's own limit ends the rest."""
    assert score(batch, "loop") == 0
    problem(batch, "loop", "timeout")
    assert "time limit" in problem(batch, "loop", "time_limit").text
    assert any("did not finish within" in t.message or "not run" in t.message for t in result(batch, "loop").tests)


@pytest.mark.parametrize("student", ["loop", "stuck"])
def test_a_loop_costs_its_time_limit_once(batch, student):
    """The clean room does not run again what the kernel gave up on (a test stopped at its limit, cells not run).

    Before, the clean run met the same loops again and spent the same limits: "loop" each looping
    test's cell limit, and "stuck", whose loop ignores the interrupt, the clean run's whole limit
    (it was stopped, `cleanroom_unfinished`). Which cells the plan leaves out:
    tests/tricks/test_cleanroom.py.
    """
    from autograder.cleanroom import UNFINISHED
    from autograder.problems import RECHECK_FAILED

    r = result(batch, student)
    assert not {UNFINISHED, RECHECK_FAILED} & set(r.kinds()), [p.text for p in r.problems if p.kind == UNFINISHED]
    assert any(p.kind in ("timeout", "stuck_kernel") for p in r.problems)  # the kernel's own report stays


def test_endless_retry_loop_that_swallows_the_interrupt(batch):
    """A retry loop whose sleep does nothing and whose bare except eats KeyboardInterrupt: stopped, reported."""
    r = result(batch, "stuck")
    assert r.score == 5, [t.message for t in r.tests]  # the two tests that end before the loop pass
    p = problem(batch, "stuck", "stuck_kernel", "timeout")
    assert "endless loop" in p.text


def test_sys_exit_in_a_cell(batch):
    """sys.exit() in a cell does not end grading: the tests after it run (full marks here)."""
    assert score(batch, "exit_cell") == 8
    assert "sys.exit()" in problem(batch, "exit_cell", "sys_exit").text
    assert result(batch, "exit_cell").status == "graded"


def test_sys_exit_in_the_answer(batch):
    r = result(batch, "exit_answer")
    assert r.score == 0
    assert all("SystemExit" in t.message for t in r.tests)
    problem(batch, "exit_answer", "sys_exit")


def test_os_exit_in_a_cell(batch):
    """os._exit() kills the kernel: the cells after it are not run and the submission needs attention."""
    r = result(batch, "crash_cell")
    assert r.score == 0 and r.status == ATTENTION
    assert "kernel died" in problem(batch, "crash_cell", "kernel_died").text
    assert all("not run" in t.message for t in r.tests)


def test_os_exit_during_a_test_keeps_the_earlier_tests(batch):
    """Unlike plain nbgrader (0 for the whole notebook), the tests that ran before the crash keep their points."""
    r = result(batch, "crash_test")
    assert r.score == 2 and r.status == ATTENTION, [t.message for t in r.tests]
    assert "It gives up" in problem(batch, "crash_test", "kernel_died").text


def test_tens_of_megabytes_printed(batch):
    """Output is cut to a few kilobytes; the score stands; the note says how much was printed."""
    assert score(batch, "chatty") == 8
    assert "characters" in problem(batch, "chatty", "huge_output").text
    graded = batch["course"].directory("autograded", ASSIGNMENT, "chatty") / f"{ASSIGNMENT}.ipynb"
    assert graded.stat().st_size < 500_000, f"the autograded notebook is {graded.stat().st_size:,} bytes"


def test_deleted_test_cell_is_put_back(batch):
    """Deleting a test earns nothing: the grader puts it back and runs it."""
    assert score(batch, "no_test") == 8
    assert "was deleted" in problem(batch, "no_test", "test_deleted").text
    assert score(batch, "no_test_wrong") == 5  # the restored "gives up" test runs, and fails
    problem(batch, "no_test_wrong", "test_deleted")


def test_locked_test_edited_to_pass(batch):
    """A stub whose tests were replaced by `pass` still scores zero: the original tests run."""
    assert score(batch, "edited_test") == 0
    assert "was edited" in problem(batch, "edited_test", "test_edited").text


def test_answer_cell_deleted(batch):
    assert score(batch, "no_answer") == 0
    problem(batch, "no_answer", "answer_deleted")
    assert all("NameError" in t.message for t in result(batch, "no_answer").tests)


def test_renamed_notebook_is_graded(batch):
    assert score(batch, "renamed") == 8
    assert "toy_retry-Copy1.ipynb" in problem(batch, "renamed", "renamed").text


def test_missing_notebook(batch):
    r = result(batch, "missing")
    assert r.score == 0 and r.status == ATTENTION
    assert "notes.txt" in problem(batch, "missing", "missing_notebook").text


def test_notebook_that_is_not_json(batch):
    r = result(batch, "not_json")
    assert r.score == 0 and r.status == ATTENTION
    assert "not valid JSON" in problem(batch, "not_json", "invalid_notebook").text


@pytest.mark.parametrize("student", ["cheat", "fake_module", "patched_factory", "patched_base"])
def test_tampering_with_the_helper_package(batch, student):
    """Patching the mocked tools, the recording sleep, a factory or the tool base class fails every test after it."""
    r = result(batch, student)
    assert r.score == 0 and r.status == ATTENTION, (student, r.score, [t.message for t in r.tests])
    assert "helper package" in problem(batch, student, "tampered").text


def test_hidden_test_source_is_redacted_from_messages(batch):
    """A message quoting the call stack (a hidden test's line in it) reaches the feedback without that line."""
    r = result(batch, "stack_leak")
    test = next(t for t in r.tests if t.grade_id == "test_retries_connection_error")
    assert not test.passed and "where am I?" in test.message, test.message
    assert "[hidden test]" in test.message, test.message
    page = html.unescape(feedback.render_html(r))
    for line in hidden_source():
        if len(line) >= 12 and not line.startswith(("\"", "'", "f\"", "f'", "#")):
            assert line not in page and line not in test.message, line


def test_the_cheat_works_without_the_check(tmp_path):
    """Control: without the helper-package check (and the clean-room re-run, which also catches it), the same
    cheat earns points its answer does not deserve."""
    pipeline = [p for p in autograde_pipeline() if p not in (CheckHelperPackage, RestoreTestSource)]
    control = Course.scratch(tmp_path, SOURCE, config={**SETTINGS, "Autograde": {"autograde_preprocessors": pipeline},
                                                       "CrossCheck": {"enabled": False}})
    control.generate(ASSIGNMENT)
    control.submit("cheat", ASSIGNMENT, answer_only(control, CHEAT))
    cheated = control.autograde(ASSIGNMENT, "cheat")
    honest = control.autograde(ASSIGNMENT, "honest") if control.submit("honest", ASSIGNMENT, answer_only(control, NO_RETRY)) else None
    assert honest.score == 2
    assert cheated.score > honest.score, [t.message for t in cheated.tests]
    assert any(t.passed and t.grade_id == "test_retries_connection_error" for t in cheated.tests)


def test_a_spanish_learner_reads_every_notice_in_spanish(batch):
    """Each notice the grader wrote about the broken batch has a Spanish sentence, which a Spanish submission's feedback shows.

    The toy assignment is English; the same results, under a Spanish assignment's name
    (``_es``), are what the feedback of the Spanish edition renders.
    """
    import copy

    kinds = set()
    for student, r in batch["results"].items():
        if not r.problems:
            continue
        spanish = copy.deepcopy(r)
        spanish.assignment = f"{r.assignment}_es"
        for test in spanish.tests:  # the tests' own messages were written by the English run (a syntax error's
            test.message = ""       # quotes the English problem); a Spanish run writes them in Spanish
        page = html.unescape(feedback.render_html(spanish))
        data = feedback.as_data(spanish)
        for p in r.problems:
            kinds.add(p.kind)
            assert p.text_es and p.text_es != p.text, f"{student}: no Spanish for {p.kind}: {p.text}"
            assert p.text_es[1:40] in page and p.text[1:40] not in page, (student, p.kind)
            assert p.text_es in data["problems"], (student, p.kind)
        english = html.unescape(feedback.render_html(r))
        assert all(p.text[1:40] in english and p.text_es[1:40] not in english for p in r.problems), student
    # the batch covers the repairs, the diagnoses and the cross-checks
    assert {"syntax_error", "test_deleted", "renamed", "missing_notebook", "kernel_died", "tampered"} <= kinds, kinds
