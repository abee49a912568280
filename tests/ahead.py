"""Run a slow test's cases ahead, several at a time, and hand each test its own result.

A test that runs one notebook in a kernel keeps one core busy; the machine has more.
:class:`Ahead` finds every selected case of one test function, computes all of them at
the first request, ``workers`` at a time (threads: the work is in the kernels they start),
and gives each test the result of its own case, or raises the error its case raised. The
assertions stay in the tests, one per case, as before::

    rows = Ahead(run_case)            # run_case(**params) -> result, params as the test's

    @pytest.fixture(scope="session")
    def results(request):
        return rows.bind(request.session, "test_name")

    def test_name(results, path, edition):
        row = results(path=path, edition=edition)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any


def workers() -> int:
    """One case per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class Ahead:
    """The results of one test function's cases, computed together (see the module)."""

    def __init__(self, compute: Callable[..., Any], keys: tuple[str, ...]) -> None:
        self.compute = compute
        self.keys = keys  # the test parameters that name a case (and are compute's arguments)
        self.done: dict[tuple, tuple[bool, Any]] = {}
        self.wanted: list[tuple] = []

    def bind(self, session: Any, test_name: str) -> Callable[..., Any]:
        """The function a test calls for its case's result; every selected case of ``test_name`` (but those marked
        ``skip``) is run at its first call."""
        self.wanted = [tuple(item.callspec.params[k] for k in self.keys) for item in session.items
                       if getattr(item, "originalname", "") == test_name and hasattr(item, "callspec")
                       and item.get_closest_marker("skip") is None]
        return self.get

    def _run(self, case: tuple) -> tuple[bool, Any]:
        try:
            return True, self.compute(**dict(zip(self.keys, case)))
        except Exception as err:  # noqa: BLE001 - raised again in the test of this case
            return False, err

    def get(self, **params: Any) -> Any:
        case = tuple(params[k] for k in self.keys)
        if case not in self.done:
            todo = list(dict.fromkeys([case, *(c for c in self.wanted if c not in self.done)]))
            with ThreadPoolExecutor(max_workers=min(workers(), len(todo))) as pool:
                self.done.update(zip(todo, pool.map(self._run, todo)))
        ok, value = self.done[case]
        if not ok:
            raise value
        return value
