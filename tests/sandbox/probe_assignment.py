"""Shared by the sandbox and cluster tests: the probe assignment and the sandbox's availability.

Imported as ``tests.sandbox.probe_assignment`` (the repo root is on pytest's pythonpath)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SOURCE = FIXTURES / "source"  # one assignment, "probe": answer() -> 42 (1 pt), double(x) (2 pts)
ASSIGNMENT = "probe"

GOOD = "def answer():\n    return 42\n\n\ndef double(x):\n    return 2 * x\n"


def required() -> bool:
    """In CI a missing sandbox (or PostgreSQL) is a failure, not a skip."""
    return bool(os.environ.get("CI") or os.environ.get("AUTOGRADER_REQUIRE_SANDBOX"))


def sandboxed() -> bool:
    """Whether the sandbox runs here, for a test that grades sandboxed where it can and unsandboxed
    elsewhere; in CI, where it is required, a missing sandbox fails the test."""
    from autograder.sandbox import sandbox_available

    if sandbox_available():
        return True
    if required():
        pytest.fail("the sandbox is required in CI")
    return False


def need_sandbox() -> None:
    from autograder.sandbox import SandboxUnavailable, check_sandbox

    try:
        check_sandbox()
    except SandboxUnavailable as err:
        if required():
            pytest.fail(str(err))
        pytest.skip(str(err))


def need_postgres() -> None:
    """Skip, saying why, when PostgreSQL's programs are missing here (in CI: fail)."""
    from tests.cluster.pgserver import PgUnavailable, find_bindir

    try:
        find_bindir()
    except PgUnavailable as err:
        if required():
            pytest.fail(str(err))
        pytest.skip(str(err))


@pytest.fixture(scope="session")
def sandbox_ready() -> None:
    need_sandbox()
