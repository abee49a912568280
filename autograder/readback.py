"""Reading a graded submission back: score and per-test results from the gradebook and the autograded copy.

The gradebook says how many points each test cell scored; the autograded notebook
says what a failing test printed. :func:`read_result` (the pipeline's "read back" stage,
:mod:`autograder.pipeline`) joins the two, given as plain data, into a
:class:`~autograder.results.SubmissionResult`; every message is the test's exception
type and text (no traceback, no source), with hidden test lines removed.

A test's points are its *automatic* score (what the kernel's run earned, which the
cross-checks compare with the clean room), never a manual score an instructor set in the
formgrader. What the student gets is nbgrader's score, where a manual score wins:
:meth:`autograder.gradebook.Book.instructor_scores` reads it for the submissions an instructor adjusted and
:func:`set_instructor_score` makes it the result's score, saying so.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import nbformat

from .preprocessors import GRADER_ERRORS, NOT_RUN
from .problems import INSTRUCTOR_SCORE, Problem, problem
from .results import SubmissionResult, TestResult
from .testcells import grade_id, redact

if TYPE_CHECKING:
    from .pipeline import Submission

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def failure_message(cell: nbformat.NotebookNode) -> str:
    """The message a failed test cell printed: its exception's type and text, no source.

    What the grader reports (a timeout, a dead kernel) comes before the learner's own errors
    (a timed-out cell also shows the ``KeyboardInterrupt`` that stopped it).
    """
    errors = [out for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    errors.sort(key=lambda out: out.get("ename") not in GRADER_ERRORS)
    for out in errors:
        ename, evalue = out.get("ename", "Error"), ANSI.sub("", str(out.get("evalue", ""))).strip()
        if ename == NOT_RUN and evalue:
            return "This test was " + evalue + "."
        if ename in GRADER_ERRORS and evalue:
            return evalue[:1].upper() + evalue[1:]
        if ename == "AssertionError" and evalue:
            return evalue
        return f"{ename}: {evalue}" if evalue else ename
    return ""


def test_result(gid: str, description: str, points: float, score: float | None, message: str | None,
                hidden: tuple[str, ...]) -> TestResult:
    """One test's result: passed when it ran (``score`` not None) and scored all its ``points``; a
    failure's ``message`` (None: the test did not run) without hidden test lines."""
    passed = score is not None and score >= points and points > 0
    if passed:
        return TestResult(gid, description or gid, score, points, True, "")
    text = "This test did not run." if message is None else message or "This test failed."
    return TestResult(gid, description or gid, score or 0.0, points, False, redact(text, hidden))


def read_result(sub: Submission, scores: dict[str, dict[str, float | None] | None]) -> SubmissionResult:
    """Score and per-test results of a graded submission (0 for everything missing).

    Args:
        sub: the submission (:class:`autograder.pipeline.Submission`), its autograded copy read there.
        scores: the kernel's score of each test, by notebook, from the gradebook
            (:meth:`autograder.gradebook.Book.auto_scores`); ``None`` for a notebook it has no entry for.
    """
    tests: list[TestResult] = []
    problems: list[Problem] = []
    for name in sub.assignment.notebooks:
        graded_nb = sub.graded(name)
        outputs = {grade_id(cell): cell for cell in graded_nb.cells if grade_id(cell)} if graded_nb is not None else {}
        grades = scores.get(name)
        if grades is None:
            grades = {}
            problems.append(problem("not_graded", name=name))
        for gid, (description, points) in sub.assignment.tests.items():
            # The kernel's own result: a manual score is the instructor's, applied after the checks.
            score = grades.get(gid) or 0.0
            cell = outputs.get(gid)
            message = failure_message(cell) if cell is not None else None
            tests.append(test_result(gid, description, points, score if gid in grades else None,
                                     message, sub.assignment.hidden))
    max_score = sum(t.max_points for t in tests)
    result = SubmissionResult(sub.student, sub.assignment.name, sum(t.points for t in tests), max_score, tests)
    for found in problems:
        result.note(found)
    return result


def set_instructor_score(result: SubmissionResult, score: float | None) -> None:
    """Make ``score``, set by an instructor, what ``result``'s student gets (``None``: the tests' score).

    The tests keep their own points; when ``score`` differs from theirs, a problem (not one
    that needs attention) says what the tests gave and what the instructor set. Applying it
    again, or another score, replaces it.
    """
    result.problems = [p for p in result.problems if p.kind != INSTRUCTOR_SCORE]
    result.score = sum(t.points for t in result.tests)
    if score is None or score == result.score:
        return
    result.flag(INSTRUCTOR_SCORE, tests=result.score, total=score, out_of=result.max_score)
    result.score = score
