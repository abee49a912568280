"""toolfaults.clock.RecordingSleep: records every delay and never waits."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from toolfaults.clock import RecordingSleep, SleepLimitExceeded


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
