"""What runs on a grading worker: one long-lived grader per worker and run, held by a Dask WorkerPlugin.

A :class:`Grader` holds a :class:`~autograder.engine.Course` (configuration loaded and
nbgrader imported once) and grades one :class:`Task` after another through nbgrader's
Python API; every notebook still runs in a fresh kernel of its own.

The grading loop (:mod:`autograder.pool`) has :func:`autograder.cluster.run_on_dask`
install a :class:`GraderPlugin` named after its run on each worker that can grade,
sends tasks that name it (:func:`grade_task`), and removes it at the end, which drops
the grader and its gradebook copy. A worker that lives for many runs (a cluster started
once for a semester) so never holds more graders than runs in progress.

With a SQLite gradebook, each worker grades into its own copy of the course's gradebook
and returns, with the result, the rows nbgrader wrote for that submission
(:class:`~autograder.gradebook.SubmissionRows`), which the loop merges; SQLite does not
take concurrent writers. With PostgreSQL the workers write to the gradebook directly.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin, get_worker

from . import gradebook as gbook
from .engine import Course, CourseSpec
from .process import prepare
from .results import SubmissionResult

PLUGIN_PREFIX = "autograder-run-"
log = logging.getLogger(__name__)


@dataclass(frozen=True, order=True)
class Task:
    """Grade one student's submission of one assignment."""

    assignment: str
    student: str


@dataclass
class Graded:
    """What a worker hands back for one task."""

    result: SubmissionResult
    rows: gbook.SubmissionRows | None  # None with PostgreSQL (written directly)
    worker: int  # the worker's process id


class Grader:
    """A grader holding its own course (and gradebook); grades one task at a time."""

    def __init__(self, spec: CourseSpec, db_url: str | None = None) -> None:
        if db_url:
            spec = replace(spec, coursedir={**spec.coursedir, "db_url": db_url})
        self.course = Course.from_spec(spec)
        self.own_copy = db_url is not None and db_url.startswith("sqlite")

    def grade(self, task: Task) -> Graded:
        result = self.course.autograde(task.assignment, task.student)
        rows = None
        if self.own_copy:
            rows = self.course.book.rows(task.assignment, task.student)
            if rows is None:
                result.flag("not_recorded")
        return Graded(result, rows, os.getpid())


class GraderPlugin(WorkerPlugin):
    """One run's grader on one Dask worker, built at its first task, dropped when the run ends.

    Args:
        run: the run's id (the plugin's name is ``autograder-run-<run>``).
        spec: the course, as plain data.
        db_url: the gradebook: a SQLite one is copied into ``scratch`` per worker.
        scratch: a folder for the workers' gradebook copies.
    """

    def __init__(self, run: str, spec: CourseSpec, db_url: str, scratch: str) -> None:
        self.name = PLUGIN_PREFIX + run
        self.spec, self.db_url, self.scratch = spec, db_url, scratch
        self.grader: Grader | None = None
        self.copy: Path | None = None

    def setup(self, worker: Any = None) -> None:
        prepare()  # the worker's process, if autograder.boot did not (a `dask worker` started by hand)
        self.grader, self.copy = None, None

    def grade(self, task: Task) -> Graded:
        if self.grader is None:
            db_url = None
            if self.db_url.startswith("sqlite"):
                self.copy = Path(self.scratch) / f"gradebook-{os.getpid()}.db"
                db_url = gbook.scratch_copy(gbook.copy_database(self.db_url, self.copy))
            self.grader = Grader(self.spec, db_url or self.db_url)
        return self.grader.grade(task)

    def teardown(self, worker: Any = None) -> None:
        from .cleanroom import close_zygotes

        self.grader = None
        close_zygotes()  # the worker's idle clean-room processes: a later run starts its own
        if self.copy is not None:
            self.copy.unlink(missing_ok=True)
            self.copy = None


def warm_up(spec: CourseSpec) -> int:
    """The Dask task a new LocalCluster runs once on each worker while the assignments are generated.

    It builds a course from ``spec`` (the grader is already imported: the workers are forks of a
    process that imported it, :func:`autograder.cluster.local_cluster`) and starts the warm kernel
    process that the worker's first task takes (:func:`autograder.cleanroom.prestart`), and a
    clean-room process when the clean runs cannot share it (``cleanroom.take``), so that they import
    in the time the generation leaves the machine's other cores. The
    processes are the worker's like any other: its run's end stops them (``GraderPlugin.teardown``).

    Returns:
        How many processes it started. It never raises: what stopped it, the first task meets
        again and reports (logged here at debug level).
    """
    from . import cleanroom, crosscheck
    from .sandbox import kernel_fork_settings

    started = 0
    try:
        course = Course.from_spec(spec)
        kernels = kernel_fork_settings(course.config)
        if kernels is not None:
            started += cleanroom.prestart(*kernels)
        clean = crosscheck.options(course.config)
        if clean is not None and clean.fork:
            started += cleanroom.prestart(clean)
    except Exception as err:  # noqa: BLE001 - only a head start: the first task starts what it needs
        log.debug("The worker's warm-up stopped (%s); its first task starts what it needs.", err)
    return started


def graders(dask_worker: Any = None) -> list[str]:
    """``Client.run`` this to see which runs' graders a worker holds (the tests check none is left)."""
    return sorted(name for name in dask_worker.plugins if name.startswith(PLUGIN_PREFIX))


def grade_task(job: tuple[str, Task]) -> Graded:
    """The Dask task: grade one submission with this worker's grader of the run named in ``job``."""
    name, task = job
    plugin = get_worker().plugins.get(name)
    if plugin is None:
        raise RuntimeError(f"this worker has no grader for the run {name} (it joined after the run started)")
    return plugin.grade(task)
