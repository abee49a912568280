"""Grade many submissions at once with long-lived workers: on Dask (the default) or a process pool.

    results = grade_tasks_dask(course, tasks)                       # a LocalCluster, one worker per core
    results = grade_tasks_dask(course, tasks, address="tcp://scheduler:8786")   # a running cluster
    results = grade_tasks(course, [Task("04_retry_with_backoff", "ana"), ...], workers=2)  # processes

Why this shape (measured on a 2-core machine): one ``nbgrader autograde`` command
per student spends ~2 s importing before it grades anything, so it is slower than
grading one by one. Instead each worker is a process that starts once, builds its
own :class:`~autograder.engine.Course` (configuration loaded once, nbgrader
imported once) and then grades one submission after another through nbgrader's
Python API; every notebook still runs in a fresh kernel of its own.

The gradebook: SQLite does not take concurrent writers well, so no two processes
ever write the same file. The parent copies the course's gradebook (with the
assignments already generated) once; each worker grades into its own copy of it
and returns, with the result, the rows nbgrader wrote for that submission
(:class:`~autograder.gradebook.SubmissionRows`). The parent is the only writer
of the course's gradebook and records each submission's rows in one commit as
they arrive, so nothing is lost to concurrent writes, and the gradebook ends up
exactly as a sequential run leaves it (the tests compare both).

The unit of work is one :class:`Task` and a worker is a plain object
(:class:`Worker`) holding its course, so the same work runs on either executor:
:func:`grade_tasks_dask` (what `make grade` uses) keeps one ``Worker`` per Dask worker
process and merges SQLite rows the same way (with PostgreSQL the workers write to the
gradebook directly); :func:`grade_tasks` runs them on a ``ProcessPoolExecutor``
(``--engine processes``, and the fairness proofs).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from pathlib import Path

from . import gradebook as gbook
from .engine import Course, CourseSpec
from .results import SubmissionResult

log = logging.getLogger(__name__)
REGRADED = "regraded"


def report_failures(failures: Counter, where: str) -> None:
    """Say once per distinct reason why tasks failed on the workers, and how many."""
    for reason, count in failures.most_common():
        log.warning("%d grading task%s failed %s: %s; %s graded again here, one at a time.", count,
                    "s" if count != 1 else "", where, reason, "they were" if count != 1 else "it was")


@dataclass(frozen=True, order=True)
class Task:
    """Grade one student's submission of one assignment."""

    assignment: str
    student: str


@dataclass
class Graded:
    """What a worker hands back for one task."""

    result: SubmissionResult
    rows: gbook.SubmissionRows | None
    worker: int  # the worker's process id


class Worker:
    """A grader holding its own course and gradebook; grades one task at a time."""

    def __init__(self, spec: CourseSpec, db_url: str | None = None) -> None:
        if db_url:
            spec = replace(spec, coursedir={**spec.coursedir, "db_url": db_url})
        self.course = Course.from_spec(spec)

    def grade(self, task: Task) -> Graded:
        from nbgrader.api import Gradebook, MissingEntry

        result = self.course.autograde(task.assignment, task.student)
        rows = None
        with Gradebook(self.course.db_url, self.course.course_id) as gb:
            try:
                rows = gbook.read_rows(gb, task.assignment, task.student)
            except MissingEntry:
                result.add("not_graded", "nbgrader recorded nothing for this submission", True)
        return Graded(result, rows, os.getpid())


_worker: Worker | None = None


def _die_with_parent() -> None:
    """End this worker when the process that started it goes away (killed, not just interrupted).

    Linux delivers SIGTERM on the parent's death (prctl PR_SET_PDEATHSIG); elsewhere a
    thread watches the parent. The worker's kernels follow it: sandboxed ones die with
    their parent, plain ipykernels poll theirs.
    """
    parent = os.getppid()
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, int(signal.SIGTERM)) == 0 and os.getppid() == parent:  # 1 = PR_SET_PDEATHSIG
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    import threading

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _start_worker(spec: CourseSpec, base_db: str, scratch: str) -> None:
    """Process initializer: this process's own gradebook copy and course."""
    global _worker
    _die_with_parent()
    db_url = gbook.copy_database(base_db, Path(scratch) / f"gradebook-{os.getpid()}.db")
    _worker = Worker(spec, db_url)


def _grade(task: Task) -> Graded:
    assert _worker is not None, "the worker was not started"
    return _worker.grade(task)


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def grade_tasks(course: Course, tasks: Iterable[Task], workers: int | None = None, *,
                on_result: Callable[[SubmissionResult, int, int], None] | None = None) -> list[SubmissionResult]:
    """Grade ``tasks`` with ``workers`` processes (1: here, one at a time); record every grade in the course's gradebook.

    The assignments must already be generated in the course's gradebook. Returns the
    results sorted by assignment and student; ``on_result(result, done, total)`` is
    called as each one finishes.
    """
    tasks = sorted(set(tasks))
    workers = min(workers or default_workers(), max(1, len(tasks)))
    results: list[SubmissionResult] = []

    def done(result: SubmissionResult) -> None:
        results.append(result)
        if on_result:
            on_result(result, len(results), len(tasks))

    if workers <= 1:
        for task in tasks:
            done(course.autograde(task.assignment, task.student))
        return sorted(results, key=lambda r: (r.assignment, r.student))

    from nbgrader.api import Gradebook

    scratch = Path(tempfile.mkdtemp(prefix="autograder-workers-"))
    left = set(tasks)
    failures: Counter = Counter()
    try:
        base = gbook.copy_database(course.db_url, scratch / "base.db")
        context = multiprocessing.get_context("spawn")
        with Gradebook(course.db_url, course.course_id) as gb:
            try:
                with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                                         initargs=(course.spec(), base, str(scratch))) as pool:
                    futures = {pool.submit(_grade, task): task for task in _interleave(tasks)}
                    for future in as_completed(futures):
                        task = futures[future]
                        try:
                            graded = future.result()
                        except BrokenProcessPool:
                            raise
                        except Exception as err:  # noqa: BLE001 - regraded below, in this process
                            failures[f"{type(err).__name__}: {err}"] += 1
                            continue
                        if graded.rows is not None:
                            gbook.write_rows(gb, graded.rows)
                        left.discard(task)
                        done(graded.result)
            except BrokenProcessPool as err:
                # A worker process died: what it had not finished is graded below.
                failures[f"{type(err).__name__}: {err}"] += len(left) - sum(failures.values())
        report_failures(failures, "in the worker processes")
        # Anything a worker could not finish is graded here, one at a time, on the course's gradebook.
        for task in sorted(left):
            result = course.autograde(task.assignment, task.student)
            result.add(REGRADED, "a grading worker failed; this submission was graded again on its own")
            done(result)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return sorted(results, key=lambda r: (r.assignment, r.student))


def _dask_grade(job: tuple[CourseSpec, str, str, Task]) -> Graded:
    """Dask task: grade one submission with this Dask worker's long-lived :class:`Worker`."""
    from .cluster import per_worker

    spec, db_url, scratch, task = job

    def build() -> Worker:
        if db_url.startswith("sqlite"):  # each worker process grades into its own copy, merged by the parent
            return Worker(spec, gbook.copy_database(db_url, Path(scratch) / f"gradebook-{os.getpid()}.db"))
        return Worker(spec, db_url)  # PostgreSQL takes concurrent writers: write directly

    return per_worker(("pool.Worker", str(spec.root), db_url, scratch), build).grade(task)


def grade_tasks_dask(course: Course, tasks: Iterable[Task], *, address: str | None = None,
                     workers: int | None = None, time_limit: float | None = None,
                     on_result: Callable[[SubmissionResult, int, int], None] | None = None,
                     client=None) -> list[SubmissionResult]:
    """Grade ``tasks`` on Dask: a LocalCluster (default) or the scheduler at ``address``.

    The same per-student work as :func:`grade_tasks`, one long-lived :class:`Worker` per
    Dask worker process. With a SQLite gradebook each worker grades into its own copy and
    this process merges the rows (only a LocalCluster can share the files); with
    PostgreSQL every worker writes to the gradebook directly. ``time_limit`` (seconds) is
    enforced per task inside the worker; a task that fails is graded again here.
    """
    from nbgrader.api import Gradebook

    from .cluster import run_on_dask

    tasks = sorted(set(tasks))
    shared = not course.db_url.startswith("sqlite")
    if address and not shared:
        raise ValueError("grading on a Dask cluster needs a PostgreSQL gradebook (--db postgresql://...)")
    scratch = Path(tempfile.mkdtemp(prefix="autograder-dask-"))
    results: list[SubmissionResult] = []
    failures: Counter = Counter()
    where = f"on the workers of the Dask scheduler at {address}" if address else "on the Dask workers"
    try:
        db_url = course.db_url if shared else gbook.copy_database(course.db_url, scratch / "base.db")
        with Gradebook(course.db_url, course.course_id) as gb:
            def arrived(outcome) -> None:
                if outcome.ok:
                    graded: Graded = outcome.value
                    if not shared and graded.rows is not None:
                        gbook.write_rows(gb, graded.rows)
                    result = graded.result
                    if getattr(outcome, "timed_out", False):
                        result.add("time_limit", "grading took longer than its time limit; its kernel was stopped",
                                   True)
                else:
                    task = outcome.task[3]
                    reason = outcome.reason or (outcome.error.strip().splitlines() or ["unknown error"])[-1]
                    if not failures:  # the reasons, with how many tasks each, are said at the end
                        log.warning("A grading task failed %s; such tasks are graded again here.", where)
                    failures[reason] += 1
                    result = course.autograde(task.assignment, task.student)
                    result.add(REGRADED, "a grading worker failed; this submission was graded again on its own")
                results.append(result)
                if on_result:
                    on_result(result, len(results), len(tasks))

            run_on_dask([(course.spec(), db_url, str(scratch), t) for t in _interleave(tasks)], _dask_grade,
                        address=address, n_workers=workers, time_limit=time_limit, on_outcome=arrived,
                        client=client)
        report_failures(failures, where)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return sorted(results, key=lambda r: (r.assignment, r.student))


def _interleave(tasks: list[Task]) -> list[Task]:
    """Spread each assignment's tasks through the queue (similar notebooks take similar time)."""
    by_assignment: dict[str, list[Task]] = {}
    for task in tasks:
        by_assignment.setdefault(task.assignment, []).append(task)
    queues = list(by_assignment.values())
    out: list[Task] = []
    while any(queues):
        for queue in queues:
            if queue:
                out.append(queue.pop(0))
    return out


def timed(fn: Callable[[], list[SubmissionResult]]) -> tuple[list[SubmissionResult], float]:
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start
