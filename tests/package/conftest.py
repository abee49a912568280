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
