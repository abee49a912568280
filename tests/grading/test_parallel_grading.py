"""Parallel grading gives exactly the scores of grading one at a time, and loses nothing in the gradebook.

The same class of the toy assignment is graded twice, in two scratch courses: one
submission at a time in this process (nbgrader writing the gradebook itself), and on a
Dask LocalCluster of two workers (`make grade`'s default), where each long-lived worker
grades into its own copy of the SQLite gradebook while this process merges their rows
into the course's gradebook. The results and the whole gradebooks must be identical.
"""

from __future__ import annotations

import os

import pytest

from autograder import gradebook as gbook
from autograder.engine import Course
from autograder.pool import Task, grade_tasks, interleave
from tests.grading.toy import ASSIGNMENT, SETTINGS, SOURCE, dumps, submissions, submit_all

pytestmark = pytest.mark.slow

# Deterministic submissions (no time limits involved): full, partial, stub and several broken kinds.
STUDENTS = ["ana", "carla", "dmitri", "eve", "syntax", "exit_cell", "no_test",
            "renamed", "not_json", "cheat"]


ENGINES = ["dask"]


def _grade(engine: str, course: Course, tasks: list[Task], **kwargs):
    if engine == "dask":
        return grade_tasks(course, tasks, workers=2, time_limit=300, **kwargs)
    return grade_tasks(course, tasks, 1, **kwargs)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    out = {}
    for mode in ("sequential", *ENGINES):
        course = Course.scratch(tmp_path_factory.mktemp(mode), SOURCE, config=SETTINGS)
        course.generate(ASSIGNMENT)
        subs = submissions(course)
        submit_all(course, {s: subs[s] for s in STUDENTS})
        seen = []
        results = _grade(mode, course, [Task(ASSIGNMENT, s) for s in STUDENTS],
                         on_result=lambda r, done, total: seen.append((r.student, done, total)))
        out[mode] = {"course": course, "results": results, "seen": seen,
                     "dump": gbook.dump(course.db_url, course.course_id)}
    return out


@pytest.fixture(params=ENGINES)
def both(request, runs):
    """The sequential run and one parallel engine's run."""
    return {"sequential": runs["sequential"], "parallel": runs[request.param], "engine": request.param}


def _comparable(result):
    data = result.to_dict()
    data.pop("seconds")
    data.pop("worker")
    return data


def test_parallel_scores_equal_sequential(both):
    """Every score, every test's pass/fail and message, every problem: identical."""
    seq = [_comparable(r) for r in both["sequential"]["results"]]
    par = [_comparable(r) for r in both["parallel"]["results"]]
    assert [r["student"] for r in par] == sorted(STUDENTS)
    assert dumps(par) == dumps(seq)


def test_parallel_gradebook_equals_sequential(both):
    """The course's gradebook after the parallel run holds exactly what the sequential run wrote."""
    seq, par = both["sequential"]["dump"], both["parallel"]["dump"]
    assert sorted(par["students"]) == sorted(STUDENTS)
    assert len(par["submissions"]) == len(STUDENTS), "a submission is missing from the gradebook"
    assert dumps(par) == dumps(seq)


def test_gradebook_scores_match_the_results(both):
    """Nothing lost or changed between what a worker graded and what the gradebook says."""
    par = both["parallel"]
    reported = {r.student: r.score for r in par["results"]}
    stored = {k.split("/")[0]: v["score"] for k, v in par["dump"]["submissions"].items()}
    assert stored == reported


def test_the_workers_graded_and_progress_was_reported_once_each(both):
    """Progress is reported once per submission, and worker processes (at most the two asked for, never
    this process) graded every submission. How the work was spread is a figure of `make bench`: with 10
    tasks on a busy machine, one worker may take them all before the other starts."""
    seen = both["parallel"]["seen"]
    assert sorted(s for s, _, _ in seen) == sorted(STUDENTS)
    assert [d for _, d, _ in seen] == list(range(1, len(STUDENTS) + 1))
    workers = {r.worker for r in both["parallel"]["results"]}
    assert 1 <= len(workers) <= 2 and os.getpid() not in workers, workers
    assert {r.worker for r in both["sequential"]["results"]} == {os.getpid()}


def test_interleave_spreads_assignments():
    tasks = [Task("a", s) for s in "xyz"] + [Task("b", s) for s in "xy"]
    assert interleave(tasks) == [Task("a", "x"), Task("b", "x"), Task("a", "y"), Task("b", "y"), Task("a", "z")]


def test_regrading_keeps_the_graders_manual_scores(both):
    """A manual score entered by a grader survives a parallel regrade (workers merge only what autograding writes)."""
    from nbgrader.api import Gradebook

    course = both["parallel"]["course"]
    with Gradebook(course.db_url, course.course_id) as gb:
        grade = gb.find_grade("test_gives_up", ASSIGNMENT, ASSIGNMENT, "dmitri")
        grade.manual_score = 1.5
        gb.db.commit()
    results = {r.student: r for r in _grade(both["engine"], course, [Task(ASSIGNMENT, "dmitri"), Task(ASSIGNMENT, "ana")])}
    with Gradebook(course.db_url, course.course_id) as gb:
        grade = gb.find_grade("test_gives_up", ASSIGNMENT, ASSIGNMENT, "dmitri")
        assert grade.manual_score == 1.5 and grade.auto_score == 0 and grade.needs_manual_grade
        assert gb.find_submission(ASSIGNMENT, "dmitri").score == 2 + 1.5
        assert gb.find_submission(ASSIGNMENT, "ana").score == 8
    assert results["ana"].score == 8


def test_a_task_that_fails_on_a_dask_worker_is_graded_again_here(tmp_path, monkeypatch, caplog, runs):
    """A worker that cannot grade (a lost disk, a missing package) costs time, not grades: the task is
    graded again in this process, marked so, and the reason is said once, with how many tasks it hit."""
    from distributed import Client, LocalCluster

    from autograder import pool

    def broken(job):
        raise RuntimeError("the worker cannot read the course folder")

    monkeypatch.setattr(pool, "grade_task", broken)  # an in-process cluster runs the patched function
    students = ["ana", "carla", "syntax"]
    course = Course.scratch(tmp_path / "course", SOURCE, config=SETTINGS)
    course.generate(ASSIGNMENT)
    subs = submissions(course)
    submit_all(course, {s: subs[s] for s in students})
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster, set_as_default=False) as client:
        results = grade_tasks(course, [Task(ASSIGNMENT, s) for s in students], client=client)
    expected = {r.student: r.score for r in runs["sequential"]["results"] if r.student in students}
    assert {r.student: r.score for r in results} == expected
    assert all("regraded" in [p.kind for p in r.problems] for r in results)
    assert all(r.worker == os.getpid() for r in results)
    stored = {k.split("/")[0]: v["score"] for k, v in gbook.dump(course.db_url, course.course_id)["submissions"].items()}
    assert stored == expected
    said = caplog.text
    assert said.count("RuntimeError: the worker cannot read the course folder") == 1, said
    assert "3 grading tasks failed on the Dask workers: RuntimeError: the worker cannot read the course folder" \
        in said, said
