"""toolfaults.clock: RecordingSleep records every delay and never waits; SimulatedClocks lets code time itself in it."""

from __future__ import annotations

import math
import threading
import time
from fractions import Fraction
from time import perf_counter as bound_perf_counter

import pytest

from toolfaults.clock import RecordingSleep, SimulatedClocks, SleepLimitExceeded, elapsed_unit


def test_records_and_never_waits(no_real_sleep: None) -> None:
    """An hour's sleep is recorded, not waited: ``no_real_sleep`` fails the test if ``time.sleep`` is called,
    and a real wait of an hour would exceed the test's time limit (pytest-timeout)."""
    sleep = RecordingSleep()
    sleep(3600)
    sleep(0.5)
    sleep(0)
    assert sleep.delays == [3600.0, 0.5, 0.0]
    assert all(isinstance(d, float) for d in sleep.delays)
    assert sleep.calls == 3
    assert sleep.total == 3600.5


def test_total_is_exact_sum() -> None:
    sleep = RecordingSleep()
    for _ in range(10):
        sleep(0.1)
    assert sleep.total == 1.0  # math.fsum, not a drifting float sum
    assert sleep.calls == 10


def test_accepts_ints_and_other_real_numbers() -> None:
    sleep = RecordingSleep()
    sleep(2)
    sleep(Fraction(1, 4))
    assert sleep.delays == [2.0, 0.25]


def test_simulated_clock_moves_with_sleeps_and_advance() -> None:
    sleep = RecordingSleep(start=100.0)
    assert sleep.now() == 100.0
    sleep(2.5)
    sleep.advance(1.0)
    assert sleep.now() == 103.5
    assert sleep.delays == [2.5]  # advance is work, not a sleep
    assert sleep.total == 2.5


@pytest.mark.parametrize("bad", [-0.001, -5, float("nan"), float("inf")])
def test_rejects_negative_nan_and_infinite(bad: float) -> None:
    sleep = RecordingSleep()
    with pytest.raises(ValueError):
        sleep(bad)
    assert sleep.delays == [] and sleep.now() == 0.0


@pytest.mark.parametrize("bad", ["1", None, True, [1.0], 1j])
def test_rejects_non_numbers(bad: object) -> None:
    sleep = RecordingSleep()
    with pytest.raises(TypeError) as info:
        sleep(bad)  # type: ignore[arg-type]
    assert "number of seconds" in str(info.value)
    assert sleep.calls == 0


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_advance_rejects_bad_values(bad: float) -> None:
    sleep = RecordingSleep()
    with pytest.raises(ValueError):
        sleep.advance(bad)
    assert sleep.now() == 0.0 and not math.isnan(sleep.now())


def test_max_calls_guard_stops_runaway_loops() -> None:
    sleep = RecordingSleep(max_calls=3)
    for _ in range(3):
        sleep(1)
    with pytest.raises(SleepLimitExceeded) as info:
        sleep(1)
    assert "3" in str(info.value) and "retry loop" in str(info.value)
    assert sleep.calls == 3  # the refused call is not recorded
    assert isinstance(info.value, RuntimeError)


def test_default_limit_is_ten_thousand_calls() -> None:
    sleep = RecordingSleep()
    for _ in range(10_000):
        sleep(0)
    with pytest.raises(SleepLimitExceeded):
        sleep(0)


def test_no_limit_when_max_calls_is_none() -> None:
    sleep = RecordingSleep(max_calls=None)
    for _ in range(10_050):
        sleep(0)
    assert sleep.calls == 10_050


def test_reset_forgets_delays_but_keeps_clock() -> None:
    sleep = RecordingSleep(max_calls=2)
    sleep(1)
    sleep(2)
    sleep.reset()
    assert sleep.delays == [] and sleep.total == 0 and sleep.calls == 0
    assert sleep.now() == 3.0
    sleep(1)  # the limit counts again from zero
    assert sleep.calls == 1


def test_repr_summarises_calls() -> None:
    sleep = RecordingSleep()
    for d in range(10):
        sleep(d)
    text = repr(sleep)
    assert text.startswith("RecordingSleep(calls=10")
    assert "total=45" in text and "..." in text


# --- SimulatedClocks and elapsed_unit: how the exercises judge elapsed_ms without waiting ---

def _measure(work):
    started = (time.perf_counter(), time.monotonic(), time.time(), time.perf_counter_ns(), bound_perf_counter())
    work.advance(2.5)
    ended = (time.perf_counter(), time.monotonic(), time.time(), time.perf_counter_ns(), bound_perf_counter())
    return [b - a for a, b in zip(started, ended)]


def test_replacing_time_sleep_records_this_threads_sleeps_and_lets_other_threads_sleep(monkeypatch) -> None:
    """Code that calls time.sleep itself is recorded, not waited; another thread (a kernel's parent poller,
    say) reaches the real time.sleep and is not recorded; time.sleep is put back, after an error too."""
    real_calls: list[tuple[str, float]] = []
    monkeypatch.setattr(time, "sleep", lambda seconds: real_calls.append((threading.current_thread().name, seconds)))
    before = time.sleep
    sleep = RecordingSleep()
    with sleep.replacing_time_sleep() as active:
        assert active is sleep
        time.sleep(3600)
        poller = threading.Thread(target=lambda: time.sleep(1.0), name="poller")
        poller.start()
        poller.join()
        time.sleep(0.5)
    assert sleep.delays == [3600.0, 0.5]
    assert real_calls == [("poller", 1.0)]
    assert time.sleep is before
    with pytest.raises(ZeroDivisionError), sleep.replacing_time_sleep():
        1 / 0
    assert time.sleep is before


def test_simulated_clocks_follow_the_source_in_every_clock_and_in_names_bound_to_them():
    work = RecordingSleep()
    with SimulatedClocks(work, _measure):
        spans = _measure(work)
    assert spans[:3] == [pytest.approx(2.5, abs=1e-6)] * 3
    assert spans[3] == pytest.approx(2.5e9, abs=1e3)
    assert spans[4] == pytest.approx(2.5, abs=1e-6)


def test_simulated_clocks_put_everything_back_and_leave_other_threads_on_real_time():
    originals = {name: getattr(time, name) for name in ("perf_counter", "monotonic", "time", "perf_counter_ns")}
    work, seen = RecordingSleep(), []
    with SimulatedClocks(work, _measure):
        work.advance(1000.0)
        thread = threading.Thread(target=lambda: seen.append(time.monotonic()))
        thread.start()
        thread.join()
        assert time.monotonic() - seen[0] == pytest.approx(1000.0, abs=1.0)
        assert _measure.__globals__["bound_perf_counter"] is not originals["perf_counter"]
    assert {name: getattr(time, name) for name in originals} == originals
    assert _measure.__globals__["bound_perf_counter"] is originals["perf_counter"]


def test_simulated_clocks_are_put_back_when_the_code_raises():
    before = time.perf_counter
    with pytest.raises(ZeroDivisionError), SimulatedClocks(RecordingSleep()):
        1 / 0
    assert time.perf_counter is before


@pytest.mark.parametrize("readings, unit", [
    ([(2.5, 2500.0), (40.0, 40_000)], "ms"),
    ([(2.5, 2.5), (40.0, 40.0)], "s"),
    ([(2.5, 2.5e6), (40.0, 4e7)], "us"),
    ([(2.5, 2.5e9), (40.0, 4e10)], "ns"),
    ([(2.5, 2500.0), (40.0, 40.0)], None),   # one in ms, one in s: no unit
    ([(2.5, 0.2), (40.0, 0.3)], None),       # a clock the simulation did not reach
    ([(2.5, True), (40.0, "40000")], None),  # not numbers
])
def test_elapsed_unit(readings, unit):
    assert elapsed_unit(readings) == unit


# --- datetime and timeit under SimulatedClocks: answers that time themselves with them ---

import datetime as datetime_module  # noqa: E402
import timeit  # noqa: E402
from datetime import datetime as datetime_class  # noqa: E402


def _measure_with_datetime(work):
    started = (datetime_module.datetime.now(), datetime_class.now(), datetime_class.utcnow(), datetime_class.today(),
               datetime_class.now(datetime_module.timezone.utc), timeit.default_timer())
    work.advance(2.5)
    ended = (datetime_module.datetime.now(), datetime_class.now(), datetime_class.utcnow(), datetime_class.today(),
             datetime_class.now(datetime_module.timezone.utc), timeit.default_timer())
    return [(b - a).total_seconds() for a, b in zip(started[:5], ended[:5])] + [ended[5] - started[5]]


def test_simulated_clocks_reach_datetime_names_and_timeit():
    work = RecordingSleep()
    with SimulatedClocks(work, _measure_with_datetime):
        spans = _measure_with_datetime(work)
    assert spans == [pytest.approx(2.5, abs=1e-3)] * 6


def test_simulated_datetime_keeps_isinstance_and_the_rest_of_the_module():
    # this module's names are the ones switched: keep the real module and class under other names first
    real_module, real_class = datetime_module, datetime_class
    real_now = real_class.now()
    with SimulatedClocks(RecordingSleep(), _measure_with_datetime):
        module, cls = datetime_module, datetime_class
        assert module is not real_module and cls is not real_class  # switched while active
        assert module.datetime is cls
        made = cls(2024, 5, 17, 12, 0)
        assert isinstance(real_now, cls) and isinstance(real_now, module.datetime)
        assert isinstance(cls.now(), real_class) and isinstance(made, real_class)
        assert issubclass(real_class, cls) and isinstance(made, real_module.date)
        assert module.timedelta is real_module.timedelta and module.timezone is real_module.timezone
        assert cls.now() - real_now < real_module.timedelta(minutes=1)
        assert made.isoformat() == "2024-05-17T12:00:00"
    assert datetime_module is real_module and datetime_class is real_class


def test_simulated_datetime_and_timeit_are_real_in_other_threads_and_put_back_after_an_error():
    real_module, real_class = datetime_module, datetime_class
    work, seen = RecordingSleep(), []
    default_timer = timeit.default_timer
    with pytest.raises(ZeroDivisionError), SimulatedClocks(work, _measure_with_datetime):
        cls = datetime_class
        before, before_utc = cls.now(), cls.utcnow()
        work.advance(3600.0)
        thread = threading.Thread(target=lambda: seen.append((cls.now(), cls.utcnow(), timeit.default_timer())))
        thread.start()
        thread.join()
        assert (cls.now() - before).total_seconds() == pytest.approx(3600.0, abs=1.0)
        assert abs((seen[0][0] - before).total_seconds()) < 60  # the other thread: real time
        assert abs((seen[0][1] - before_utc).total_seconds()) < 60
        assert timeit.default_timer() - seen[0][2] == pytest.approx(3600.0, abs=1.0)
        1 / 0
    assert timeit.default_timer is default_timer is time.perf_counter
    assert datetime_module is real_module and datetime_class is real_class
