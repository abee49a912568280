"""autograder/diagnosis.py alone: what an autograded copy's error outputs say went wrong, in both languages.

Each test writes the released notebook of exercise 05 with the outputs a graded run leaves (a dead kernel, a
timeout, a stuck cell, a syntax error, ``sys.exit()``, the helper-package check, huge output) and reads the
problems :func:`autograder.diagnosis.diagnose` adds. No kernel runs.
"""

from __future__ import annotations

import copy

import nbformat
import pytest

from autograder import pipeline
from autograder.course import EXERCISES, SOLUTIONS
from autograder.diagnosis import diagnose
from autograder.guard import TAMPERED
from autograder.preprocessors import CELL_TIMEOUT, KERNEL_DIED, META, NOT_RUN
from autograder.results import SubmissionResult
from autograder.testcells import is_test

ASSIGNMENT = "05_retry_with_backoff"


@pytest.fixture(scope="module")
def assignment() -> pipeline.Assignment:
    return pipeline.Assignment.read(ASSIGNMENT, SOLUTIONS, EXERCISES)


def error(ename: str, evalue: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[])


def cells(nb, kind: str) -> list:
    """The code cells of ``nb`` that are tests, answers or neither ("other")."""
    def kind_of(cell) -> str:
        meta = cell.metadata.get("nbgrader", {})
        return "test" if is_test(meta) else "answer" if meta.get("solution") else "other"

    return [c for c in nb.cells if c.cell_type == "code" and kind_of(c) == kind]


def diagnosed(tmp_path, assignment, change) -> SubmissionResult:
    """The problems diagnosis finds in the released notebook after ``change(nb)`` put outputs in it."""
    nb = copy.deepcopy(assignment.released[ASSIGNMENT])
    change(nb)
    folder = tmp_path / change.__name__
    sub = pipeline.Submission(assignment, "ana", folder / "in", folder / "staged", folder / "graded")
    sub.autograded.mkdir(parents=True)
    nbformat.write(nb, sub.autograded / f"{ASSIGNMENT}.ipynb")
    result = SubmissionResult("ana", ASSIGNMENT, 0, 10)
    diagnose(sub, result)
    return result


def only(result: SubmissionResult):
    [found] = result.problems
    return found


def test_a_clean_run_has_nothing_to_say(tmp_path, assignment):
    assert diagnosed(tmp_path, assignment, lambda nb: None).problems == []


def test_a_dead_kernel_names_the_answer_cell_and_counts_one_test_not_run(tmp_path, assignment):
    def change(nb):
        answer = cells(nb, "answer")[0]
        answer.outputs = [error(KERNEL_DIED, "the kernel died")]
        cells(nb, "test")[-1].outputs = [error(NOT_RUN, "not run: the kernel died")]

    found = only(diagnosed(tmp_path, assignment, change))
    assert (found.kind, found.attention) == ("kernel_died", True)
    assert found.text.startswith("the kernel died (os._exit(), a crash or out of memory?) while running the answer cell ")
    assert found.text.endswith("; the 1 test after it were not run")
    assert found.text_es.endswith("; el test posterior no se ejecutó")


def test_a_stuck_cell_and_the_notebook_time_limit_are_told_apart(tmp_path, assignment):
    def stuck(nb):
        for cell in cells(nb, "test"):
            cell.outputs = [error(NOT_RUN, "not run: a cell kept running after it was interrupted")]

    def used_up(nb):
        for cell in cells(nb, "test"):
            cell.outputs = [error(NOT_RUN, "not run: the notebook used up its time limit of 120 s")]

    tests = len(cells(assignment.released[ASSIGNMENT], "test"))
    found = only(diagnosed(tmp_path, assignment, stuck))
    assert (found.kind, found.attention) == ("stuck_kernel", True)
    assert found.text.endswith(f"the {tests} tests after it were not run")
    found = only(diagnosed(tmp_path, assignment, used_up))
    assert (found.kind, found.attention) == ("time_limit", True)
    assert found.text == f"the notebook used up its time limit (an endless loop?); the {tests} tests after it were not run"
    assert found.text_es == ("el notebook agotó su tiempo límite (¿un bucle infinito?); "
                             f"los {tests} tests posteriores no se ejecutaron")


def test_a_timed_out_test_is_named_by_its_description_and_needs_no_attention(tmp_path, assignment):
    def change(nb):
        cells(nb, "test")[0].outputs = [error(CELL_TIMEOUT, "the cell did not finish within 30 s")]

    test = cells(assignment.released[ASSIGNMENT], "test")[0]
    description = assignment.tests[test.metadata["nbgrader"]["grade_id"]][0]
    found = only(diagnosed(tmp_path, assignment, change))
    assert (found.kind, found.attention) == ("timeout", False)
    assert found.text == f"the test \"{description}\" did not finish within the time limit and was stopped (an endless loop?)"
    assert found.text_es.startswith(f"el test \"{description}\" no terminó")


def test_a_syntax_error_in_an_answer_and_sys_exit_in_another_cell(tmp_path, assignment):
    def change(nb):
        cells(nb, "answer")[0].outputs = [error("SyntaxError", "invalid syntax (<cell>, line 3)")]
        other = cells(nb, "other")[0]
        other.source = "import sys\nsys.exit(0)"
        other.outputs = [error("SystemExit", "0")]

    result = diagnosed(tmp_path, assignment, change)
    kinds = {p.kind: p for p in result.problems}
    assert set(kinds) == {"syntax_error", "sys_exit"} and result.status == "graded"
    assert "(SyntaxError: invalid syntax (<cell>, line 3)); nothing in it was defined" in kinds["syntax_error"].text
    assert kinds["sys_exit"].text.endswith("(sys.exit(0)) called sys.exit(); the grader kept going")


def test_a_syntax_error_a_test_printed_is_the_learners_test_failing_not_a_cell_to_report(tmp_path, assignment):
    def change(nb):
        cells(nb, "test")[0].outputs = [error("SyntaxError", "raised by the learner's code")]

    assert diagnosed(tmp_path, assignment, change).problems == []


def test_the_helper_package_check_puts_the_score_under_review(tmp_path, assignment):
    def change(nb):
        cells(nb, "test")[0].outputs = [error("AssertionError", f"{TAMPERED}: toolfaults.tools.MockTool.invoke was "
                                                                "replaced. The tests cannot trust it")]

    found = only(diagnosed(tmp_path, assignment, change))
    assert (found.kind, found.attention) == ("tampered", True)
    assert "(toolfaults.tools.MockTool.invoke was replaced)" in found.text
    assert found.text.endswith("the score is under review")


def test_huge_output_is_counted_in_each_languages_digits(tmp_path, assignment):
    def change(nb):
        cells(nb, "answer")[0].metadata[META] = {"output_chars": 12345678}

    found = only(diagnosed(tmp_path, assignment, change))
    assert (found.kind, found.attention) == ("huge_output", False)
    assert "printed 12,345,678 characters; the grader cut the output" in found.text
    assert "imprimió 12.345.678 caracteres" in found.text_es
