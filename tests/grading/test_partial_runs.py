"""After a partial run, grades.csv tells work handed in but not graded yet from work never handed in.

grades.csv has a row for every student and assignment of the gradebook. A submission that sits
in the submissions folder but that no run has graded yet (``--student`` / ``--assignment`` left
it out) used to read ``0, not submitted``, the same as a student who handed in nothing.
"""

from __future__ import annotations

import csv
import shutil

import pytest

from autograder import grade
from autograder.engine import Course
from autograder.pool import Task
from tests.grading.toy import ASSIGNMENT, SETTINGS, SOURCE

pytestmark = pytest.mark.slow

SECOND = "toy_again"  # a second assignment: the toy one under another name


def test_submitted_work_not_graded_yet_is_not_called_not_submitted(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(SOURCE / ASSIGNMENT, source / ASSIGNMENT)
    (source / SECOND).mkdir()
    shutil.copy(SOURCE / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", source / SECOND / f"{SECOND}.ipynb")
    course = Course.scratch(tmp_path / "course", source, config=SETTINGS)
    for assignment in (ASSIGNMENT, SECOND):
        course.generate(assignment)
    # ana handed in both assignments, ben only the second one.
    for student, assignment in (("ana", ASSIGNMENT), ("ana", SECOND), ("ben", SECOND)):
        course.submit(student, assignment, course.released(assignment))
    out = tmp_path / "out"
    # Two partial runs (`--student ben --assignment toy_again`, then `--student ana --assignment toy_retry`).
    for student, assignment in (("ben", SECOND), ("ana", ASSIGNMENT)):
        grade.run(course, [Task(assignment, student)], 1, out, out / "feedback", log=lambda *_: None)

    with (out / "grades.csv").open(newline="") as fh:
        rows = {(r["student"], r["assignment"]): r for r in csv.DictReader(fh)}
    assert rows[("ana", SECOND)]["status"] == "not graded yet" == grade.NOT_GRADED
    assert rows[("ana", SECOND)]["notes"] == "submitted, not graded yet"
    assert rows[("ana", SECOND)]["score"] == "", "no score until it is graded"
    assert rows[("ben", ASSIGNMENT)]["score"] == "0"
    assert rows[("ben", ASSIGNMENT)]["status"] == "not submitted"
    assert rows[("ana", ASSIGNMENT)]["status"] == rows[("ben", SECOND)]["status"] == "graded"
