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

:class:`SimulatedClocks` goes one step further for code that measures itself with
``time.perf_counter()``, ``time.monotonic()`` or ``time.time()``: while it is active,
those clocks read a :class:`RecordingSleep`'s simulated time, so a tool whose
simulated latency is 2.5 s "takes" 2.5 s without anybody waiting, and
:func:`elapsed_unit` tells whether a reported duration is in milliseconds. It also
reaches ``timeit.default_timer`` and, through the names a function's module bound to
the ``datetime`` module or class, ``datetime.now()``, ``utcnow()`` and ``today()``.
"""

from __future__ import annotations

import datetime as _datetime
import math
import numbers
import threading
import time
import timeit
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

from .language import say

__all__ = ["RecordingSleep", "SleepLimitExceeded", "SimulatedClocks", "elapsed_unit"]


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

    @contextmanager
    def replacing_time_sleep(self) -> Iterator[RecordingSleep]:
        """While active, ``time.sleep`` called from this thread is recorded here and returns at once.

        For code that calls ``time.sleep`` itself and takes no ``sleep`` parameter
        (LangChain's ``with_retry()``). Every other thread keeps the real ``time.sleep``:
        a kernel's own threads sleep too (ipykernel's parent poller sleeps one second at a
        time), and ``mock.patch("time.sleep", ...)``, which replaces it for every thread,
        would record their waits with the code's own and make them spin.

        >>> sleep = RecordingSleep()
        >>> with sleep.replacing_time_sleep():
        ...     time.sleep(2.0)
        >>> sleep.delays
        [2.0]
        """
        real, thread = time.sleep, threading.get_ident()

        def sleep(seconds: float) -> None:
            if threading.get_ident() != thread:
                return real(seconds)
            return self(seconds)

        time.sleep = sleep
        try:
            yield self
        finally:
            time.sleep = real

    def __repr__(self) -> str:
        shown = ", ".join(f"{d:g}" for d in self.delays[:8]) + (", ..." if len(self.delays) > 8 else "")
        return f"RecordingSleep(calls={self.calls}, delays=[{shown}], total={self.total:g})"


#: The clocks code measures elapsed time with; each has an ``_ns`` twin.
CLOCKS = ("perf_counter", "monotonic", "time")


class _SimulatedDatetimeMeta(type):
    """``isinstance(real_datetime, simulated_class)`` stays True: the stand-in class is only a window on the clock."""

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, _datetime.datetime)

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, _datetime.datetime)


def _simulated_datetime_class(now: Callable[[], float | None]) -> type:
    """A ``datetime.datetime`` stand-in whose ``now/utcnow/today`` read ``now()`` (a timestamp, or None: real time).

    What they return are real :class:`datetime.datetime` instances, so arithmetic and comparisons with other
    datetimes work, and ``isinstance`` answers for the stand-in as for the real class.
    """
    real = _datetime.datetime

    class datetime(real, metaclass=_SimulatedDatetimeMeta):  # noqa: N801 - it stands in for datetime.datetime
        @classmethod
        def now(cls, tz: _datetime.tzinfo | None = None) -> _datetime.datetime:  # type: ignore[override]
            stamp = now()
            return real.now(tz) if stamp is None else real.fromtimestamp(stamp, tz)

        @classmethod
        def utcnow(cls) -> _datetime.datetime:  # type: ignore[override]
            stamp = now()
            if stamp is None:
                return real.now(_datetime.timezone.utc).replace(tzinfo=None)
            return real.fromtimestamp(stamp, _datetime.timezone.utc).replace(tzinfo=None)

        @classmethod
        def today(cls) -> _datetime.datetime:  # type: ignore[override]
            return cls.now()

    datetime.__qualname__ = datetime.__name__ = "datetime"
    datetime.__module__ = "datetime"
    return datetime


class _DatetimeModule(types.ModuleType):
    """The ``datetime`` module, but its ``datetime`` class is the simulated stand-in; everything else is the real one."""

    def __init__(self, simulated: type) -> None:
        super().__init__("datetime", _datetime.__doc__)
        self.datetime = simulated

    def __getattr__(self, name: str) -> Any:
        return getattr(_datetime, name)

    def __dir__(self) -> list[str]:
        return dir(_datetime)


class SimulatedClocks:
    """While active, ``time.perf_counter/monotonic/time`` (and their ``_ns`` twins) follow ``source.now()``.

    Only the thread that entered sees simulated time; every other thread (a kernel's
    own machinery) keeps the real clocks. Each clock starts from its real reading and
    moves only when ``source`` does, by as much. Names that ``functions``' modules
    bound to a clock (``from time import perf_counter``) are switched too, and so is
    ``timeit.default_timer``. Names that they bound to the ``datetime`` module or to
    the ``datetime.datetime`` class are switched to stand-ins whose ``now()``,
    ``utcnow()`` and ``today()`` follow the simulated ``time.time()`` (``isinstance``
    with a real datetime keeps working). Everything is put back on exit.

    >>> work = RecordingSleep()
    >>> with SimulatedClocks(work):
    ...     started = time.perf_counter()
    ...     work.advance(2.5)
    ...     round(time.perf_counter() - started, 6)
    2.5
    """

    def __init__(self, source: RecordingSleep, *functions: Callable[..., Any]) -> None:
        self.source = source
        self.functions = functions
        self._saved: list[tuple[Any, str, Any]] = []

    def _fakes(self) -> dict[int, Callable[[], float | int]]:
        thread, start = threading.get_ident(), self.source.now()
        fakes: dict[int, Callable[[], float | int]] = {}
        for name in CLOCKS:
            real, real_ns = getattr(time, name), getattr(time, name + "_ns")
            base, base_ns = real(), real_ns()

            def fake(real=real, base=base) -> float:
                if threading.get_ident() != thread:
                    return real()
                return base + (self.source.now() - start)

            def fake_ns(real_ns=real_ns, base_ns=base_ns) -> int:
                if threading.get_ident() != thread:
                    return real_ns()
                return base_ns + round((self.source.now() - start) * 1e9)

            fakes[id(real)], fakes[id(real_ns)] = fake, fake_ns
        return fakes

    def _switch(self, namespace: Any, name: str, value: Any) -> None:
        if isinstance(namespace, dict):
            self._saved.append((namespace, name, namespace[name]))
            namespace[name] = value
        else:
            self._saved.append((namespace, name, getattr(namespace, name)))
            setattr(namespace, name, value)

    def __enter__(self) -> SimulatedClocks:
        try:
            self._enter()
        except BaseException:
            self.__exit__()
            raise
        return self

    def _enter(self) -> None:
        fakes = self._fakes()
        real_time = time.time
        fake_time = fakes[id(real_time)]
        thread = threading.get_ident()
        for name in CLOCKS:
            for attr in (name, name + "_ns"):
                self._switch(time, attr, fakes[id(getattr(time, attr))])
        if id(timeit.default_timer) in fakes:
            self._switch(timeit, "default_timer", fakes[id(timeit.default_timer)])
        # datetime.now() in the entering thread reads the simulated time.time(); other threads see real time
        simulated_class = _simulated_datetime_class(lambda: fake_time() if threading.get_ident() == thread else None)
        simulated_module = _DatetimeModule(simulated_class)
        for function in self.functions:  # the fakes' defaults keep the real clocks alive: their ids stay theirs
            namespace = getattr(function, "__globals__", None)
            if isinstance(namespace, dict):
                for key, value in list(namespace.items()):
                    if id(value) in fakes:
                        self._switch(namespace, key, fakes[id(value)])
                    elif value is _datetime:
                        self._switch(namespace, key, simulated_module)
                    elif value is _datetime.datetime:
                        self._switch(namespace, key, simulated_class)

    def __exit__(self, *exc: object) -> None:
        while self._saved:
            namespace, name, value = self._saved.pop()
            if isinstance(namespace, dict):
                namespace[name] = value
            else:
                setattr(namespace, name, value)


#: A duration's unit by how many of it make a second.
_UNITS = {"s": 1.0, "ms": 1e3, "us": 1e6, "ns": 1e9}


def elapsed_unit(readings: list[tuple[float, Any]]) -> str | None:
    """The unit that every ``(seconds, reported)`` pair agrees on (``"s"``, ``"ms"``, ``"us"``, ``"ns"``), else ``None``.

    A reading agrees with a unit when it is within 5% of ``seconds`` in that unit.
    ``None`` means the durations did not follow the simulated time at all (a clock
    :class:`SimulatedClocks` could not reach), so they say nothing about the unit.

    >>> elapsed_unit([(2.5, 2500.0), (40.0, 40000.0)])
    'ms'
    >>> elapsed_unit([(2.5, 2.5), (40.0, 40.0)])
    's'
    >>> elapsed_unit([(2.5, 0.31), (40.0, 0.27)]) is None
    True
    """
    for unit, per_second in _UNITS.items():
        if all(isinstance(value, (int, float)) and not isinstance(value, bool)
               and abs(value - seconds * per_second) <= 0.05 * seconds * per_second
               for seconds, value in readings):
            return unit
    return None
