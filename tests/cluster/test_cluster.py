"""Grading on Dask against PostgreSQL gives exactly the grades of a sequential SQLite run.

The cluster path is the one ``make grade`` uses at scale: a LocalCluster of worker
processes (or a scheduler's address: the same code), each worker with one long-lived
Course, the assignment generated once before fanning out, and a PostgreSQL gradebook
(a throwaway server on loopback, see ``tests/cluster/pgserver.py``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from autograder.cluster import StartingCluster, local_cluster, run_on_dask
from autograder.engine import Course
from autograder.testcells import replace_answer
from tests.cluster import tasks
from tests.sandbox.probe_assignment import ASSIGNMENT, GOOD, SOURCE, sandboxed

pytestmark = pytest.mark.slow

SUBMISSIONS = {
    "ada": GOOD,
    "ben": "def answer():\n    return 42\n\n\ndef double(x):\n    return x + 2\n",      # 1/3
    "cleo": "def answer():\n    return 41\n\n\ndef double(x):\n    return x * 2\n",     # 2/3
    "dev": None,                                                                       # the stub: 0/3
    "eli": "def answer(:\n    return 42\n",                                             # syntax error
    "fay": "raise RuntimeError('boom at import')\n",                                    # the cell raises
    "gus": "def answer():\n    return open('/etc/shadow').read()\n\n\ndef double(x):\n    return 2 * x\n",
}


def _submit_all(course: Course) -> None:
    released = course.released(ASSIGNMENT)
    for student, code in SUBMISSIONS.items():
        course.submit(student, ASSIGNMENT, released if code is None else replace_answer(released, "answers", code))


def _gradebook(course: Course) -> dict:
    """Everything nbgrader recorded per student: total and every grade cell's score."""
    from nbgrader.api import Gradebook

    found = {}
    with Gradebook(course.coursedir.db_url, course.coursedir.course_id) as gb:
        for sub in gb.assignment_submissions(ASSIGNMENT):
            cells = {}
            for nb in sub.notebooks:
                for grade in nb.grades:
                    cells[(nb.name, grade.name)] = (grade.auto_score, grade.max_score, grade.needs_manual_grade)
            found[sub.student.id] = (sub.score, sub.max_score, cells)
    return found


def test_dask_with_postgres_grades_exactly_like_sequential_sqlite(tmp_path, pg):
    in_sandbox = sandboxed()
    seq = Course.scratch(tmp_path / "sequential", SOURCE)  # SQLite, this process, one student after another
    seq.generate(ASSIGNMENT)
    if in_sandbox:
        from autograder.sandbox import course_settings

        seq.configure(course_settings())
    _submit_all(seq)
    started = time.perf_counter()
    sequential = {}
    for student in SUBMISSIONS:
        r = seq.autograde(ASSIGNMENT, student)
        sequential[student] = (r.score, r.max_score, [(t.grade_id, t.points, t.max_points, t.passed, t.message)
                                                      for t in r.tests])
    seq_seconds = time.perf_counter() - started

    root = tmp_path / "cluster"
    url = pg.create_database("cluster_vs_sequential")
    parent = Course.scratch(root, SOURCE, db_url=url)
    assert parent.coursedir.course_id, "PostgreSQL needs CourseDirectory.course_id (foreign keys)"
    parent.generate(ASSIGNMENT)  # once, before fanning out
    _submit_all(parent)
    jobs = [tasks.Job(str(root), url, student, in_sandbox) for student in SUBMISSIONS]
    started = time.perf_counter()
    outcomes = run_on_dask(jobs, tasks.grade, n_workers=2, time_limit=300)
    dask_seconds = time.perf_counter() - started
    print(f"\nsequential SQLite {seq_seconds:.1f} s; LocalCluster(2) + PostgreSQL {dask_seconds:.1f} s "
          f"(cluster start-up included); sandboxed={in_sandbox}")

    assert [o.task.student for o in outcomes] == list(SUBMISSIONS)
    assert all(o.ok and not o.timed_out for o in outcomes), [o.error for o in outcomes if not o.ok]
    parallel = {o.value["student"]: (o.value["score"], o.value["max_score"], o.value["tests"]) for o in outcomes}
    assert parallel == sequential
    assert _gradebook(parent) == _gradebook(seq)
    assert {s: v[0] for s, v in sequential.items()} == {
        "ada": 3, "ben": 1, "cleo": 2, "dev": 0, "eli": 0, "fay": 0, "gus": 2}

    # Long-lived per-worker Courses: several workers, each built its Course once and reused it.
    per_pid: dict[int, set] = {}
    for o in outcomes:
        per_pid.setdefault(o.value["pid"], set()).add(o.value["course"])
    assert 1 <= len(per_pid) <= 2 and os.getpid() not in per_pid, per_pid  # the spread: a figure of `make bench`
    assert all(len(serials) == 1 for serials in per_pid.values()), per_pid
    assert len(outcomes) > len(per_pid)


@pytest.fixture(scope="module")
def scheduler():
    cluster = local_cluster(n_workers=2)
    yield cluster.scheduler_address
    cluster.close()


def test_a_scheduler_address_takes_the_same_path(scheduler):
    """Tasks go to a running scheduler; each worker keeps one object; a failing task fails alone."""
    seen = []
    outcomes = run_on_dask([0, 1, 2, -1, 4, 5, 6, 7], tasks.whoami, address=scheduler, on_outcome=seen.append)
    assert [o.task for o in outcomes] == [0, 1, 2, -1, 4, 5, 6, 7]
    assert len(seen) == 8
    bad = outcomes[3]
    assert not bad.ok and "ValueError: bad task -1" in bad.error
    good = [o for o in outcomes if o.ok]
    assert [o.value[0] for o in good] == [0, 1, 2, 4, 5, 6, 7]
    serials: dict[int, set] = {}
    for o in good:
        serials.setdefault(o.value[1], set()).add(o.value[2])
    assert all(len(s) == 1 for s in serials.values()), serials


def test_tasks_are_handed_out_in_their_order_one_per_free_worker(scheduler):
    """The caller puts the longest tasks first; each goes out only when a worker is free for it.

    Submitted all at once, each worker got its share up front and ran it newest first, so the
    longest tasks ran last. With one task in flight per worker, when task i starts, at least
    i - workers + 1 tasks have already ended."""
    workers = 2  # the fixture's
    outcomes = run_on_dask(list(range(10)), tasks.stamped, address=scheduler)
    spans = {o.value[0]: o.value[1:] for o in outcomes}
    for i, (started, _) in spans.items():
        ended_before = sum(end <= started for j, (_, end) in spans.items() if j != i)
        assert ended_before >= i - workers + 1, (i, ended_before, spans)


def test_a_first_cluster_keeps_dasks_distributed_settings():
    """In a process that had not imported distributed yet, starting a cluster leaves its settings
    in place: a Client made afterwards finds them (they were removed with the cluster's own)."""
    code = ("import dask\n"
            "from autograder.cluster import local_cluster\n"
            "with local_cluster(n_workers=1) as cluster:\n"
            "    print(dask.config.get('distributed.comm.timeouts.connect'))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr[-3000:]


def test_a_cluster_starts_quietly_when_dasks_usual_port_is_taken():
    """Another cluster or a Dask dashboard holds port 8787: the grade command's cluster does not warn."""
    code = ("import socket, warnings\n"
            "warnings.simplefilter('always')\n"
            "held = socket.socket()\n"
            "try:\n"
            "    held.bind(('', 8787)); held.listen()\n"
            "except OSError:\n"
            "    pass  # something holds it already\n"
            "from autograder.cluster import local_cluster\n"
            "with local_cluster(n_workers=1) as cluster:\n"
            "    print('up')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "up", done.stderr[-3000:]
    assert "already in use" not in done.stderr, done.stderr[-3000:]


def test_a_closing_cluster_quiets_its_workers_first():
    """Before the grade command's cluster shuts down, its workers log only critical errors: a heartbeat
    that meets the closing scheduler printed a traceback after every grade was in (one run in six)."""
    import logging

    levels = []
    cluster = StartingCluster(2)
    client = cluster.client()
    close = client.close

    def close_and_look():  # what the workers' log level is when the client closes, just before the cluster
        client.close = close  # once: the client's __del__ closes it again, after the loop has stopped
        levels.extend(client.run(lambda: logging.getLogger("distributed").level).values())
        close()

    client.close = close_and_look
    cluster.close()
    assert levels == [logging.CRITICAL] * 2, levels


def test_the_time_limit_kills_what_the_task_started(scheduler):
    """Dask cannot stop a task; the worker kills the task's processes when its time is up."""
    started = time.perf_counter()
    [outcome] = run_on_dask([600], tasks.run_forever, address=scheduler, time_limit=1)
    assert outcome.timed_out and outcome.ok
    assert outcome.value == "child ended with -9"
    assert time.perf_counter() - started < 60


def test_a_process_started_after_the_time_limit_is_stopped_too(scheduler):
    """The limit fires before the task starts its child (a slow start, a kernel restarted): that child is killed as well."""
    [outcome] = run_on_dask([600], tasks.run_forever_late, address=scheduler, time_limit=1)
    assert outcome.timed_out and outcome.ok
    assert outcome.value == "child ended with -9"


def test_a_starting_cluster_comes_up_in_the_background_and_shuts_down_without_a_trace():
    """What `make grade` starts before it generates the assignments: its workers run tasks, have no profiler
    (there is no dashboard to show it), and are gone once it has shut down in the background."""
    import dask
    import psutil

    from autograder.cluster import StartingCluster

    with StartingCluster(2) as cluster:
        client = cluster.client()
        outcomes = run_on_dask([1, 2, -1], tasks.whoami, cluster=cluster)
        assert outcomes[0].ok and outcomes[0].value[0] == 1 and "bad task -1" in outcomes[2].error
        pids = client.run(os.getpid)
        assert {o.value[1] for o in outcomes if o.ok} <= set(pids.values())
        assert len(pids) == 2 and os.getpid() not in pids.values()
        assert set(client.run(dask.config.get, "distributed.worker.profile.enabled").values()) == {False}
        assert cluster.up_after is not None and cluster.up_after > 0
        cluster.close(wait=False)  # returns while it shuts down ...
        cluster.join()  # ... and this waits
        assert cluster.closed_after is not None
    assert not [pid for pid in pids.values() if psutil.pid_exists(pid)
                and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE], pids


def test_a_cluster_that_cannot_start_says_why_when_asked_for_it(monkeypatch):
    """The error that stopped the cluster reaches the code that waits for it; shutting it down is then a no-op."""
    import autograder.cluster as cluster_module

    def broken(n_workers=None):
        raise OSError("no room for a worker")

    monkeypatch.setattr(cluster_module, "local_cluster", broken)
    with cluster_module.StartingCluster(2) as cluster:
        with pytest.raises(OSError, match="no room for a worker"):
            cluster.client()
    assert cluster.closed_after is None


def test_the_grade_commands_workers_warm_up_with_what_their_first_task_takes(tmp_path):
    """`make grade`'s cluster has each worker import the grader and start its warm process as soon as it is up,
    while the assignments are generated: the tasks then start none of their own. Sandboxed, it is the warm kernel
    process, which serves the clean room's re-runs too; unsandboxed, kernels start fresh, and it is the clean room's."""
    from autograder import cleanroom
    from autograder.cluster import StartingCluster
    from autograder.pool import Task, grade_tasks
    from autograder.worker import warm_up

    in_sandbox = sandboxed()
    course = Course.scratch(tmp_path / "course", SOURCE)
    if in_sandbox:
        from autograder.sandbox import course_settings

        course.configure(course_settings())
    warm = 1
    with StartingCluster(2, warm=(warm_up, course.spec())) as cluster:
        client = cluster.client()
        course.generate(ASSIGNMENT)
        _submit_all(course)
        assert [future.result(timeout=120) for future in cluster._warming] == [warm, warm]
        assert set(client.run(cleanroom.idle_zygotes).values()) == {warm}
        started = client.run(cleanroom.zygotes_started)
        assert set(started.values()) == {warm}
        results = grade_tasks(course, [Task(ASSIGNMENT, s) for s in ("ada", "ben", "cleo", "dev")], 2, cluster=cluster)
        assert [(r.student, r.score) for r in results] == [("ada", 3), ("ben", 1), ("cleo", 2), ("dev", 0)], results
        assert {r.worker for r in results} <= set(client.run(os.getpid).values())
        assert client.run(cleanroom.zygotes_started) == started, "a task started a warm process of its own"


@pytest.mark.parametrize(("available", "expected"), [(1, 1), (2, 3), (8, 9)])
def test_the_default_is_one_worker_per_core_and_one_more(monkeypatch, available, expected):
    """A worker waits on its kernel part of the time, so the grade command starts one more than the cores it
    may use (`make bench` measures the gain); on one core it grades in its own process, with no cluster."""
    from autograder import cluster, grade

    monkeypatch.setattr(cluster.os, "sched_getaffinity", lambda pid: set(range(available)), raising=False)
    assert cluster.cores() == available
    assert cluster.default_workers() == expected
    assert f"one per core and one more = {expected}" in " ".join(grade_help(grade).split())


def grade_help(grade) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        grade.main(["--help"])
    return out.getvalue()


def test_tasks_not_run_when_the_cluster_has_lost_every_worker_fail_with_the_reason():
    """The first task stops its worker, the cluster's only one: that task and the ones not yet handed out
    get an outcome saying the cluster had no workers, after ``lost_after`` seconds, instead of waiting forever."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        seen = []
        outcomes = run_on_dask([1, 2, 3], tasks.stop_my_worker, client=client, lost_after=1, on_outcome=seen.append)
    assert [o.task for o in outcomes] == [1, 2, 3] and len(seen) == 3
    assert all(not o.ok and o.reason == "the cluster had no workers for 1 s" for o in outcomes), outcomes
