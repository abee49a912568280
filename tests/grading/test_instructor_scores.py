"""A score an instructor set in the formgrader survives `make grade`, and every output shows it.

docs/instructors.md promises that a manual score given in nbgrader's formgrader is kept by a
later `make grade`. The regrade used to read nbgrader's score (where the manual score wins) as
the kernel's result, so the clean room's cross-check saw a test "pass in the kernel" that it
failed, lowered it and marked the submission "needs attention"; the feedback said 5/8 while
grades.csv said 8. Now the tests keep the kernel's automatic score (what the cross-checks
compare) and the instructor's score is what the student gets, everywhere.
"""

from __future__ import annotations

import csv
import html
import json

import pytest
from nbgrader.api import Gradebook

from autograder import grade
from autograder.cleanroom import DIFFERS, KERNEL_KEPT
from autograder.engine import Course
from autograder.pool import Task
from autograder.results import INSTRUCTOR_SCORE
from autograder.results import ATTENTION
from tests.grading.toy import ANSWER, ASSIGNMENT, SETTINGS, SLEEPS_AFTER_LAST, SOURCE

pytestmark = pytest.mark.slow

STUDENT = "carla"
FAILING = "test_gives_up"  # 3 points: carla sleeps after the last attempt, so she scores 5/8
NOTE = "5/8 from the tests, set to 8/8 by the instructor"


def grade_once(course: Course, out) -> tuple:
    """`make grade`'s own run for carla's submission: her result and what grades.csv says of it."""
    lines: list[str] = []
    [result] = grade.run(course, [Task(ASSIGNMENT, STUDENT)], 1, out, out / "feedback", log=lines.append)
    with (out / "grades.csv").open(newline="") as fh:
        row = {(r["student"], r["assignment"]): r for r in csv.DictReader(fh)}[(STUDENT, ASSIGNMENT)]
    return result, row, "\n".join(lines)


def test_a_manual_score_is_kept_by_a_regrade_and_shown_everywhere(tmp_path):
    from coursetools.fairness import solved

    course = Course.scratch(tmp_path / "course", SOURCE, config=SETTINGS)
    course.generate(ASSIGNMENT)
    course.submit(STUDENT, ASSIGNMENT, solved(course, ASSIGNMENT, **{ANSWER: SLEEPS_AFTER_LAST}))
    out = tmp_path / "out"
    first, row, _ = grade_once(course, out)
    assert (first.score, first.status, row["score"]) == (5, "graded", "5"), first.problems

    # The instructor gives the failing test its 3 points in the formgrader: a manual score on its grade.
    with Gradebook(course.db_url, course.course_id) as gb:
        gb.find_grade(FAILING, ASSIGNMENT, ASSIGNMENT, STUDENT).manual_score = 3
        gb.db.commit()
    result, row, log = grade_once(course, out)

    # The cross-check compared the kernel's own result: nothing differs, nothing needs attention.
    assert result.status != ATTENTION and not {DIFFERS, KERNEL_KEPT} & set(result.kinds()), result.problems
    test = {t.grade_id: t for t in result.tests}[FAILING]
    assert (test.passed, test.points) == (False, 0)  # the tests still say what the tests gave
    # What the student gets is the instructor's score, said so, the same in every output.
    assert result.score == 8
    assert [p.text for p in result.problems if p.kind == INSTRUCTOR_SCORE] == [NOTE]
    assert (row["score"], row["status"]) == ("8", "graded") and NOTE in row["notes"]
    data = json.loads((out / "feedback" / STUDENT / ASSIGNMENT / "feedback.json").read_text())
    assert data["score"] == 8 and data["status"] == "graded"
    page = html.unescape((out / "feedback" / STUDENT / ASSIGNMENT / f"{ASSIGNMENT}.html").read_text())
    assert '<div class="score">8 / 8</div>' in page and NOTE[:1].upper() + NOTE[1:] + "." in page
    assert "Your instructor will look" not in page and "What the grader noticed" not in page
    [saved] = json.loads((out / "reports" / "results.json").read_text())
    assert saved["score"] == 8
    assert f"{STUDENT}/{ASSIGNMENT}: {NOTE} (kept)" in log

    # The instructor takes the manual score back: the tests' score again, with no note.
    with Gradebook(course.db_url, course.course_id) as gb:
        gb.find_grade(FAILING, ASSIGNMENT, ASSIGNMENT, STUDENT).manual_score = None
        gb.db.commit()
    again, row, _ = grade_once(course, out)
    assert (again.score, again.status, row["score"]) == (5, "graded", "5")
    assert INSTRUCTOR_SCORE not in again.kinds()
