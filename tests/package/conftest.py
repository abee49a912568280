"""Fixtures for the toolfaults package tests."""

from __future__ import annotations

import time

import pytest


@pytest.fixture
def no_real_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any real ``time.sleep`` fail the test: injected sleeps must be used instead."""

    def forbidden(seconds: float) -> None:
        raise AssertionError(f"time.sleep({seconds!r}) was called: something really waited")

    monkeypatch.setattr(time, "sleep", forbidden)


@pytest.fixture(autouse=True)
def english_after_each_test():
    """A test that switches toolfaults to Spanish cannot leave the next test in Spanish."""
    from toolfaults.language import use_language

    yield
    use_language("en")
