"""Run per-student grading tasks on Dask: a LocalCluster by default, or a running scheduler.

    outcomes = run_on_dask(students, grade_one)                     # LocalCluster, one worker per core
    outcomes = run_on_dask(students, grade_one, address="tcp://scheduler:8786")  # same code path

``task_fn(task)`` runs on a worker and must be importable there (a module-level
function; its module must exist on the workers). It should keep expensive objects for
the life of the worker process with :func:`per_worker`, e.g. one nbgrader
:class:`~autograder.engine.Course` per worker instead of one per student (nbgrader's
imports and setup cost about 2 s)::

    def grade_one(job):
        course = per_worker(("course", job.root, job.db_url), lambda: build_course(job))
        return course.autograde(job.assignment, job.student).to_dict()

Every task gets an :class:`Outcome` (its value, or the error text when it raised or its
worker died), in the order of ``tasks``; one failing task never stops the others.

Time limits. Dask cannot stop a running task, so the hard limits live where they can
act: each cell has nbgrader's cell timeout (and the notebook its time limit), and
``time_limit`` gives every task a wall-clock limit enforced *inside the worker*: when it
runs out, the worker kills the processes the task started (the notebook's kernel, and
with it its sandbox); nbgrader then sees a dead kernel and the task finishes with what
it has. That is why workers run one task at a time (``threads_per_worker=1``; start
remote workers with ``dask worker --nthreads 1``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
import traceback
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

_OBJECTS: dict[Hashable, Any] = {}
_OBJECTS_LOCK = threading.Lock()


def per_worker(key: Hashable, factory: Callable[[], Any]) -> Any:
    """The object stored under ``key`` in this process, made by ``factory()`` the first time.

    On a Dask worker the process lives as long as the worker, so this is a per-worker
    object (the same code works outside Dask: then it is per-process).
    """
    with _OBJECTS_LOCK:
        if key not in _OBJECTS:
            _OBJECTS[key] = factory()
        return _OBJECTS[key]


def forget_per_worker() -> None:
    """Drop every cached object of this process (tests)."""
    with _OBJECTS_LOCK:
        _OBJECTS.clear()


@dataclass
class Outcome:
    """What became of one task."""

    task: Any
    value: Any = None
    error: str = ""  # the exception (and traceback) when the task raised or its worker died
    seconds: float = 0.0  # wall time on the worker
    worker: str = ""  # "host:pid" of the worker process that ran it
    timed_out: bool = False  # its time limit ran out and its processes were killed

    @property
    def ok(self) -> bool:
        return not self.error


def _kill_children() -> int:
    """Kill every process this process started (recursively); how many."""
    import psutil

    children = psutil.Process().children(recursive=True)
    for child in children:
        try:
            child.kill()
        except psutil.Error:
            pass
    # Wait until they are dead, without reaping them: psutil.wait_procs would collect the exit
    # status of this process's own children, and their owner (a subprocess.Popen, the kernel
    # manager) would then read "exited with 0" instead of "killed".
    deadline = time.monotonic() + 5
    for child in children:
        while time.monotonic() < deadline:
            try:
                if child.status() == psutil.STATUS_ZOMBIE:
                    break
            except psutil.NoSuchProcess:
                break
            time.sleep(0.02)
    return len(children)


def _run_task(task_fn: Callable[[Any], Any], task: Any, time_limit: float | None) -> dict[str, Any]:
    """Runs on the worker: the task, under its time limit, never raising."""
    import socket

    fired = threading.Event()

    def expire() -> None:
        fired.set()
        _kill_children()

    timer = threading.Timer(time_limit, expire) if time_limit else None
    started = time.perf_counter()
    result: dict[str, Any] = {"worker": f"{socket.gethostname()}:{os.getpid()}"}
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        result["value"] = task_fn(task)
    except BaseException as err:  # noqa: BLE001 - reported as the task's outcome
        result["error"] = "".join(traceback.format_exception(err)).strip()
    finally:
        if timer is not None:
            timer.cancel()
    result["seconds"] = time.perf_counter() - started
    result["timed_out"] = fired.is_set()
    return result


def local_cluster(n_workers: int | None = None, threads_per_worker: int = 1, **kwargs: Any):
    """A quiet LocalCluster of worker processes (no dashboard), one per core by default."""
    from distributed import LocalCluster

    options: dict[str, Any] = {
        "n_workers": n_workers or os.cpu_count() or 1,
        "threads_per_worker": threads_per_worker,
        "processes": True,
        "dashboard_address": None,
        "silence_logs": logging.ERROR,
    }
    options.update(kwargs)
    return LocalCluster(**options)


def run_on_dask(tasks: Iterable[Any], task_fn: Callable[[Any], Any], *, address: str | None = None,
                n_workers: int | None = None, time_limit: float | None = None,
                on_outcome: Callable[[Outcome], None] | None = None, client: Any = None) -> list[Outcome]:
    """Run ``task_fn(task)`` for every task on Dask; the outcomes in the order of ``tasks``.

    Args:
        address: a running scheduler (``tcp://host:8786``); default: a LocalCluster with
            ``n_workers`` worker processes (default: one per core), closed at the end.
        time_limit: wall-clock seconds per task, enforced on the worker (see the module).
        on_outcome: called in this process as each task finishes (progress, saving rows).
        client: an existing ``distributed.Client`` to use as it is (not closed).
    """
    from distributed import Client, as_completed

    tasks = list(tasks)
    if not tasks:
        return []
    cluster = None
    own_client = client is None
    if client is None:
        if address:
            client = Client(address, set_as_default=False)
            try:
                client.wait_for_workers(1, timeout=60)
            except Exception as err:  # noqa: BLE001 - said plainly below
                client.close()
                raise RuntimeError(f"the Dask scheduler at {address} has no workers (start some with "
                                   f"`dask worker {address} --nthreads 1`)") from err
        else:
            cluster = local_cluster(n_workers)
            client = Client(cluster, set_as_default=False)
    outcomes: list[Outcome | None] = [None] * len(tasks)
    try:
        futures = [client.submit(_run_task, task_fn, task, time_limit, pure=False) for task in tasks]
        index = {future.key: i for i, future in enumerate(futures)}
        for future in as_completed(futures, loop=client.loop):
            i = index[future.key]
            try:
                data = future.result()
                outcome = Outcome(tasks[i], data.get("value"), data.get("error", ""), data["seconds"],
                                  data["worker"], data["timed_out"])
            except Exception as err:  # noqa: BLE001 - the worker died, or the result could not travel
                outcome = Outcome(tasks[i], error=f"{type(err).__name__}: {err}")
            outcomes[i] = outcome
            if on_outcome is not None:
                on_outcome(outcome)
            future.release()
    finally:
        if own_client:
            client.close()
        if cluster is not None:
            cluster.close()
    return [o for o in outcomes if o is not None]
