"""The toy class graded once for every test that reads it (broken submissions, parallel vs sequential)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def toy_class_graded(tmp_path_factory):
    """Every submission of ``toy.py`` graded once, as `make grade` grades: a Dask LocalCluster of two workers,
    sandboxed where the sandbox runs (``toy.graded_as_make_grade``).

    Returns the course, the results (sorted by student), the progress calls ``(student, done,
    total)`` in the order they came, and the gradebook as it was right after the run (later
    tests may regrade into the course).
    """
    from autograder import gradebook as gbook
    from autograder.engine import Course
    from autograder.pool import Task, grade_tasks
    from tests.grading.toy import ASSIGNMENT, SOURCE, graded_as_make_grade, submissions, submit_all

    course = Course.scratch(tmp_path_factory.mktemp("toy-class"), SOURCE, config=graded_as_make_grade())
    course.generate(ASSIGNMENT)
    subs = submissions(course)
    submit_all(course, subs)
    seen: list[tuple[str, int, int]] = []
    results = grade_tasks(course, [Task(ASSIGNMENT, s) for s in subs], workers=2, time_limit=300,
                          on_result=lambda r, done, total: seen.append((r.student, done, total)))
    return {"course": course, "results": results, "students": list(subs), "seen": seen,
            "dump": gbook.dump(course.db_url, course.course_id)}
