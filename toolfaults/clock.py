"""A ``sleep`` that never waits, for code whose waiting is injected.

Retry code that takes ``sleep=time.sleep`` as a parameter can be run in tests and
lessons with a :class:`RecordingSleep` instead: every call returns at once and the
delay asked for is remembered, so a test can check the backoff schedule without
waiting for it::

    >>> sleep = RecordingSleep()
    >>> sleep(0.5); sleep(1.25)
    >>> sleep.delays, sleep.total
    ([0.5, 1.25], 1.75)

It also keeps a simulated clock (:meth:`now`) that moves forward by each delay, so
code that measures time with it sees the waiting it would have done.
"""

from __future__ import annotations

import math

__all__ = ["RecordingSleep", "SleepLimitExceeded"]


class SleepLimitExceeded(RuntimeError):
    """Raised when code asks a :class:`RecordingSleep` for more calls than allowed.

    A retry loop that never stops would otherwise spin forever once its sleep
    returns instantly; the limit turns that into a clear error.
    """


class RecordingSleep:
    """Callable stand-in for :func:`time.sleep` that records and never waits.

    Args:
        max_calls: after this many calls, the next one raises
            :class:`SleepLimitExceeded` (``None`` means no limit). The default,
            10,000, stops runaway retry loops long before they hang a test.
        start: the simulated clock's starting value, in seconds.
    """

    def __init__(self, max_calls: int | None = 10_000, start: float = 0.0) -> None:
        self.delays: list[float] = []
        self.max_calls = max_calls
        self._now = float(start)

    def __call__(self, seconds: float) -> None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError(f"sleep() expects a number of seconds, got {seconds!r} ({type(seconds).__name__})")
        if math.isnan(seconds) or seconds < 0:
            raise ValueError(f"sleep() length must be a non-negative number, got {seconds!r}")
        if self.max_calls is not None and len(self.delays) >= self.max_calls:
            raise SleepLimitExceeded(
                f"sleep() was called more than {self.max_calls} times: is a retry loop missing its attempt limit?"
            )
        self.delays.append(float(seconds))
        self._now += float(seconds)

    @property
    def calls(self) -> int:
        """How many times sleep was called."""
        return len(self.delays)

    @property
    def total(self) -> float:
        """The sum of all delays asked for, in seconds."""
        return math.fsum(self.delays)

    def now(self) -> float:
        """The simulated clock: the start value plus every delay so far."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the simulated clock without recording a sleep (time spent working)."""
        if seconds < 0:
            raise ValueError("the clock cannot go backwards")
        self._now += float(seconds)

    def reset(self) -> None:
        """Forget every recorded delay (the clock keeps its value)."""
        self.delays.clear()

    def __repr__(self) -> str:
        shown = ", ".join(f"{d:g}" for d in self.delays[:8]) + (", ..." if len(self.delays) > 8 else "")
        return f"RecordingSleep(calls={self.calls}, delays=[{shown}], total={self.total:g})"
