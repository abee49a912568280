"""autograder/readback.py alone: a failing test's message, one test's result, and an instructor's score."""

from __future__ import annotations

import nbformat

from autograder.preprocessors import CELL_TIMEOUT, KERNEL_DIED, NOT_RUN
from autograder import readback
from autograder.readback import failure_message, set_instructor_score
from autograder.results import SubmissionResult, TestResult


def cell(*errors: tuple[str, str]) -> nbformat.NotebookNode:
    out = nbformat.v4.new_code_cell("assert ok")
    out.outputs = [nbformat.v4.new_output("error", ename=e, evalue=v, traceback=["Traceback", "source line"])
                   for e, v in errors]
    return out


def test_an_assertion_says_its_message_alone_and_other_errors_their_type_too():
    assert failure_message(cell(("AssertionError", "expected 3 calls, got 1"))) == "expected 3 calls, got 1"
    assert failure_message(cell(("AssertionError", ""))) == "AssertionError"
    assert failure_message(cell(("KeyError", "'status'"))) == "KeyError: 'status'"
    assert failure_message(nbformat.v4.new_code_cell("x = 1")) == ""


def test_what_the_grader_reports_comes_before_the_learners_error_and_colours_are_dropped():
    timed_out = cell(("KeyboardInterrupt", ""), (CELL_TIMEOUT, "the cell did not finish within 30 s"))
    assert failure_message(timed_out) == "The cell did not finish within 30 s"
    assert failure_message(cell((NOT_RUN, "not run: the kernel died"))) == "This test was not run: the kernel died."
    assert failure_message(cell((KERNEL_DIED, "the kernel died while running this cell"))) == \
        "The kernel died while running this cell"
    assert failure_message(cell(("ValueError", "\x1b[31mbad\x1b[0m value"))) == "ValueError: bad value"


def test_a_test_passes_only_when_it_ran_and_scored_all_its_points():
    assert readback.test_result("t", "works", 2.0, 2.0, "", ()).passed
    assert not readback.test_result("t", "works", 2.0, 1.0, "partial", ()).passed
    assert not readback.test_result("t", "works", 0.0, 0.0, "", ()).passed  # a test worth nothing never "passes"
    did_not_run = readback.test_result("t", "", 2.0, None, None, ())
    assert (did_not_run.passed, did_not_run.points, did_not_run.message, did_not_run.description) == \
        (False, 0.0, "This test did not run.", "t")
    assert readback.test_result("t", "works", 2.0, 0.0, "", ()).message == "This test failed."


def test_a_failure_message_never_shows_a_hidden_test_line():
    hidden = ("assert calls == [1, 2, 4], calls",)
    failed = readback.test_result("t", "works", 2.0, 0.0, "AssertionError: assert calls == [1, 2, 4], calls\nwrong", hidden)
    assert "calls == [1, 2, 4]" not in failed.message and "wrong" in failed.message


def result(*points: float) -> SubmissionResult:
    tests = [TestResult(f"t{i}", f"test {i}", p, 2.0, p == 2.0) for i, p in enumerate(points)]
    return SubmissionResult("ana", "05", sum(points), 2.0 * len(points), tests)


def test_an_instructors_score_replaces_the_tests_and_says_both():
    graded = result(2.0, 0.0)
    set_instructor_score(graded, 3.5)
    assert graded.score == 3.5 and [t.points for t in graded.tests] == [2.0, 0.0]
    [said] = graded.problems
    assert (said.kind, said.attention) == ("instructor_score", False)
    assert said.text == "2/4 from the tests, set to 3.5/4 by the instructor"
    assert said.text_es == "2/4 según los tests; el profesor la cambió a 3.5/4"


def test_setting_it_again_replaces_it_and_none_goes_back_to_the_tests():
    graded = result(2.0, 0.0)
    set_instructor_score(graded, 3.5)
    set_instructor_score(graded, 1.0)
    assert graded.score == 1.0 and len(graded.problems) == 1 and "set to 1/4" in graded.problems[0].text
    set_instructor_score(graded, None)
    assert graded.score == 2.0 and graded.problems == []
    set_instructor_score(graded, 2.0)  # the same as the tests: nothing to say
    assert graded.problems == []
