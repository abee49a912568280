"""How `make bench` measures: the CPU of a process and all it starts, the machine's load, a sample of tasks.

Shared by :mod:`coursetools.bench` and :mod:`coursetools.benchcompare`.
"""

from __future__ import annotations

import os
import time
from typing import Any


def load() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:  # pragma: no cover
        return "load n/a"
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def interleave(tasks: list) -> list:
    """The tasks with each assignment's spread through the list: any first few hold every assignment."""
    by_assignment: dict[str, list] = {}
    for task in tasks:
        by_assignment.setdefault(task.assignment, []).append(task)
    queues = list(by_assignment.values())
    out: list = []
    while any(queues):
        for queue in queues:
            if queue:
                out.append(queue.pop(0))
    return out


class TreeCPU:
    """CPU seconds used by this process and every process it starts (workers, kernels, clean rooms).

    A figure that other work on a shared machine does not change, unlike wall time: a thread
    samples every descendant's CPU time every ``interval`` seconds and keeps each one's last
    reading (a process that lives less than ``interval`` is missed); the sampling's own CPU
    time is left out.
    """

    def __init__(self, interval: float = 0.2) -> None:
        import threading

        self.interval, self.seen = interval, {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _sample(self) -> None:
        import psutil

        me = psutil.Process()
        for proc in [me, *me.children(recursive=True)]:
            try:
                t = proc.cpu_times()
                self.seen[(proc.pid, proc.create_time())] = t.user + t.system
            except psutil.Error:
                pass

    def _watch(self) -> None:
        while not self._stop.wait(self.interval):
            self._sample()
        self.own = time.thread_time()  # the sampling's own cost, left out of the figure

    def __enter__(self) -> TreeCPU:
        self._sample()
        self.start = dict(self.seen)
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
        self.seconds = sum(v - self.start.get(k, 0.0) for k, v in self.seen.items()) - self.own
