"""Task functions for the cluster tests: module-level, so Dask workers import them by name.

Imported as ``tests.cluster.tasks`` (the repo root is on pytest's pythonpath, and Dask's
spawned workers get the parent's ``sys.path``).
"""

from __future__ import annotations

import itertools
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tests.sandbox.probe_assignment import ASSIGNMENT, SOURCE

_built = itertools.count(1)
_objects: dict = {}


def per_worker(key, factory):
    """The object stored under ``key`` in this worker process, made by ``factory()`` the first time."""
    if key not in _objects:
        _objects[key] = factory()
    return _objects[key]


@dataclass(frozen=True)
class Job:
    """Grade one student of the probe assignment in the course at ``root`` with gradebook ``db_url``."""

    root: str
    db_url: str
    student: str
    sandboxed: bool


def make_course(job: Job):
    from autograder import sandbox
    from autograder.engine import Course

    course = Course.scratch(Path(job.root), SOURCE, db_url=job.db_url)
    if job.sandboxed:
        course.configure(sandbox.course_settings())
    return course, next(_built)


def grade(job: Job) -> dict:
    """Autograde with this worker's long-lived Course; the grade as plain data."""
    course, serial = per_worker(("course", job.root, job.db_url, job.sandboxed), lambda: make_course(job))
    result = course.autograde(ASSIGNMENT, job.student)
    return {
        "student": result.student,
        "score": result.score,
        "max_score": result.max_score,
        "tests": [(t.grade_id, t.points, t.max_points, t.passed, t.message) for t in result.tests],
        "pid": os.getpid(),
        "course": serial,  # which Course object of this worker graded it
    }


def whoami(n: int) -> tuple[int, int, int]:
    """(n, this worker's pid, the serial of this worker's one cached object)."""
    if n < 0:
        raise ValueError(f"bad task {n}")
    return n, os.getpid(), per_worker("probe-object", lambda: next(_built))


def run_forever(seconds: int, after: float = 0) -> str:
    """Starts, ``after`` seconds from now, a child process that would run for ``seconds``, and waits for it."""
    time.sleep(after)
    child = subprocess.Popen(["sleep", str(seconds)])
    child.wait()
    return f"child ended with {child.returncode}"


def run_forever_late(seconds: int) -> str:
    """:func:`run_forever`, its child started 2 s late: after a 1 s time limit has already fired."""
    return run_forever(seconds, after=2)


def stamped(n: int) -> tuple[int, float, float]:
    """(n, when it started, when it ended), on the machine-wide monotonic clock every process shares."""
    started = time.monotonic()
    sum(range(20_000))  # some work, so that it ends after it started
    return n, started, time.monotonic()


def stop_my_worker(n: int) -> int:
    """Closes the worker that runs it (a worker lost mid-run), then waits to be stopped with it."""
    from distributed import get_worker

    worker = get_worker()
    worker.loop.add_callback(worker.close)
    time.sleep(2)  # the worker has left the cluster by then: what this returns goes nowhere
    return n
