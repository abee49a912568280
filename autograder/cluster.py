"""Run per-student grading tasks on Dask: a LocalCluster by default, or a running scheduler.

    outcomes = run_on_dask(students, grade_one)                     # LocalCluster, one worker per core and one more
    outcomes = run_on_dask(students, grade_one, address="tcp://scheduler:8786")  # same code path

``task_fn(task)`` runs on a worker and must be importable there (a module-level
function; its module must exist on the workers). Expensive objects that should live
as long as the run on each worker (one nbgrader :class:`~autograder.engine.Course` per
worker instead of one per student: nbgrader's imports and setup cost about 2 s) go in
a Dask ``WorkerPlugin`` passed as ``plugin``: it is added to every worker that gets
tasks before the first one, and removed (its ``teardown`` called) at the end, so a
long-lived worker keeps nothing from one run to the next (see
:class:`autograder.worker.GraderPlugin`).

Every task gets an :class:`Outcome` (its value, or the error text when it raised or its
worker died), in the order of ``tasks``; one failing task never stops the others.

Time limits. Dask cannot stop a running task, so the hard limits live where they can
act: each cell has nbgrader's cell timeout (and the notebook its time limit), and
``time_limit`` gives every task a wall-clock limit enforced *inside the worker*: when it
runs out, the worker kills the processes the task started (the notebook's kernel, and
with it its sandbox), and any it starts from then on until it returns; nbgrader then sees
a dead kernel and the task finishes with what it has. That is why workers run one task at a time (``threads_per_worker=1``; start
remote workers with ``dask worker --nthreads 1``).
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

@dataclass
class Outcome:
    """What became of one task."""

    task: Any
    value: Any = None
    error: str = ""  # the exception (and traceback) when the task raised or its worker died
    seconds: float = 0.0  # wall time on the worker
    worker: str = ""  # "host:pid" of the worker process that ran it
    timed_out: bool = False  # its time limit ran out and its processes were killed
    reason: str = ""  # why it failed, in one line: the exception's type and message

    @property
    def ok(self) -> bool:
        return not self.error


def describe(err: BaseException) -> str:
    """An exception in one line, the root cause first: ``Type: message``.

    Dask wraps what went wrong on the far side (a scheduler or worker that cannot
    unpickle a task raises ``RuntimeError: Error during deserialization ...`` *from* the
    real ``ModuleNotFoundError``); the root cause is what an instructor can act on.
    """
    root = err
    while root.__cause__ is not None and root.__cause__ is not root:
        root = root.__cause__
    text = f"{type(root).__name__}: {str(root).strip()}" if str(root).strip() else type(root).__name__
    if root is not err:
        outer = " ".join(str(err).split()).split(". ")[0].rstrip(".")
        text += f" ({type(err).__name__}: {outer})" if outer else f" ({type(err).__name__})"
    return text


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

    fired, finished = threading.Event(), threading.Event()

    def expire() -> None:
        fired.set()
        # Until the task returns: a process it starts after the limit (a kernel restarted, a
        # child not yet started when the timer fired) is stopped as well.
        while not finished.is_set():
            _kill_children()
            finished.wait(0.2)

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
        result["reason"] = describe(err)
    finally:
        finished.set()
        if timer is not None:
            timer.cancel()
    result["seconds"] = time.perf_counter() - started
    result["timed_out"] = fired.is_set()
    return result


# A LocalCluster has no dashboard, so its workers' statistical profiler (a thread sampling the
# task's stack every 10 ms, for the dashboard's profile page) is only cost. Measured on the
# sample class (24 submissions, 2 workers): the workers used 26.3 CPU seconds with it and
# 20.5 without it (that run also slowed Dask's system monitor, which is left as it is here).
QUIET_WORKERS = {"distributed.worker.profile.enabled": False}


def cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def default_workers() -> int:
    """One worker per core this process may use, and one more (one in all on a single core).

    A grading worker spends part of each submission waiting, not computing: on a kernel's
    start and its ZeroMQ round trips, the sandbox, the clean room's pipes. One at a time, a
    grader keeps its core about 75% busy (`make bench`: 33 s of CPU in 45 s). An extra
    worker grades while the others wait: on 2 cores, three interleaved pairs of `make bench`
    runs gave the grading step 1.91x, 2.04x and 1.97x with 3 workers against 1.44x, 1.43x
    and 1.76x with 2. On one core the run stays in this process (no cluster to pay for).
    """
    n = cores()
    return n + 1 if n > 1 else 1


# A LocalCluster's workers are forks of one process that has imported what a worker imports before
# its first task (multiprocessing's forkserver), instead of new Pythons that each import it: Dask
# and the grader (nbgrader, nbconvert, SQLAlchemy), about 2 s of CPU a worker. Measured on the
# sample class (24 submissions, 3 workers on 2 cores, three interleaved pairs): 31.7 s against
# 34.5 s and 55 against 62 CPU seconds. The forkserver starts with the first cluster of a process
# and stops when the last one closes, so that the next cluster's workers start from the modules and
# environment of their own time, as spawned workers do (a worker's sys.path and folder always do).
WORKER_PRELOAD = ["autograder.boot", "distributed", "autograder.worker"]  # boot: autograder/boot.py
_forkserver_users = 0
_forkserver_lock = threading.Lock()


def _use_forkserver() -> None:
    global _forkserver_users
    from distributed.utils import get_mp_context

    with _forkserver_lock:
        _forkserver_users += 1
        get_mp_context().set_forkserver_preload(WORKER_PRELOAD)  # in place of Dask's own list (numpy, ...)


def _release_forkserver() -> None:
    """One cluster fewer; with none left, stop the forkserver (the next cluster starts a fresh one)."""
    global _forkserver_users
    from multiprocessing import forkserver

    with _forkserver_lock:
        _forkserver_users -= 1
        if _forkserver_users == 0:
            forkserver._forkserver._stop()  # waits for it to exit; its workers have all exited by now


@functools.cache
def _forked_cluster_class() -> Any:
    """LocalCluster, holding the forkserver from its start until its close (or its failed start).

    Made on first use: importing Dask costs a command that never starts a cluster about 0.4 s."""
    from distributed import LocalCluster

    class ForkedLocalCluster(LocalCluster):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._holds_forkserver = True
            _use_forkserver()
            try:
                super().__init__(*args, **kwargs)
            except BaseException:
                self._give_back()
                raise

        def _give_back(self) -> None:
            if self._holds_forkserver:
                self._holds_forkserver = False
                _release_forkserver()

        async def _close(self) -> None:
            try:
                await super()._close()
            finally:
                self._give_back()

    return ForkedLocalCluster


def local_cluster(n_workers: int | None = None, threads_per_worker: int = 1, **kwargs: Any):
    """A quiet LocalCluster of worker processes (no dashboard, no profiler), :func:`default_workers` by default;
    its workers are forks of a process that has imported the grader (:data:`WORKER_PRELOAD`)."""
    import dask

    options: dict[str, Any] = {
        "n_workers": n_workers or default_workers(),
        "threads_per_worker": threads_per_worker,
        "processes": True,
        "dashboard_address": None,
        # No dashboard, but the scheduler still serves its health and metrics pages: on a port of its
        # own, not Dask's usual 8787, which another cluster or a dashboard may hold ("Port 8787 is
        # already in use" would be printed on every `make grade` then).
        "scheduler_kwargs": {"dashboard_address": ":0"},
        "silence_logs": logging.ERROR,
        # A forkserver started for an earlier cluster still open has that one's environment: each worker
        # sets this one's (a variable removed since then stays, the one difference from spawned workers).
        "env": dict(os.environ),
    }
    options.update(kwargs)
    # Imports distributed, and with it its configuration defaults, before the `with`: imported
    # inside it, its defaults would be set inside it, and taken away with the `with`'s settings
    # at its end (dask.config.set puts back the "distributed" key as it was: absent).
    cluster_class = _forked_cluster_class()
    # each nanny hands its worker the configuration it sees here
    with dask.config.set({**QUIET_WORKERS, "distributed.worker.multiprocessing-method": "forkserver"}):
        return cluster_class(**options)


def quiet_for_shutdown() -> None:
    """Run on each worker (``Client.run``) as the grade command's cluster shuts down: distributed's
    own errors from then on are the shutdown's, not news. (A worker's heartbeat that meets the
    closing scheduler logged "Failed to communicate with scheduler during heartbeat" with a
    traceback, in about one run of ``make grade`` in six, after every grade was in.)"""
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


class StartingCluster:
    """A LocalCluster started in a background thread, so that it comes up while the caller works.

    The grade command starts one before it generates the assignments and closes it while it
    writes grades, feedback and the report: the workers' start (the grader's imports, about 2 s on
    2 cores) and the cluster's shutdown (about 1 s) then overlap work that is done anyway,
    instead of adding to it. With ``warm``, ``(function, argument)``, each worker runs
    ``function(argument)`` as soon as it is up, before any task it gets later (the grade
    command's :func:`autograder.worker.warm_up`). :func:`run_on_dask` starts one itself when it
    is given none.

        with StartingCluster(2) as cluster:   # starts now
            ...                               # other work meanwhile
            run_on_dask(tasks, fn, cluster=cluster)   # waits for it, if it is not up yet
            cluster.close(wait=False)         # shuts down while the caller goes on
        # leaving the block waits for the shutdown (and shuts it down if nobody did)
    """

    def __init__(self, n_workers: int | None = None, warm: tuple[Callable[[Any], Any], Any] | None = None) -> None:
        from concurrent.futures import Future

        self.n_workers = n_workers
        self.warm = warm  # (function, argument): run once on each worker as soon as it is up
        self._warming: list = []  # its futures, held until the cluster closes (a released one is cancelled)
        self.started = time.perf_counter()
        self.up_after: float | None = None  # seconds from creation until its workers were all up
        self.closed_after: float | None = None  # seconds the shutdown took
        self._ready: Future = Future()
        self._closing: threading.Thread | None = None
        threading.Thread(target=self._start, name="local-cluster-start", daemon=True).start()

    def _start(self) -> None:
        try:
            from distributed import Client

            cluster = local_cluster(self.n_workers)
            try:
                client = Client(cluster, set_as_default=False)
                client.wait_for_workers(len(cluster.workers), timeout=120)
            except BaseException:
                cluster.close()
                raise
            self.up_after = time.perf_counter() - self.started
            if self.warm is not None:
                function, argument = self.warm
                self._warming = [client.submit(function, argument, workers=[worker], allow_other_workers=False,
                                               pure=False) for worker in sorted(client.scheduler_info()["workers"])]
            self._ready.set_result((cluster, client))
        except BaseException as err:  # noqa: BLE001 - raised again in the thread that asks for the client
            self._ready.set_exception(err)

    def client(self) -> Any:
        """The cluster's client, once every worker is up (raises what stopped the cluster from starting)."""
        return self._ready.result()[1]

    def _close(self) -> None:
        began = time.perf_counter()
        try:
            cluster, client = self._ready.result()
        except BaseException:  # noqa: BLE001 - it never started: nothing to close
            return
        self._warming = []
        try:
            try:
                client.run(quiet_for_shutdown)
            except Exception:  # noqa: BLE001 - only quieter: the close goes on without it
                pass
            client.close()
        finally:
            cluster.close()
            self.closed_after = time.perf_counter() - began

    def close(self, wait: bool = True) -> None:
        """Shut the cluster down (once); ``wait=False`` returns at once, :meth:`join` waits."""
        if self._closing is None:
            self._closing = threading.Thread(target=self._close, name="local-cluster-close", daemon=True)
            self._closing.start()
        if wait:
            self.join()

    def join(self) -> None:
        if self._closing is not None:
            self._closing.join()

    def __enter__(self) -> StartingCluster:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close(wait=True)


# Asked of every worker of a running cluster before any task is sent: a worker that cannot
# unpickle a task closes its connection and dies, and the tasks would then wait for workers
# forever. ``eval`` of a string travels whatever the worker can import.
CAN_GRADE = "__import__('autograder.cluster').__name__"


def usable_workers(client: Any, address: str) -> list[str]:
    """The workers that can import the grader; the others are named, with the reason, once per reason."""
    answers = client.run(eval, CAN_GRADE, on_error="return")
    bad: dict[str, list[str]] = {}
    for worker, answer in sorted(answers.items()):
        if isinstance(answer, BaseException):
            bad.setdefault(describe(answer), []).append(worker)
    for reason, workers in bad.items():
        log.warning("%d of %d workers of the Dask scheduler at %s cannot import the grader and get no tasks: "
                    "%s (%s)", len(workers), len(answers), address, reason, ", ".join(workers))
    return sorted(w for w in answers if not any(w in ws for ws in bad.values()))


def _watch_workers(client: Any, futures: list, lost_after: float, guard: threading.Lock) -> threading.Event:
    """Cancel the unfinished ``futures`` once the cluster has had no worker for ``lost_after`` seconds.

    Returns an event that is set when that happened (or when the caller sets it to stop the watch).
    The caller holds ``guard`` while it adds to ``futures``, and adds none once the event is set.
    """
    lost = threading.Event()

    def watch() -> None:
        alone_since = None
        while not lost.wait(2.0):
            try:
                alive = bool(client.scheduler_info().get("workers"))
            except Exception:  # noqa: BLE001 - a scheduler that does not answer has no workers for us
                alive = False
            if alive:
                alone_since = None
                continue
            alone_since = alone_since or time.monotonic()
            if time.monotonic() - alone_since >= lost_after:
                with guard:
                    lost.set()
                    for future in futures:
                        if not future.done():
                            future.cancel()

    threading.Thread(target=watch, name="dask-workers-watch", daemon=True).start()
    return lost


async def _add_plugin(plugin: Any, dask_worker: Any = None) -> str:
    """Run on a worker (``Client.run``): add ``plugin`` under its name, replacing one of that name."""
    await dask_worker.plugin_add(plugin, name=plugin.name, catch_errors=False)
    return plugin.name


async def _remove_plugin(name: str, dask_worker: Any = None) -> bool:
    """Run on a worker (``Client.run``): remove the plugin ``name`` (its teardown runs)."""
    if name in dask_worker.plugins:
        await dask_worker.plugin_remove(name)
        return True
    return False


def run_on_dask(tasks: Iterable[Any], task_fn: Callable[[Any], Any], *, address: str | None = None,
                n_workers: int | None = None, time_limit: float | None = None,
                on_outcome: Callable[[Outcome], None] | None = None, client: Any = None,
                lost_after: float = 60, plugin: Any = None,
                cluster: StartingCluster | None = None) -> list[Outcome]:
    """Run ``task_fn(task)`` for every task on Dask; the outcomes in the order of ``tasks``.

    Args:
        address: a running scheduler (``tcp://host:8786``); default: a LocalCluster with
            ``n_workers`` worker processes (default: one per core), closed at the end.
            The tasks go only to its workers that can import the grader.
        time_limit: wall-clock seconds per task, enforced on the worker (see the module).
        on_outcome: called in this process as each task finishes (progress, saving rows).
        client: an existing ``distributed.Client`` to use as it is (not closed).
        cluster: a :class:`StartingCluster` started earlier by the caller, who closes it;
            without ``address``, ``client`` and ``cluster``, a LocalCluster of ``n_workers``
            is started here and closed at the end.
        lost_after: seconds without any worker before the tasks left count as failed.
        plugin: a ``WorkerPlugin`` with a ``name``, added to the workers that get tasks for
            the time of this call.
    """
    tasks = list(tasks)
    if not tasks:
        return []
    client, close = _connect(address, client, cluster, n_workers)
    outcomes: list[Outcome | None] = [None] * len(tasks)

    def done(i: int, outcome: Outcome) -> None:
        outcomes[i] = outcome
        if on_outcome is not None:
            on_outcome(outcome)

    try:
        workers = usable_workers(client, address) if address else sorted(client.scheduler_info()["workers"])
        if workers == []:
            for i, task in enumerate(tasks):
                done(i, Outcome(task, error="no worker can grade", reason="no worker of the cluster can import "
                                "the grader (see above)"))
        else:
            if plugin is not None:
                client.run(_add_plugin, plugin, workers=workers)
            try:
                _Dispatch(client, workers, tasks, task_fn, time_limit, lost_after).run(done)
            finally:
                if plugin is not None:
                    client.run(_remove_plugin, plugin.name, workers=workers, on_error="return")
    finally:
        close()
    return [o for o in outcomes if o is not None]


def _connect(address: str | None, client: Any, cluster: StartingCluster | None,
             n_workers: int | None) -> tuple[Any, Callable[[], None]]:
    """The client :func:`run_on_dask` uses, and what closes what it started (nothing it was given)."""
    from distributed import Client

    if cluster is not None:  # the caller's, closed by the caller with its client
        return cluster.client(), lambda: None
    if client is not None:
        return client, lambda: None
    if not address:
        started = StartingCluster(n_workers)
        return started.client(), started.close
    own = Client(address, set_as_default=False)
    try:
        own.wait_for_workers(1, timeout=60)
    except Exception as err:  # noqa: BLE001 - said plainly here
        own.close()
        raise RuntimeError(f"the Dask scheduler at {address} has no workers (start some with "
                           f"`dask worker {address} --nthreads 1`)") from err
    return own, own.close


class _Dispatch:
    """One task in flight per worker, the next handed out as one comes back: in the order of the
    tasks (the caller puts the longest first), to whichever worker is free. Submitted all at once,
    each worker would get its share up front and run it newest first."""

    def __init__(self, client: Any, workers: list, tasks: list, task_fn: Callable[[Any], Any],
                 time_limit: float | None, lost_after: float) -> None:
        from distributed import as_completed

        self.client, self.workers, self.tasks, self.task_fn, self.time_limit = (client, workers, tasks, task_fn,
                                                                                 time_limit)
        self.guard = threading.Lock()
        self.futures: list = []
        self.index: dict[str, int] = {}
        self.lost = _watch_workers(client, self.futures, lost_after, self.guard)
        self.pending = as_completed(loop=client.loop)
        self.submitted = 0
        self.gone = f"the cluster had no workers for {lost_after:.0f} s"  # why the tasks left then failed

    def hand_out(self) -> None:
        with self.guard:
            if self.lost.is_set():
                return
            future = self.client.submit(_run_task, self.task_fn, self.tasks[self.submitted], self.time_limit,
                                        pure=False, workers=self.workers)
            self.futures.append(future)
        self.index[future.key] = self.submitted
        self.submitted += 1
        self.pending.add(future)

    def outcome(self, future: Any) -> Outcome:
        task = self.tasks[self.index[future.key]]
        try:
            data = future.result()
            return Outcome(task, data.get("value"), data.get("error", ""), data["seconds"], data["worker"],
                           data["timed_out"], data.get("reason", ""))
        except Exception as err:  # noqa: BLE001 - the worker died, the task could not be unpickled
            # there, or the result could not travel back
            reason = self.gone if self.lost.is_set() and future.cancelled() else describe(err)
            return Outcome(task, error="".join(traceback.format_exception(err)).strip(), reason=reason)

    def run(self, done: Callable[[int, Outcome], None]) -> None:
        """Hand out every task, calling ``done(index, outcome)`` as each comes back."""
        try:
            while self.submitted < min(len(self.workers), len(self.tasks)) and not self.lost.is_set():
                self.hand_out()
            for future in self.pending:
                if self.submitted < len(self.tasks):
                    self.hand_out()
                done(self.index[future.key], self.outcome(future))
                future.release()
            for i in range(self.submitted, len(self.tasks)):  # never handed out: the cluster had no workers left
                done(i, Outcome(self.tasks[i], error=self.gone, reason=self.gone))
        finally:
            self.lost.set()  # stops the watch
