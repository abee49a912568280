"""Parallel grading gives exactly the scores of grading one at a time, and loses nothing in the gradebook.

The same submissions of the toy assignment are graded twice, in two scratch courses: one
submission at a time in this process (nbgrader writing the gradebook itself), and on a
Dask LocalCluster of two workers (`make grade`'s default), where each long-lived worker
grades into its own copy of the SQLite gradebook while this process merges their rows
into the course's gradebook. The results and the whole gradebooks must be identical.
The Dask run is the toy class of ``conftest.py`` (every toy submission, graded once for
these tests and for ``test_broken_submissions.py``); the sequential run grades the
deterministic ones below and the two are compared on those.
"""

from __future__ import annotations

import os

import pytest

from autograder import gradebook as gbook
from autograder.engine import Course
from autograder.pool import Task, grade_tasks, longest_first
from coursetools.measure import interleave
from tests.grading.toy import ASSIGNMENT, SETTINGS, SOURCE, dumps, graded_as_make_grade, submissions, submit_all

pytestmark = pytest.mark.slow

# Deterministic submissions (no time limits involved): full, partial, stub and several broken kinds.
STUDENTS = ["ana", "carla", "dmitri", "eve", "syntax", "exit_cell", "no_test",
            "renamed", "not_json", "cheat"]


def _only(dump: dict, students: list[str]) -> dict:
    """A gradebook dump restricted to ``students``."""
    return {"students": [s for s in dump["students"] if s in students],
            "submissions": {k: v for k, v in dump["submissions"].items() if k.split("/")[0] in students}}


@pytest.fixture(scope="module")
def both(tmp_path_factory, toy_class_graded):
    """The sequential run of STUDENTS, and the parallel run (the toy class on Dask) restricted to them."""
    course = Course.scratch(tmp_path_factory.mktemp("sequential"), SOURCE, config=graded_as_make_grade())
    course.generate(ASSIGNMENT)
    subs = submissions(course)
    submit_all(course, {s: subs[s] for s in STUDENTS})
    seen = []
    results = grade_tasks(course, [Task(ASSIGNMENT, s) for s in STUDENTS], 1,
                          on_result=lambda r, done, total: seen.append((r.student, done, total)))
    sequential = {"course": course, "results": results, "seen": seen,
                  "dump": gbook.dump(course.db_url, course.course_id)}
    batch = toy_class_graded
    parallel = {"course": batch["course"], "results": [r for r in batch["results"] if r.student in STUDENTS],
                "dump": _only(batch["dump"], STUDENTS)}
    return {"sequential": sequential, "parallel": parallel, "batch": batch}


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
    this process) graded every submission. How the work was spread is a figure of `make bench`: on a busy
    machine, one worker may take most tasks before the other starts."""
    batch = both["batch"]
    students = batch["students"]
    assert sorted(s for s, _, _ in batch["seen"]) == sorted(students)
    assert [(d, t) for _, d, t in batch["seen"]] == [(n, len(students)) for n in range(1, len(students) + 1)]
    workers = {r.worker for r in batch["results"]}
    assert 1 <= len(workers) <= 2 and os.getpid() not in workers, workers
    assert [d for _, d, _ in both["sequential"]["seen"]] == list(range(1, len(STUDENTS) + 1))
    assert {r.worker for r in both["sequential"]["results"]} == {os.getpid()}


def test_the_benchmark_sample_spreads_assignments():
    tasks = [Task("a", s) for s in "xyz"] + [Task("b", s) for s in "xy"]
    assert interleave(tasks) == [Task("a", "x"), Task("b", "x"), Task("a", "y"), Task("b", "y"), Task("a", "z")]


def test_the_assignments_with_the_most_code_are_handed_out_first():
    """Longest first, so that the last tasks of a run, which a worker with nothing left waits for, are short."""
    tasks = [Task("short", s) for s in "yx"] + [Task("long", s) for s in "zx"] + [Task("mid", "x")]
    size = {"short": 21_000, "mid": 44_000, "long": 99_000}.__getitem__
    assert longest_first(tasks, size) == [Task("long", "x"), Task("long", "z"), Task("mid", "x"),
                                          Task("short", "x"), Task("short", "y")]


def test_an_earlier_runs_seconds_hand_the_slowest_submissions_out_first():
    """With an earlier run's seconds, a submission that looped then goes first, whatever its assignment's size.

    A submission missing from that run is guessed at its assignment's average there; an assignment with no
    seconds at all goes first, by its code (nothing says it is short); seconds of 0 (not measured) are no guess.
    """
    tasks = [Task(a, s) for a in ("short", "long") for s in ("ana", "bo", "cy")] + [Task("new", "ana")]
    size = {"short": 21_000, "long": 99_000, "new": 10}.__getitem__
    earlier = {("bo", "short"): 25.0, ("ana", "short"): 3.0, ("ana", "long"): 5.0, ("bo", "long"): 6.0,
               ("cy", "long"): 0.0, ("gone", "long"): 1.0}
    assert longest_first(tasks, size, earlier) == [
        Task("new", "ana"),     # no seconds for its assignment
        Task("short", "bo"),    # 25 s: it looped last time
        Task("short", "cy"),    # not there: the average of short, 14 s
        Task("long", "bo"),     # 6 s
        Task("long", "ana"),    # 5 s
        Task("long", "cy"),     # 0 s is not a measure: the average of long, (5 + 6 + 1) / 3 = 4 s
        Task("short", "ana"),   # 3 s
    ]
    assert longest_first(tasks, size, {}) == longest_first(tasks, size)


def test_the_course_measures_an_assignments_code_hidden_tests_included(tmp_path):
    import shutil

    import nbformat

    shutil.copytree(SOURCE, tmp_path / "source")  # changed below
    course = Course.scratch(tmp_path / "course", tmp_path / "source", config=SETTINGS)
    source = course.solution(ASSIGNMENT)
    code = [cell.source for cell in source.cells if cell.cell_type == "code"]
    assert course.code_size(ASSIGNMENT) == sum(map(len, code))
    hidden = [c for c in code if "### BEGIN HIDDEN TESTS" in c]
    assert hidden, "the toy assignment has hidden tests"
    # One more character of code, anywhere in a code cell (here in a hidden test), counts.
    cell = next(c for c in source.cells if "### BEGIN HIDDEN TESTS" in c.source)
    cell.source += "\n"
    nbformat.write(source, course.source / ASSIGNMENT / f"{course.notebook_names(ASSIGNMENT)[0]}.ipynb")
    assert course.code_size(ASSIGNMENT) == sum(map(len, code)) + 1


def test_regrading_keeps_the_graders_manual_scores(both):
    """A manual score entered by a grader survives a parallel regrade (workers merge only what autograding writes).

    It regrades in the sequential run's course (whose dump was taken already): the toy class's course stays
    as its run left it for the other tests."""
    from nbgrader.api import Gradebook

    course = both["sequential"]["course"]
    with Gradebook(course.db_url, course.course_id) as gb:
        grade = gb.find_grade("test_gives_up", ASSIGNMENT, ASSIGNMENT, "dmitri")
        grade.manual_score = 1.5
        gb.db.commit()
    results = {r.student: r for r in grade_tasks(course, [Task(ASSIGNMENT, "dmitri"), Task(ASSIGNMENT, "ana")],
                                                 workers=2, time_limit=300)}
    with Gradebook(course.db_url, course.course_id) as gb:
        grade = gb.find_grade("test_gives_up", ASSIGNMENT, ASSIGNMENT, "dmitri")
        assert grade.manual_score == 1.5 and grade.auto_score == 0 and grade.needs_manual_grade
        assert gb.find_submission(ASSIGNMENT, "dmitri").score == 2 + 1.5
        assert gb.find_submission(ASSIGNMENT, "ana").score == 8
    assert results["ana"].score == 8


def test_a_task_that_fails_on_a_dask_worker_is_graded_again_here(tmp_path, monkeypatch, caplog, both):
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
    expected = {r.student: r.score for r in both["sequential"]["results"] if r.student in students}
    assert {r.student: r.score for r in results} == expected
    assert all("regraded" in [p.kind for p in r.problems] for r in results)
    assert all(r.worker == os.getpid() for r in results)
    stored = {k.split("/")[0]: v["score"] for k, v in gbook.dump(course.db_url, course.course_id)["submissions"].items()}
    assert stored == expected
    said = caplog.text
    assert said.count("RuntimeError: the worker cannot read the course folder") == 1, said
    assert "3 grading tasks failed on the Dask workers: RuntimeError: the worker cannot read the course folder" \
        in said, said
