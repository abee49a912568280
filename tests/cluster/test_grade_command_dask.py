"""`make grade` on Dask with a PostgreSQL gradebook gives the grades of the default path.

Runs the grade command itself twice on one assignment of the sample class shipped in
the repo: once as `make grade` does by default (worker processes, SQLite gradebook),
once with ``--dask`` (a LocalCluster) and ``--db`` (a throwaway PostgreSQL server on
loopback). Every student's score and status must be the same.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.course import AUTOGRADER, ROOT
from tests.sandbox.probe_assignment import required

pytestmark = pytest.mark.slow

ASSIGNMENT = "05_fallback_and_degradation"


def _grade(out: Path, *extra: str) -> dict[str, tuple[str, str, str]]:
    cmd = [sys.executable, "-m", "autograder.grade", "--assignment", ASSIGNMENT, "--out", str(out),
           "--notebook-timeout", "60", *extra]
    from autograder.sandbox import sandbox_available

    if not sandbox_available():
        if required():
            pytest.fail("the sandbox is required in CI")
        cmd.append("--unsandboxed")
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, f"grade command failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    with open(out / "grades.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return {r["student"]: (r["score"], r["max_score"], r["status"]) for r in rows if r["assignment"] == ASSIGNMENT}


def test_dask_and_postgresql_grade_like_the_default(tmp_path):
    """Dask (LocalCluster, 2 workers) + PostgreSQL: the same score and status for every student."""
    from autograder.pgserver import PgServer, PgUnavailable

    students = sorted(p.parent.name for p in (AUTOGRADER / "submitted").glob(f"*/{ASSIGNMENT}"))
    assert len(students) >= 10, "the sample class should have at least 10 submissions of this assignment"
    default = _grade(tmp_path / "default")
    try:
        pg = PgServer().start()
    except PgUnavailable as err:
        if required():
            pytest.fail(str(err))
        pytest.skip(str(err))
    try:
        on_dask = _grade(tmp_path / "dask", "--dask", "--workers", "2", "--db", pg.url)
    finally:
        pg.stop()
    assert set(default) == set(students), f"the default run graded {sorted(default)}, expected {students}"
    differ = {s: (default[s], on_dask.get(s)) for s in students if default[s] != on_dask.get(s)}
    assert not differ, f"Dask + PostgreSQL graded differently (default, dask): {differ}"
    assert any(float(score) == float(top) for score, top, _ in default.values()), "nobody got full marks?"
    assert any(float(score) < float(top) for score, top, _ in default.values()), "nobody lost points?"
