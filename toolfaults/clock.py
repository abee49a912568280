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
import numbers

from .language import say

__all__ = ["RecordingSleep", "SleepLimitExceeded"]


def _checked_seconds(seconds: object, what: str) -> float:
    """``seconds`` as a float, or a clear error for what ``time.sleep`` would refuse."""
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise TypeError(f"{what} expects a number of seconds, got {seconds!r} ({type(seconds).__name__})")
    value = float(seconds)
    if math.isnan(value) or value < 0:
        raise ValueError(f"{what} length must be a non-negative number, got {seconds!r}")
    if math.isinf(value):
        raise ValueError(f"{what} length must be finite, got {seconds!r}: nothing can wait forever")
    return value


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
        """Record ``seconds`` and return at once (``time.sleep``'s checks, no waiting).

        Raises:
            TypeError: ``seconds`` is not a real number (``bool`` included).
            ValueError: ``seconds`` is negative, NaN or infinite.
            SleepLimitExceeded: more than ``max_calls`` calls.
        """
        delay = _checked_seconds(seconds, "sleep()")
        if self.max_calls is not None and len(self.delays) >= self.max_calls:
            raise SleepLimitExceeded(say(
                f"sleep() was called more than {self.max_calls} times: is a retry loop missing its attempt limit?",
                f"sleep() se llamó más de {self.max_calls} veces: ¿le falta a un bucle de reintentos su límite de intentos?",
            ))
        self.delays.append(delay)
        self._now += delay

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
        self._now += _checked_seconds(seconds, "advance()")

    def reset(self) -> None:
        """Forget every recorded delay (the clock keeps its value)."""
        self.delays.clear()

    def __repr__(self) -> str:
        shown = ", ".join(f"{d:g}" for d in self.delays[:8]) + (", ..." if len(self.delays) > 8 else "")
        return f"RecordingSleep(calls={self.calls}, delays=[{shown}], total={self.total:g})"
