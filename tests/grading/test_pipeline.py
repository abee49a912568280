"""The stages of one submission's grading (autograder/pipeline.py), each called on fixture notebooks, no kernel.

The assignment is the course's own exercise 05, read from ``solutions/`` and its release ``exercises/``;
the autograded copies are the released notebook with the outputs a graded run leaves. nbgrader and the
gradebook are replaced by plain functions and a recording book, so what each stage does with what it is
given is checked alone, and :func:`autograder.pipeline.grade` is checked to run them in order and write
every grade through the book.
"""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

import nbformat
import pytest

from autograder import pipeline
from autograder.course import EXERCISES, SOLUTIONS
from autograder.preprocessors import KERNEL_DIED, NOT_RUN
from autograder.testcells import grade_id, is_test

ASSIGNMENT = "05_retry_with_backoff"
PACKAGE = Path(pipeline.__file__).parent


@pytest.fixture(scope="module")
def assignment() -> pipeline.Assignment:
    return pipeline.Assignment.read(ASSIGNMENT, SOLUTIONS, EXERCISES)


def submission(tmp_path: Path, assignment: pipeline.Assignment, nb: nbformat.NotebookNode | None) -> pipeline.Submission:
    """A submission of ``nb`` (``None``: nothing handed in) with its folders under ``tmp_path``."""
    sub = pipeline.Submission(assignment, "ana", tmp_path / "submitted" / "ana" / ASSIGNMENT,
                              tmp_path / "staged" / "ana" / ASSIGNMENT, tmp_path / "autograded" / "ana" / ASSIGNMENT)
    if nb is not None:
        sub.submitted.mkdir(parents=True)
        nbformat.write(nb, sub.submitted / f"{assignment.notebooks[0]}.ipynb")
    return sub


def error(ename: str, evalue: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[])


def cells_of_tests(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [c for c in nb.cells if is_test(c.metadata.get("nbgrader", {}))]


def write_graded(sub: pipeline.Submission, nb: nbformat.NotebookNode) -> None:
    sub.autograded.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, sub.autograded / f"{sub.assignment.notebooks[0]}.ipynb")


# -- each stage alone ---------------------------------------------------------------------------------
def test_the_assignment_is_read_once_with_its_tests_and_hidden_lines(assignment):
    name = assignment.notebooks[0]
    assert assignment.notebooks == (ASSIGNMENT,)
    assert set(assignment.tests) == {grade_id(c) for c in cells_of_tests(assignment.sources[name])}
    assert all(points > 0 for _, points in assignment.tests.values())
    assert assignment.hidden and all(line not in assignment.released[name].cells[0].source for line in assignment.hidden)


def test_stage_puts_a_deleted_test_back_and_says_so(tmp_path, assignment):
    released = copy.deepcopy(assignment.released[ASSIGNMENT])
    deleted = grade_id(cells_of_tests(released)[0])
    released.cells = [c for c in released.cells if grade_id(c) != deleted]
    sub = submission(tmp_path, assignment, released)
    pipeline.stage(sub)
    assert sub.notebooks == [ASSIGNMENT]
    staged = nbformat.read(sub.staged / f"{ASSIGNMENT}.ipynb", as_version=4)
    assert deleted in {grade_id(c) for c in staged.cells}
    assert [p.kind for p in sub.problems] == ["test_deleted"]
    assert (sub.submitted / f"{ASSIGNMENT}.ipynb").is_file()  # what was handed in is left as it was


def test_stage_with_nothing_handed_in_grades_nothing_and_needs_attention(tmp_path, assignment):
    sub = submission(tmp_path, assignment, None)
    pipeline.stage(sub)
    assert sub.notebooks == []
    assert [(p.kind, p.attention) for p in sub.problems] == [("nothing_submitted", True)]


def test_stage_clears_an_earlier_runs_autograded_copy(tmp_path, assignment):
    sub = submission(tmp_path, assignment, assignment.released[ASSIGNMENT])
    write_graded(sub, assignment.released[ASSIGNMENT])
    assert sub.graded(ASSIGNMENT) is not None
    pipeline.stage(sub)
    assert not sub.autograded.exists() and sub.graded(ASSIGNMENT) is None


def test_read_back_joins_the_scores_and_the_messages_without_hidden_lines(tmp_path, assignment):
    graded = copy.deepcopy(assignment.released[ASSIGNMENT])
    failing, *passing = cells_of_tests(graded)
    leaked = assignment.hidden[0]
    failing.outputs = [error("AssertionError", f"expected 3 calls\n{leaked}")]
    sub = submission(tmp_path, assignment, graded)
    write_graded(sub, graded)
    scores = {ASSIGNMENT: {gid: (0.0 if gid == grade_id(failing) else points)
                           for gid, (_, points) in assignment.tests.items()}}
    result = pipeline.read_back(sub, scores)
    total = sum(points for _, points in assignment.tests.values())
    assert result.max_score == total
    assert result.score == total - assignment.tests[grade_id(failing)][1]
    [failed] = result.failed
    assert failed.grade_id == grade_id(failing) and "expected 3 calls" in failed.message
    assert leaked not in failed.message
    assert result.problems == []


def test_read_back_of_a_notebook_the_gradebook_does_not_hold_scores_zero_and_says_so(tmp_path, assignment):
    sub = submission(tmp_path, assignment, None)
    result = pipeline.read_back(sub, {ASSIGNMENT: None})
    assert result.score == 0 and len(result.failed) == len(assignment.tests)
    assert all(t.message == "This test did not run." for t in result.tests)
    assert [(p.kind, p.attention) for p in result.problems] == [("not_graded", True)]


def test_diagnose_names_the_dead_kernel_and_counts_the_tests_it_took_with_it(tmp_path, assignment):
    graded = copy.deepcopy(assignment.released[ASSIGNMENT])
    answer = next(c for c in graded.cells if c.metadata.get("nbgrader", {}).get("solution") and c.cell_type == "code")
    answer.outputs = [error(KERNEL_DIED, "the kernel died while running this cell")]
    tests = cells_of_tests(graded)
    for cell in tests:
        cell.outputs = [error(NOT_RUN, "not run: the kernel died")]
    sub = submission(tmp_path, assignment, graded)
    write_graded(sub, graded)
    result = pipeline.read_back(sub, {ASSIGNMENT: {gid: 0.0 for gid in assignment.tests}})
    pipeline.diagnose(sub, result)
    [died] = [p for p in result.problems if p.kind == "kernel_died"]
    assert died.attention
    assert died.text.endswith(f"the {len(tests)} tests after it were not run"), died.text
    assert died.text_es.endswith(f"los {len(tests)} tests posteriores no se ejecutaron"), died.text_es


def test_cross_check_switched_off_changes_nothing(tmp_path, assignment):
    sub = submission(tmp_path, assignment, assignment.released[ASSIGNMENT])
    result = pipeline.read_back(sub, {ASSIGNMENT: {gid: 0.0 for gid in assignment.tests}})
    before = result.to_dict()
    assert pipeline.cross_check(sub, result, None) == []
    assert result.to_dict() == before


# -- the stages together, nbgrader and the gradebook replaced -----------------------------------------
class RecordingBook:
    """A gradebook that records what it is asked to write and answers the scores it is given."""

    def __init__(self, scores):
        self.scores, self.writes = scores, []

    def auto_scores(self, assignment, student, notebooks):
        return {name: self.scores.get(name) for name in notebooks}

    def record_zero(self, assignment, student):
        self.writes.append(("record_zero", assignment, student))
        self.scores = {}

    def set_auto_scores(self, assignment, student, cells):
        self.writes.append(("set_auto_scores", assignment, student, list(cells)))


def test_grade_runs_the_stages_and_writes_only_through_the_book(tmp_path, assignment):
    sub = submission(tmp_path, assignment, assignment.released[ASSIGNMENT])
    ran = []

    def autograde(name, student):  # what nbgrader's autograde leaves: the staged copy, every test passed
        ran.append((name, student))
        write_graded(sub, nbformat.read(sub.staged / f"{ASSIGNMENT}.ipynb", as_version=4))
        return ""

    book = RecordingBook({ASSIGNMENT: {gid: points for gid, (_, points) in assignment.tests.items()}})
    result = pipeline.grade(sub, autograde, book, None)
    assert ran == [(ASSIGNMENT, "ana")]
    assert result.score == result.max_score > 0 and result.problems == [] and book.writes == []
    assert result.seconds >= 0 and result.worker > 0


def test_grade_of_a_submission_nbgrader_could_not_grade_records_zero_and_says_why(tmp_path, assignment):
    sub = submission(tmp_path, assignment, assignment.released[ASSIGNMENT])
    book = RecordingBook({ASSIGNMENT: {gid: 0.0 for gid in assignment.tests}})
    result = pipeline.grade(sub, lambda name, student: "ValueError: the notebook is broken", book, None)
    assert book.writes == [("record_zero", ASSIGNMENT, "ana")]
    assert result.score == 0
    assert ("nbgrader_error", True) in [(p.kind, p.attention) for p in result.problems]
    assert any("ValueError: the notebook is broken" in p.text for p in result.problems)


def test_grade_of_nothing_handed_in_never_calls_nbgrader(tmp_path, assignment):
    sub = submission(tmp_path, assignment, None)

    def autograde(name, student):
        raise AssertionError("nbgrader was asked to grade nothing")

    book = RecordingBook({})
    result = pipeline.grade(sub, autograde, book, None)
    assert book.writes == [("record_zero", ASSIGNMENT, "ana")]
    assert result.score == 0 and "nothing_submitted" in result.kinds()


# -- the pipeline as documented, and the one writer ---------------------------------------------------
def _stage_calls() -> list[str]:
    """The stage functions :func:`autograder.pipeline.grade` calls, in the order its body calls them."""
    tree = ast.parse(Path(pipeline.__file__).read_text(encoding="utf-8"))
    body = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "grade")
    names = {s.replace(" ", "_").replace("-", "_") for s in pipeline.STAGES}
    calls = [n for n in ast.walk(body) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in names]
    return [c.func.id for c in sorted(calls, key=lambda c: (c.lineno, c.col_offset))]


def test_grade_runs_every_stage_once_in_the_order_stages_lists():
    assert _stage_calls() == [s.replace(" ", "_").replace("-", "_") for s in pipeline.STAGES]


def test_the_architecture_lists_the_stages_that_are_run():
    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = re.findall(r"^ *\| \*\*([\w -]+)\*\* \|", text, re.M)
    assert tuple(rows) == pipeline.STAGES, rows


WRITES = {"update_or_create_student", "update_or_create_submission", "add_student", "add_assignment",
          "remove_student", "remove_submission"}


def test_no_module_but_the_gradebook_writes_a_gradebook():
    """Every write the grader makes to a gradebook is a method of ``gradebook.Book`` (nbgrader's own steps aside)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "gradebook.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            db_commit = (isinstance(node, ast.Attribute) and node.attr == "commit"
                         and isinstance(node.value, ast.Attribute) and node.value.attr == "db")
            if isinstance(node, ast.Attribute) and node.attr in WRITES or db_commit:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr in
                                                    ("auto_score", "manual_score", "first_name") for t in node.targets):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} assigns a grade")
    assert not found, found
