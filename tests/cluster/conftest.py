"""PostgreSQL for the cluster tests: a throwaway server per test module (skipped without it, failed in CI)."""

from __future__ import annotations

import pytest

from tests.sandbox.probe_assignment import need_postgres, required


@pytest.fixture(scope="module")
def pg():
    """A PostgreSQL server on loopback with an empty gradebook database, stopped and deleted after the module."""
    from tests.cluster.pgserver import PgServer, PgUnavailable

    need_postgres()
    try:
        server = PgServer().start()
    except PgUnavailable as err:
        if required():
            pytest.fail(str(err))
        pytest.skip(str(err))
    yield server
    server.stop()
