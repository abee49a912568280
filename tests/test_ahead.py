"""tests/ahead.py: each case gets its own result or error, and the cases run at the same time."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from tests.ahead import Ahead


def _item(name: str, params: dict, skipped: bool = False) -> SimpleNamespace:
    """A collected test as Ahead reads it: its name, its parameters, and a `skip` mark or none."""
    return SimpleNamespace(originalname=name, callspec=SimpleNamespace(params=params),
                           get_closest_marker=lambda mark: object() if skipped and mark == "skip" else None)


def _session(name: str, cases: list[dict], skipped: tuple[dict, ...] = ()) -> SimpleNamespace:
    items = [_item(name, p) for p in cases] + [_item(name, p, skipped=True) for p in skipped]
    items.append(_item("another_test", {"n": 99}))
    return SimpleNamespace(items=items)


def test_every_selected_case_runs_at_the_first_request_and_each_test_gets_its_own(monkeypatch):
    monkeypatch.setattr("tests.ahead.workers", lambda: 2)  # as on any machine with two cores or more
    ran: list[int] = []
    both_running = threading.Barrier(2, timeout=10)  # broken unless two cases run at once

    def compute(n: int) -> int:
        ran.append(n)
        if n in (1, 2):
            both_running.wait()
        if n == 3:
            raise ValueError("case 3 is wrong")
        return n * 10

    get = Ahead(compute, ("n",)).bind(_session("test_x", [{"n": 1}, {"n": 2}, {"n": 3}]), "test_x")
    assert get(n=2) == 20
    assert sorted(ran) == [1, 2, 3], "every selected case of test_x ran, and only those"
    assert get(n=1) == 10
    with pytest.raises(ValueError, match="case 3 is wrong"):
        get(n=3)
    assert sorted(ran) == [1, 2, 3], "nothing ran twice"
    assert get(n=4) == 40, "a case that was not selected still runs when asked for"


def test_a_case_marked_skip_is_not_run_ahead():
    """A skipped case (a lesson the browser tests run instead) costs nothing: only the others run."""
    ran: list[int] = []
    get = Ahead(lambda n: ran.append(n) or n, ("n",)).bind(_session("test_x", [{"n": 1}], skipped=({"n": 2},)),
                                                           "test_x")
    assert get(n=1) == 1
    assert ran == [1]
