"""Backoff schedules with and without jitter, and a simulator of the thundering herd.

The four strategies of Marc Brooker's "Exponential Backoff and Jitter" (AWS
Architecture Blog), for retry ``n`` (``n = 0`` is the first retry), a base delay
``base`` and a ceiling ``cap``:

=============  ==============================================  ===================
strategy       delay before retry ``n``                        range
=============  ==============================================  ===================
``none``       ``t = min(cap, base * 2**n)``                   exactly ``t``
``full``       ``uniform(0, t)``                               ``[0, t]``
``equal``      ``t/2 + uniform(0, t/2)``                       ``[t/2, t]``
``decorrelated`` ``min(cap, uniform(base, prev * 3))``         ``[base, cap]``
=============  ==============================================  ===================

``prev`` is the previous delay of the same client (``base`` before the first
retry). Single draws::

    >>> exponential_delay(3, base=1.0, cap=5.0)
    5.0
    >>> 0.0 <= next_delay("full", 2, base=1.0, cap=30.0) <= 4.0
    True

:func:`simulate` runs ``clients`` clients that all call a server at the same
moment (the thundering herd after an outage). The server takes at most
``capacity`` calls per time step of ``step`` seconds; the others are rejected
and those clients back off with the chosen strategy, until every client has got
through. Time is simulated (nothing waits) and the work is vectorised with
numpy, so 1,000 clients take a few milliseconds::

    >>> result = simulate(clients=200, strategy="full", base=0.1, cap=10.0)
    >>> result.successes == 200 and result.total_calls >= 200
    True

:func:`compare` runs every strategy on the same settings, and
:func:`plot_calls` draws their calls over time with matplotlib.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .language import current_language, say

__all__ = [
    "STRATEGIES",
    "Strategy",
    "exponential_delay",
    "full_jitter",
    "equal_jitter",
    "decorrelated_jitter",
    "next_delay",
    "delays",
    "draw_delays",
    "SimulationResult",
    "simulate",
    "compare",
    "summary_table",
    "plot_calls",
    "plot_waiting",
    "COLORS",
]

Strategy = Literal["none", "full", "equal", "decorrelated"]
STRATEGIES: tuple[str, ...] = ("none", "full", "equal", "decorrelated")
#: One colour per strategy, the same in every figure.
COLORS: dict[str, str] = {"none": "tab:red", "full": "tab:blue", "equal": "tab:green", "decorrelated": "tab:purple"}

# 2**64 times any sensible base is far above any sensible cap; limiting the
# exponent keeps huge retry counts from overflowing a float.
_MAX_EXPONENT = 64


def _check(base: float, cap: float) -> None:
    """A cap below the base is allowed: ``min(cap, base * 2**n)`` is then the cap from the first retry on,
    as exercise 5's contract says (``base_delay=100, max_delay=30`` waits up to 30 s)."""
    if not (base > 0 and math.isfinite(base)):
        raise ValueError(f"base must be a positive number of seconds, got {base!r}")
    if not (cap > 0 and math.isfinite(cap)):
        raise ValueError(f"cap must be a positive, finite number of seconds, got {cap!r}")


def _check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}: choose one of {', '.join(STRATEGIES)}")


def exponential_delay(n: int, base: float = 1.0, cap: float = 30.0) -> float:
    """No jitter: ``min(cap, base * 2**n)`` seconds before retry ``n`` (``n >= 0``)."""
    if n < 0:
        raise ValueError(f"the retry number n starts at 0, got {n!r}")
    _check(base, cap)
    return float(min(cap, base * 2.0 ** min(n, _MAX_EXPONENT)))


def full_jitter(n: int, base: float = 1.0, cap: float = 30.0, *, rng: random.Random | None = None) -> float:
    """Full jitter: ``uniform(0, min(cap, base * 2**n))``."""
    t = exponential_delay(n, base, cap)
    return (rng or random).uniform(0.0, t)


def equal_jitter(n: int, base: float = 1.0, cap: float = 30.0, *, rng: random.Random | None = None) -> float:
    """Equal jitter: half the exponential delay for sure, the other half at random.

    ``t/2 + uniform(0, t/2)`` with ``t = min(cap, base * 2**n)``: always in ``[t/2, t]``.
    """
    t = exponential_delay(n, base, cap)
    return t / 2 + (rng or random).uniform(0.0, t / 2)


def decorrelated_jitter(
    prev: float | None, base: float = 1.0, cap: float = 30.0, *, rng: random.Random | None = None
) -> float:
    """Decorrelated jitter: ``min(cap, uniform(base, prev * 3))``.

    ``prev`` is the delay this client waited last time (``None`` or ``base`` for
    the first retry). The result is always in ``[base, cap]``.
    """
    _check(base, cap)
    if cap < base:
        raise ValueError(f"decorrelated jitter draws from [base, cap]: cap must be >= base ({base!r}), got {cap!r}")
    prev = base if prev is None else float(prev)
    if prev < 0:
        raise ValueError(f"prev must be a non-negative delay, got {prev!r}")
    high = max(base, prev * 3)
    return min(cap, (rng or random).uniform(base, high))


def next_delay(
    strategy: str,
    n: int,
    base: float = 1.0,
    cap: float = 30.0,
    *,
    prev: float | None = None,
    rng: random.Random | None = None,
) -> float:
    """The delay before retry ``n`` with ``strategy`` (``prev`` is used by ``decorrelated`` only)."""
    _check_strategy(strategy)
    if strategy == "none":
        return exponential_delay(n, base, cap)
    if strategy == "full":
        return full_jitter(n, base, cap, rng=rng)
    if strategy == "equal":
        return equal_jitter(n, base, cap, rng=rng)
    return decorrelated_jitter(prev, base, cap, rng=rng)


def delays(
    strategy: str, retries: int, base: float = 1.0, cap: float = 30.0, *, rng: random.Random | None = None
) -> list[float]:
    """One client's schedule: the delays before retries ``0 .. retries-1``.

    >>> delays("none", 6, base=0.5, cap=8.0)
    [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    """
    out: list[float] = []
    prev: float | None = None
    for n in range(retries):
        prev = next_delay(strategy, n, base, cap, prev=prev, rng=rng)
        out.append(prev)
    return out


def draw_delays(
    strategy: str,
    n: np.ndarray,
    base: float = 1.0,
    cap: float = 30.0,
    *,
    prev: np.ndarray | None = None,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """Vectorised :func:`next_delay`: one delay per entry of the retry numbers ``n``.

    ``prev`` (same shape as ``n``) holds each client's previous delay for
    ``decorrelated``; it defaults to ``base`` everywhere.
    """
    _check_strategy(strategy)
    _check(base, cap)
    rng = rng if rng is not None else np.random.default_rng()
    n = np.asarray(n)
    t = np.minimum(cap, base * np.exp2(np.minimum(n, _MAX_EXPONENT)))
    if strategy == "none":
        return t.astype(float)
    if strategy == "full":
        return rng.uniform(0.0, 1.0, size=t.shape) * t
    if strategy == "equal":
        return t / 2 + rng.uniform(0.0, 1.0, size=t.shape) * (t / 2)
    prev_arr = np.full(t.shape, base, dtype=float) if prev is None else np.asarray(prev, dtype=float)
    high = np.maximum(base, prev_arr * 3)
    return np.minimum(cap, base + rng.uniform(0.0, 1.0, size=t.shape) * (high - base))


@dataclass
class SimulationResult:
    """What one simulated thundering herd did.

    Attributes:
        strategy, clients, base, cap, capacity, step: the settings.
        calls_per_step: calls the server received in each time step (index ``k``
            covers ``[k * step, (k + 1) * step)``).
        successes_per_step: calls it accepted in each step.
        finish_times: for each client, the end of the step its call got through
            (``nan`` if it gave up).
        attempts: calls made by each client.
    """

    strategy: str
    clients: int
    base: float
    cap: float
    capacity: int
    step: float
    calls_per_step: np.ndarray = field(repr=False)
    successes_per_step: np.ndarray = field(repr=False)
    finish_times: np.ndarray = field(repr=False)
    attempts: np.ndarray = field(repr=False)

    @property
    def total_calls(self) -> int:
        """The work: every call the clients made, rejected ones included."""
        return int(self.calls_per_step.sum())

    @property
    def rejected_calls(self) -> int:
        """Calls the server turned away (wasted work)."""
        return self.total_calls - self.successes

    @property
    def successes(self) -> int:
        """Clients that got through."""
        return int(self.successes_per_step.sum())

    @property
    def completion_time(self) -> float:
        """Seconds until the last client got through (all of them, when none gives up)."""
        done = self.finish_times[~np.isnan(self.finish_times)]
        return float(done.max()) if done.size else 0.0

    @property
    def mean_completion_time(self) -> float:
        """Average seconds a client waited to get through."""
        done = self.finish_times[~np.isnan(self.finish_times)]
        return float(done.mean()) if done.size else 0.0

    @property
    def calls_per_client(self) -> float:
        """Average calls per client (1.0 would be no wasted work)."""
        return self.total_calls / self.clients if self.clients else 0.0

    @property
    def times(self) -> np.ndarray:
        """Start of each time step, in seconds (the x axis of :attr:`calls_per_step`)."""
        return np.arange(len(self.calls_per_step)) * self.step

    def calls_per_second(self, width: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """Calls summed into bins of ``width`` seconds: ``(bin starts, calls per bin)``."""
        per_bin = max(1, int(round(width / self.step)))
        counts = self.calls_per_step
        pad = (-len(counts)) % per_bin
        binned = np.pad(counts, (0, pad)).reshape(-1, per_bin).sum(axis=1)
        return np.arange(len(binned)) * per_bin * self.step, binned

    def summary(self) -> str:
        """One line: the strategy, its total calls and its completion time."""
        return say(
            f"{self.strategy:>12}: {self.total_calls:6d} calls "
            f"({self.calls_per_client:4.1f} per client), all done after {self.completion_time:7.1f} s",
            f"{self.strategy:>12}: {self.total_calls:6d} llamadas "
            f"({self.calls_per_client:4.1f} por cliente), todos terminan a los {self.completion_time:7.1f} s",
        )


def simulate(
    clients: int = 100,
    strategy: str = "full",
    base: float = 0.1,
    cap: float = 10.0,
    *,
    capacity: int = 10,
    step: float = 0.1,
    max_attempts: int | None = None,
    start_window: float = 0.0,
    rng: np.random.Generator | int | None = None,
) -> SimulationResult:
    """Simulate ``clients`` clients retrying against a server with limited capacity.

    Every client wants one call to succeed. All of them first call within
    ``start_window`` seconds of time 0 (``0`` is the worst case: all at once). In
    each time step of ``step`` seconds the server accepts at most ``capacity``
    calls, chosen at random among those that arrived in that step, and rejects
    the others (a 429 or 503). A rejected client learns it at the end of the
    step and sleeps ``next_delay(strategy, n, base, cap)`` before retry ``n``.

    Args:
        clients: how many clients call at once.
        strategy: ``"none"``, ``"full"``, ``"equal"`` or ``"decorrelated"``.
        base, cap: the backoff's base delay and ceiling, in seconds.
        capacity: calls the server accepts per time step.
        step: the length of a time step, in seconds.
        max_attempts: a client gives up after this many calls (``None``: never).
        start_window: first calls spread uniformly over ``[0, start_window)``.
        rng: a numpy ``Generator`` or a seed (``None``: fresh randomness).

    Returns:
        A :class:`SimulationResult`. Time is simulated: nothing waits.
    """
    _check_strategy(strategy)
    _check(base, cap)
    if clients < 0:
        raise ValueError(f"clients must be >= 0, got {clients!r}")
    if capacity < 1:
        raise ValueError(f"capacity must be at least one call per step, got {capacity!r}")
    if not step > 0:
        raise ValueError(f"step must be positive, got {step!r}")
    if max_attempts is not None and max_attempts < 1:
        raise ValueError(f"max_attempts must be at least 1, got {max_attempts!r}")
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)

    # Per pending client: the step of its next call, calls made so far, last delay.
    ids = np.arange(clients)
    if start_window > 0:
        next_step = np.floor(gen.uniform(0.0, start_window, size=clients) / step).astype(np.int64)
    else:
        next_step = np.zeros(clients, dtype=np.int64)
    made = np.zeros(clients, dtype=np.int64)
    prev = np.full(clients, base, dtype=float)

    finish = np.full(clients, np.nan)
    attempts = np.zeros(clients, dtype=np.int64)
    call_steps: list[np.ndarray] = []
    ok_steps: list[int] = []
    ok_counts: list[int] = []

    while ids.size:
        now = int(next_step.min())
        calling = np.flatnonzero(next_step == now)
        call_steps.append(np.full(calling.size, now, dtype=np.int64))
        made[calling] += 1
        if calling.size <= capacity:
            winners = calling
        else:
            winners = gen.choice(calling, size=capacity, replace=False)
        ok_steps.append(now)
        ok_counts.append(int(winners.size))

        failed = np.ones(ids.size, dtype=bool)
        failed[winners] = False
        failed_calling = calling[failed[calling]]

        # Winners are done.
        finish[ids[winners]] = (now + 1) * step
        attempts[ids[winners]] = made[winners]

        # Losers back off: retry number n = calls made - 1 (n = 0 is the first retry).
        if failed_calling.size:
            retry_n = made[failed_calling] - 1
            wait = draw_delays(strategy, retry_n, base, cap, prev=prev[failed_calling], rng=gen)
            prev[failed_calling] = wait
            # The failure is known at the end of the step; the retry lands after the wait.
            next_step[failed_calling] = np.floor(((now + 1) * step + wait) / step + 1e-9).astype(np.int64)

        keep = np.ones(ids.size, dtype=bool)
        keep[winners] = False
        if max_attempts is not None:
            gave_up = failed_calling[made[failed_calling] >= max_attempts]
            attempts[ids[gave_up]] = made[gave_up]
            keep[gave_up] = False
        ids, next_step, made, prev = ids[keep], next_step[keep], made[keep], prev[keep]

    all_steps = np.concatenate(call_steps) if call_steps else np.zeros(0, dtype=np.int64)
    length = int(all_steps.max()) + 1 if all_steps.size else 0
    calls = np.bincount(all_steps, minlength=length)
    successes = np.zeros(length, dtype=np.int64)
    if ok_steps:
        np.add.at(successes, np.asarray(ok_steps), np.asarray(ok_counts))
    return SimulationResult(
        strategy=strategy,
        clients=clients,
        base=float(base),
        cap=float(cap),
        capacity=int(capacity),
        step=float(step),
        calls_per_step=calls,
        successes_per_step=successes,
        finish_times=finish,
        attempts=attempts,
    )


def compare(
    clients: int = 100,
    base: float = 0.1,
    cap: float = 10.0,
    *,
    strategies: Iterable[str] = STRATEGIES,
    **kwargs: Any,
) -> dict[str, SimulationResult]:
    """:func:`simulate` every strategy on the same settings: ``{strategy: result}``."""
    return {s: simulate(clients, s, base, cap, **kwargs) for s in strategies}


def summary_table(results: dict[str, SimulationResult] | Sequence[SimulationResult]) -> str:
    """A plain-text table: calls, calls per client, completion time per strategy."""
    rows = list(results.values()) if isinstance(results, dict) else list(results)
    lines = [say(f"{'strategy':<13} {'total calls':>11} {'per client':>10} {'all done (s)':>12} {'mean wait (s)':>13}",
                 f"{'estrategia':<13} {'llamadas':>11} {'por cliente':>11} {'fin (s)':>11} {'espera media (s)':>16}")]
    if current_language() == "es":  # the Spanish header's columns are wider: the rows follow them
        for r in rows:
            lines.append(f"{r.strategy:<13} {r.total_calls:>11d} {r.calls_per_client:>11.1f} "
                         f"{r.completion_time:>11.1f} {r.mean_completion_time:>16.1f}")
        return "\n".join(lines)
    for r in rows:
        lines.append(
            f"{r.strategy:<13} {r.total_calls:>11d} {r.calls_per_client:>10.1f} "
            f"{r.completion_time:>12.1f} {r.mean_completion_time:>13.1f}"
        )
    return "\n".join(lines)


def plot_calls(
    results: dict[str, SimulationResult] | Sequence[SimulationResult],
    *,
    ax: Any = None,
    width: float | None = None,
    until: float | None = None,
    title: str | None = None,
) -> Any:
    """Draw calls per ``width`` seconds (default: one time step) over time, one line per result.

    The server's capacity over the same bin is drawn as a dashed line; ``until``
    limits the time axis. Returns the matplotlib axes.
    """
    import matplotlib.pyplot as plt  # imported here: the simulator itself needs only numpy

    rows = list(results.values()) if isinstance(results, dict) else list(results)
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3.5))
    width = width if width is not None else (rows[0].step if rows else 1.0)
    for r in rows:
        x, y = r.calls_per_second(width)
        ax.step(x, y, where="post", label=say(f"{r.strategy}: {r.total_calls} calls", f"{r.strategy}: {r.total_calls} llamadas"), color=COLORS.get(r.strategy))
    if rows:
        per_bin = max(1, int(round(width / rows[0].step))) * rows[0].capacity
        ax.axhline(per_bin, color="black", linestyle="--", linewidth=1, label=say(f"server capacity ({per_bin})",
                                                                               f"capacidad del servidor ({per_bin})"))
    ax.set_xlabel(say("time (s)", "tiempo (s)"))
    ax.set_ylabel(say(f"calls per {width:g} s", f"llamadas cada {width:g} s"))
    if until is not None:
        ax.set_xlim(0, until)
    ax.legend(loc="upper right", fontsize="small")
    if title:
        ax.set_title(title)
    return ax


def plot_waiting(
    results: dict[str, SimulationResult] | Sequence[SimulationResult],
    *,
    ax: Any = None,
    highlight: str | None = None,
    title: str | None = None,
) -> Any:
    """Draw how many clients are still waiting over time (log time axis), one line per result."""
    import matplotlib.pyplot as plt

    rows = list(results.values()) if isinstance(results, dict) else list(results)
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3.5))
    for r in rows:
        done = np.sort(r.finish_times[~np.isnan(r.finish_times)])
        x = np.concatenate([[r.step / 2], done])
        y = r.clients - np.arange(len(x))
        bold = highlight is None or r.strategy == highlight
        ax.step(x, y, where="post", label=say(f"{r.strategy}: all done at {r.completion_time:.1f} s",
                                                         f"{r.strategy}: todos terminan a los {r.completion_time:.1f} s"),
                color=COLORS.get(r.strategy), linewidth=2.5 if bold else 1.0, alpha=1.0 if bold else 0.6)
    ax.set_xscale("log")
    ax.set_xlabel(say("time (s, log scale)", "tiempo (s, escala logarítmica)"))
    ax.set_ylabel(say("clients still waiting", "clientes que aún esperan"))
    ax.legend(loc="upper right", fontsize="small")
    if title:
        ax.set_title(title)
    return ax
