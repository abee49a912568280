"""The grading loop: many submissions at once on Dask, each graded once, every grade recorded.

    results = grade_tasks(course, tasks)                                # a LocalCluster (default_workers)
    results = grade_tasks(course, tasks, scheduler="tcp://host:8786")   # the workers of a running cluster
    results = grade_tasks(course, tasks, workers=1)                     # one at a time, in this process

Written once, whatever the workers are: fan the tasks out (:func:`autograder.cluster.run_on_dask`,
one long-lived :class:`~autograder.worker.Grader` per worker), merge each submission's
gradebook rows as it arrives, grade here whatever failed on a worker (and say why, once
per reason), and report progress through ``on_result``.

Why this shape (measured on a 2-core machine): one ``nbgrader autograde`` command per
student spends ~2 s importing before it grades anything, so it is slower than grading
one by one; long-lived workers that grade through nbgrader's Python API are not.

The gradebook: SQLite does not take concurrent writers well, so no two processes write
the same file. Each worker grades into its own copy of the course's gradebook (with the
assignments already generated) and returns the rows nbgrader wrote for that submission;
this process is the only writer of the course's gradebook and records each submission's
rows in one commit as they arrive, so the gradebook ends up exactly as a sequential run
leaves it (the tests compare both). With PostgreSQL the workers write to it directly.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from . import gradebook as gbook
from . import problems
from .cluster import Outcome, default_workers, run_on_dask
from .engine import Course
from .results import SubmissionResult
from .worker import Graded, GraderPlugin, Task, grade_task

__all__ = ["REGRADED", "Task", "default_workers", "grade_tasks", "longest_first"]

log = logging.getLogger(__name__)
REGRADED = problems.REGRADED  # the problem kind of a submission graded here after its worker failed


def grade_tasks(course: Course, tasks: Iterable[Task], workers: int | None = None, *,
                scheduler: str | None = None, time_limit: float | None = None,
                on_result: Callable[[SubmissionResult, int, int], None] | None = None,
                client=None, cluster=None,
                seconds: Mapping[tuple[str, str], float] | None = None) -> list[SubmissionResult]:
    """Grade ``tasks`` and record every grade in the course's gradebook; the results by assignment and student.

    Args:
        course: the course; its assignments must already be generated in its gradebook.
        workers: worker processes of the LocalCluster (default: one per core); 1 without a
            ``scheduler`` or ``client``: one at a time, in this process.
        scheduler: a running Dask scheduler's address; its workers grade (needs PostgreSQL).
        time_limit: wall-clock seconds per task, enforced on the worker.
        on_result: called with ``(result, done, total)`` as each submission is graded.
        client: an existing ``distributed.Client`` to use (tests).
        cluster: a :class:`~autograder.cluster.StartingCluster` the caller started earlier
            (and closes): the grade command starts it before it generates the assignments.
        seconds: how long each ``(student, assignment)`` took in an earlier run, to hand the
            slowest out first (:func:`longest_first`).

    Raises:
        ValueError: a running cluster with a SQLite gradebook (several machines cannot share it).
    """
    tasks = sorted(set(tasks))
    results: list[SubmissionResult] = []

    def record(result: SubmissionResult) -> None:
        results.append(result)
        if on_result:
            on_result(result, len(results), len(tasks))

    workers = min(workers or default_workers(), max(1, len(tasks)))
    if workers <= 1 and scheduler is None and client is None and cluster is None:
        for task in tasks:
            record(course.autograde(task.assignment, task.student))
        return sorted(results, key=lambda r: (r.assignment, r.student))

    shared = not course.db_url.startswith("sqlite")
    if scheduler and not shared:
        raise ValueError("grading on a Dask cluster needs a PostgreSQL gradebook (--db postgresql://...)")
    where = f"on the workers of the Dask scheduler at {scheduler}" if scheduler else "on the Dask workers"
    failures: Counter = Counter()
    scratch = Path(tempfile.mkdtemp(prefix="autograder-run-"))
    try:
        db_url = course.db_url if shared else gbook.copy_database(course.db_url, scratch / "base.db")
        plugin = GraderPlugin(uuid.uuid4().hex[:12], course.spec(), db_url, str(scratch))
        if shared:  # workers write into this gradebook at the same time: each student is created
            # once, here, instead of by two workers racing (a duplicate key fails one of the tasks)
            course.book.add_students(t.student for t in tasks)
        with course.book.writer() as gradebook:

            def arrived(outcome: Outcome) -> None:
                task: Task = outcome.task[1]
                if outcome.ok:
                    graded: Graded = outcome.value
                    if graded.rows is not None:
                        gradebook.write(graded.rows)
                    if outcome.timed_out:
                        graded.result.flag("task_time_limit")
                    record(graded.result)
                    return
                if not failures:  # the reasons, with how many tasks each, are said at the end
                    log.warning("A grading task failed %s; such tasks are graded again here.", where)
                failures[outcome.reason or (outcome.error.strip().splitlines() or ["unknown error"])[-1]] += 1
                result = course.autograde(task.assignment, task.student)
                result.flag(REGRADED)
                record(result)

            ordered = longest_first(tasks, course.code_size, seconds)
            run_on_dask([(plugin.name, t) for t in ordered], grade_task, address=scheduler, n_workers=workers,
                        time_limit=time_limit, on_outcome=arrived, client=client, plugin=plugin, cluster=cluster)
        for reason, count in failures.most_common():
            log.warning("%d grading task%s failed %s: %s; %s graded again here, one at a time.", count,
                        "s" if count != 1 else "", where, reason, "they were" if count != 1 else "it was")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return sorted(results, key=lambda r: (r.assignment, r.student))


def longest_first(tasks: Iterable[Task], size: Callable[[str], int],
                  seconds: Mapping[tuple[str, str], float] | None = None) -> list[Task]:
    """The order to hand the tasks out in: the ones expected to take longest first.

    At the end of a run, a worker with nothing left waits for the others' last tasks; the
    shorter those are, the less it waits (longest processing time first). How long a
    submission takes is not known before it runs. The guesses, best first:

    - ``seconds``, from an earlier run of the same class (``results.json``), keyed by
      ``(student, assignment)``: a submission that looped or ran long then goes first now;
    - for a submission not in it, the average of its assignment's submissions there;
    - for an assignment with none there, its code, hidden tests included (``size``): on the
      sample class, 07 (99,000 characters) takes about 5 s a submission and 06 (21,000)
      about 3 s. These go before the others, since nothing says they are short.

    Ties: assignment, then student, in name order.
    """
    tasks = list(tasks)
    seconds = {key: spent for key, spent in (seconds or {}).items() if spent > 0}  # 0: not measured
    per_assignment: dict[str, list[float]] = {}
    for (_, assignment), spent in seconds.items():
        per_assignment.setdefault(assignment, []).append(spent)
    sizes = {assignment: size(assignment) for assignment in {t.assignment for t in tasks}
             if assignment not in per_assignment}

    def expected(task: Task) -> tuple[int, float]:
        if task.assignment in sizes:
            return 0, -sizes[task.assignment]
        known = seconds.get((task.student, task.assignment))
        if known is None:
            spent = per_assignment[task.assignment]
            known = sum(spent) / len(spent)
        return 1, -known

    return sorted(tasks, key=lambda t: (*expected(t), t.assignment, t.student))
