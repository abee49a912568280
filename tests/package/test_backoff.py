"""toolfaults.backoff: the four backoff formulas and the thundering-herd simulator.

Randomness is checked by ranges over many draws (every draw inside its bounds, the
draws spread over the whole range, the mean where the distribution puts it), never
by fixed seeds.
"""

from __future__ import annotations

import math
import random
import statistics

import numpy as np
import pytest

from toolfaults.backoff import (
    STRATEGIES,
    compare,
    decorrelated_jitter,
    delays,
    draw_delays,
    equal_jitter,
    exponential_delay,
    full_jitter,
    next_delay,
    plot_calls,
    plot_waiting,
    simulate,
    summary_table,
)

DRAWS = 4000


# --- the formulas -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "base", "cap", "expected"),
    [(0, 1.0, 30.0, 1.0), (1, 1.0, 30.0, 2.0), (4, 1.0, 30.0, 16.0), (5, 1.0, 30.0, 30.0), (3, 0.5, 100.0, 4.0)],
)
def test_no_jitter_is_min_of_cap_and_base_times_two_to_the_n(n, base, cap, expected):
    """No jitter: min(cap, base * 2**n), exactly."""
    assert exponential_delay(n, base, cap) == pytest.approx(expected), (
        f"exponential_delay({n}, {base}, {cap}) should be min(cap, base * 2**n) = {expected}"
    )


def test_no_jitter_never_overflows_for_huge_retry_numbers():
    """A retry number far beyond any float exponent still gives the cap, not OverflowError."""
    assert exponential_delay(5000, 1.0, 60.0) == 60.0, "base * 2**5000 must be capped, not overflow"


def test_schedule_without_jitter_doubles_then_stays_at_the_cap():
    """delays('none', ...) is the doubling schedule, flat once it reaches the cap."""
    assert delays("none", 7, base=0.5, cap=8.0) == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0], (
        "the no-jitter schedule should double from base and stop growing at the cap"
    )


@pytest.mark.parametrize("n", [0, 1, 3, 6, 10])
def test_full_jitter_is_uniform_between_zero_and_the_exponential_delay(n):
    """Full jitter: every draw in [0, t]; the draws cover the range with mean near t/2."""
    t = exponential_delay(n, 1.0, 30.0)
    draws = [full_jitter(n, 1.0, 30.0) for _ in range(DRAWS)]
    assert all(0.0 <= d <= t for d in draws), f"full jitter for n={n} left [0, {t}]"
    assert min(draws) < 0.05 * t and max(draws) > 0.95 * t, "full jitter should spread over all of [0, t]"
    assert statistics.fmean(draws) == pytest.approx(t / 2, rel=0.08), "full jitter's mean should be about t/2"


@pytest.mark.parametrize("n", [0, 2, 5, 9])
def test_equal_jitter_keeps_half_and_randomises_half(n):
    """Equal jitter: every draw in [t/2, t]; the draws cover it with mean near 3t/4."""
    t = exponential_delay(n, 0.5, 20.0)
    draws = [equal_jitter(n, 0.5, 20.0) for _ in range(DRAWS)]
    assert all(t / 2 <= d <= t for d in draws), f"equal jitter for n={n} left [t/2, t] = [{t / 2}, {t}]"
    assert min(draws) < 0.53 * t and max(draws) > 0.97 * t, "equal jitter should spread over all of [t/2, t]"
    assert statistics.fmean(draws) == pytest.approx(0.75 * t, rel=0.05), "equal jitter's mean should be about 3t/4"


def test_decorrelated_jitter_first_retry_is_between_base_and_three_base():
    """Decorrelated jitter starts from prev = base: uniform(base, 3 * base)."""
    draws = [decorrelated_jitter(None, 1.0, 30.0) for _ in range(DRAWS)]
    assert all(1.0 <= d <= 3.0 for d in draws), "the first decorrelated delay must lie in [base, 3 * base]"
    assert min(draws) < 1.1 and max(draws) > 2.9, "the first decorrelated delay should cover [base, 3 * base]"


@pytest.mark.parametrize("prev", [0.5, 2.0, 7.0])
def test_decorrelated_jitter_grows_from_the_previous_delay(prev):
    """min(cap, uniform(base, 3 * prev)): bounded by base below and 3 * prev above."""
    draws = [decorrelated_jitter(prev, 0.5, 100.0) for _ in range(DRAWS)]
    high = max(0.5, 3 * prev)
    assert all(0.5 <= d <= high for d in draws), f"decorrelated delay after {prev} left [base, 3 * prev]"
    assert statistics.fmean(draws) == pytest.approx((0.5 + high) / 2, rel=0.08), "it should be uniform over the range"


def test_decorrelated_jitter_is_capped():
    """With 3 * prev far above the cap, no draw exceeds the cap and many equal it."""
    draws = [decorrelated_jitter(50.0, 1.0, 10.0) for _ in range(DRAWS)]
    assert max(draws) == 10.0, "decorrelated jitter must be cut at the cap"
    assert all(1.0 <= d <= 10.0 for d in draws), "decorrelated jitter must stay in [base, cap]"
    assert sum(d == 10.0 for d in draws) > DRAWS / 2, "most draws from uniform(1, 150) are above 10 and must be capped"


def test_decorrelated_schedule_stays_within_base_and_cap():
    """A whole decorrelated schedule stays in [base, cap], each delay at most 3x the previous."""
    for _ in range(200):
        schedule = delays("decorrelated", 12, base=0.2, cap=5.0)
        assert all(0.2 <= d <= 5.0 for d in schedule), f"a decorrelated schedule left [base, cap]: {schedule}"
        prev = 0.2
        for d in schedule:
            assert d <= max(0.2, 3 * prev) + 1e-12, f"a delay grew more than 3x its predecessor: {schedule}"
            prev = d


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_next_delay_never_exceeds_the_cap(strategy):
    """Whatever the strategy and retry number, no delay exceeds the cap or goes negative."""
    rng = random.Random()
    for n in range(0, 40):
        d = next_delay(strategy, n, 0.3, 4.0, prev=4.0, rng=rng)
        assert 0.0 <= d <= 4.0, f"{strategy} gave {d} for retry {n}, outside [0, cap]"


def test_an_injected_random_generator_is_used():
    """rng= is the source of randomness: two generators in the same state draw the same schedule."""
    a, b = random.Random(), random.Random()
    b.setstate(a.getstate())
    assert delays("full", 5, rng=a) == delays("full", 5, rng=b), "delays() ignored its rng argument"


@pytest.mark.parametrize(
    "call",
    [
        lambda: exponential_delay(-1),
        lambda: exponential_delay(1, base=0.0),
        lambda: exponential_delay(1, base=2.0, cap=0.0),
        lambda: decorrelated_jitter(None, base=2.0, cap=1.0),
        lambda: next_delay("random", 1),
        lambda: simulate(10, "sometimes"),
        lambda: simulate(10, capacity=0),
        lambda: simulate(10, step=0.0),
        lambda: simulate(10, max_attempts=0),
    ],
)
def test_bad_settings_are_refused(call):
    """Nonsense settings raise ValueError instead of producing nonsense numbers."""
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_vectorised_draws_respect_the_same_bounds(strategy):
    """draw_delays gives one delay per retry number, inside the scalar formula's bounds."""
    n = np.repeat(np.arange(8), 500)
    prev = np.full(n.shape, 1.5)
    d = draw_delays(strategy, n, 0.25, 10.0, prev=prev)
    t = np.minimum(10.0, 0.25 * 2.0**n)
    assert d.shape == n.shape, "draw_delays must return one delay per retry number"
    if strategy == "none":
        assert np.allclose(d, t), "no jitter must be exactly min(cap, base * 2**n)"
    elif strategy == "full":
        assert np.all((d >= 0) & (d <= t)), "full jitter left [0, t]"
        assert d.mean() == pytest.approx(t.mean() / 2, rel=0.08), "full jitter's mean should be about t/2"
    elif strategy == "equal":
        assert np.all((d >= t / 2) & (d <= t)), "equal jitter left [t/2, t]"
    else:
        assert np.all((d >= 0.25) & (d <= 4.5)), "decorrelated jitter left [base, 3 * prev]"
        assert d.min() < 0.4 and d.max() > 4.3, "decorrelated jitter should cover [base, 3 * prev]"


# --- the simulator ------------------------------------------------------------------


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_client_gets_through_and_the_server_never_exceeds_its_capacity(strategy):
    """All clients finish; each step accepts at most `capacity` calls; work >= clients."""
    r = simulate(200, strategy, base=0.1, cap=5.0, capacity=7)
    assert r.successes == 200, "every client should eventually get through"
    assert not np.isnan(r.finish_times).any(), "a client without a limit on attempts never gives up"
    assert (r.successes_per_step <= 7).all(), "the server accepted more calls in a step than its capacity"
    assert (r.successes_per_step <= r.calls_per_step).all(), "a step cannot accept more calls than it received"
    assert r.total_calls == int(r.attempts.sum()) >= 200, "total calls must equal the sum of every client's attempts"
    assert r.rejected_calls == r.total_calls - 200, "rejected calls are the calls that did not get through"
    assert r.completion_time == pytest.approx(np.nanmax(r.finish_times)), "completion is when the last client is done"


def test_no_jitter_makes_every_remaining_client_collide_in_every_round():
    """Without jitter the herd stays a herd: N + (N-C) + (N-2C) + ... calls, in spikes."""
    n, c = 100, 10
    r = simulate(n, "none", base=0.1, cap=10.0, capacity=c, step=0.1)
    rounds = math.ceil(n / c)
    assert r.total_calls == sum(n - k * c for k in range(rounds)), "no-jitter work should be N + (N-C) + ... + C"
    spikes = r.calls_per_step[r.calls_per_step > 0]
    assert list(spikes) == [n - k * c for k in range(rounds)], "each round, every remaining client should call at once"


def test_no_jitter_rounds_are_spaced_by_the_exponential_schedule():
    """Round k+1 starts one step (the failed call) plus min(cap, base * 2**k) after round k."""
    r = simulate(50, "none", base=0.2, cap=1.6, capacity=10, step=0.1)
    starts = r.times[r.calls_per_step > 0]
    gaps = np.diff(starts)
    expected = [0.1 + exponential_delay(k, 0.2, 1.6) for k in range(len(gaps))]
    assert np.allclose(gaps, expected), f"rounds should be spaced step + min(cap, base*2**k): {gaps} vs {expected}"


def test_enough_capacity_means_one_call_each():
    """When the server can take everyone at once, nobody retries."""
    for strategy in STRATEGIES:
        r = simulate(30, strategy, capacity=30)
        assert r.total_calls == 30 and r.completion_time == pytest.approx(r.step), f"{strategy}: nobody should retry"


def test_max_attempts_limits_each_client():
    """With a limit, no client calls more often; those that never got through are counted as gave up."""
    r = simulate(300, "full", base=0.1, cap=1.0, capacity=5, max_attempts=3)
    assert r.attempts.max() <= 3, "a client made more calls than max_attempts"
    gave_up = np.isnan(r.finish_times)
    assert gave_up.any(), "with 300 clients, capacity 5 and 3 attempts, some clients must give up"
    assert (r.attempts[gave_up] == 3).all(), "a client gives up only after its last attempt"
    assert r.successes == int((~gave_up).sum()), "successes must count the clients that got through"


def test_start_window_spreads_the_first_calls():
    """start_window > 0 spreads the first wave instead of one spike at time 0."""
    r = simulate(500, "none", capacity=1000, start_window=5.0)
    first = r.finish_times - r.step
    assert first.min() >= 0 and first.max() < 5.0 + 1e-9, "first calls must fall inside the start window"
    assert r.calls_per_step.max() < 100, "500 calls over 5 s should not land in one step"


def test_a_seed_reproduces_a_run():
    """The same seed gives the same run (for lessons that want stable figures)."""
    a, b = simulate(100, "full", rng=7), simulate(100, "full", rng=7)
    assert np.array_equal(a.calls_per_step, b.calls_per_step), "rng=<seed> should make a run reproducible"


def _mean_over_runs(runs: int = 5, **kwargs) -> dict[str, dict[str, float]]:
    totals: dict[str, list[float]] = {s: [] for s in STRATEGIES}
    waits: dict[str, list[float]] = {s: [] for s in STRATEGIES}
    for _ in range(runs):
        for s, r in compare(**kwargs).items():
            totals[s].append(r.total_calls)
            waits[s].append(r.mean_completion_time)
    return {s: {"calls": statistics.fmean(totals[s]), "wait": statistics.fmean(waits[s])} for s in STRATEGIES}


@pytest.mark.parametrize("clients", [100, 1000])
def test_jitter_more_than_halves_the_calls(clients):
    """FACTS: with many contending clients, every jitter strategy makes under half the calls of none."""
    m = _mean_over_runs(clients=clients, base=0.1, cap=10.0)
    for s in ("full", "equal", "decorrelated"):
        assert m[s]["calls"] < 0.75 * m["none"]["calls"], f"{s} should cut the calls clearly below no jitter: {m}"
    if clients >= 1000:
        for s in ("full", "equal", "decorrelated"):
            assert m[s]["calls"] < 0.5 * m["none"]["calls"], f"{s} should more than halve the calls: {m}"


def test_full_and_equal_jitter_make_about_the_same_calls_but_equal_waits_longer():
    """FACTS: full and equal jitter do about the same work; equal keeps clients waiting longer."""
    m = _mean_over_runs(clients=500, base=0.1, cap=10.0)
    ratio = m["full"]["calls"] / m["equal"]["calls"]
    assert 0.8 < ratio < 1.2, f"full and equal jitter should make about the same calls (ratio {ratio:.2f})"
    assert m["equal"]["wait"] > m["full"]["wait"], f"equal jitter should wait longer on average than full: {m}"


def test_contention_work_grows_faster_than_the_number_of_clients():
    """Doubling the herd more than doubles the work, with or without jitter."""
    small, large = _mean_over_runs(3, clients=250), _mean_over_runs(3, clients=1000)
    for s in STRATEGIES:
        assert large[s]["calls"] > 4 * small[s]["calls"], f"{s}: 4x the clients should cost more than 4x the calls"


def test_a_thousand_clients_all_get_through_under_every_strategy():
    """The herd of lesson 5's widget (1,000 clients, every strategy): each client's call succeeds once and
    every call is counted. How long it takes is a figure of `make bench` (section simulator)."""
    results = compare(1000, base=0.1, cap=10.0)
    assert set(results) == set(STRATEGIES)
    for s, r in results.items():
        assert r.successes == 1000, f"{s}: every client should get through once, {r.successes} did"
        assert r.total_calls == int(r.attempts.sum()) >= 1000, f"{s}: the server's count and the clients' disagree"


def test_calls_per_second_bins_keep_every_call():
    """Re-binning calls into 1 s bins loses no call."""
    r = simulate(300, "equal")
    x, y = r.calls_per_second(1.0)
    assert y.sum() == r.total_calls and len(x) == len(y), "binning must keep the total number of calls"


def test_summary_and_plots_render():
    """The table names every strategy; the plot helpers draw on matplotlib axes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = compare(100)
    table = summary_table(results)
    assert all(s in table for s in STRATEGIES), "the summary table must list every strategy"
    fig, (a, b) = plt.subplots(2)
    assert plot_calls(results, ax=a, until=5) is a
    assert plot_waiting(results, ax=b, highlight="full") is b
    assert len(a.get_lines()) == 5, "one line per strategy plus the capacity line"
    plt.close(fig)


def test_a_cap_below_the_base_is_the_cap_from_the_first_retry():
    """Exercise 5's formula, e = min(max_delay, base_delay * 2**n), holds for any cap: a learner who uses these
    helpers with base_delay=100 and max_delay=30 waits at most 30 s, as the exercise's tests require."""
    assert [exponential_delay(n, base=100.0, cap=30.0) for n in range(3)] == [30.0, 30.0, 30.0]
    assert all(15.0 <= equal_jitter(n, base=100.0, cap=30.0) <= 30.0 for n in range(50))
    assert all(0.0 <= full_jitter(n, base=100.0, cap=30.0) <= 30.0 for n in range(50))
