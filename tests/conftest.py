"""Shared test settings: everything offline, nothing waits."""

import functools
import os
from pathlib import Path

import pytest

from autograder.process import prepare
from coursetools.testlanes import FAIRNESS, FAIRNESS_PARTS, in_lane, lanes, marking_lanes

# As the grader's entry points do (autograder/process.py), before any test imports nbformat: jsonschema's slow
# start skipped (toolfaults/startup.py), the venv's tools on PATH, the gradebook's warnings quiet.
prepare()

# Never use a real model in tests, even if the developer has a key set.
os.environ["TOOLFAULTS_MODE"] = "offline"

# Shorter limits than the course's for grading the sample class, so that its endless
# loops cost seconds, not minutes (every run compared with it uses the same).
SAMPLE_CLASS_LIMITS = ["--timeout", "4", "--notebook-timeout", "12"]

# pytest-timeout: the global limit (pyproject.toml) is for a test; a test marked `slow` or
# `e2e` may pay for a whole grading run or a browser session in its fixtures, so it gets
# this one, unless it names its own with @pytest.mark.timeout.
SLOW_TIMEOUT = 1200


# `make test` runs jobs one per core at a time (coursetools/testlanes.py): one per lane of tests/lanes.txt, the fairness
# proofs' two parts, each other Python's. Where each lane's tests live is tests/lanes.txt, read there and here:
# each test of a lane is marked with the lane's name (what its job selects; the main lane runs what no other lane
# marks). The fairness proofs are two jobs, each every other entry of the catalogues (the same entries in both
# editions), marked `fairness_1` or `fairness_2` (:func:`fairness_parts`).
MARKING_LANES = marking_lanes(lanes())


def pytest_configure(config):
    for lane in MARKING_LANES:
        config.addinivalue_line("markers", f"{lane}: a test of `make test`'s {lane} lane (tests/lanes.txt)")
    for part in FAIRNESS_PARTS:
        config.addinivalue_line("markers", f"{FAIRNESS}_{part}: the fairness proofs' job {part} of "
                                           f"{len(FAIRNESS_PARTS)} (tests/conftest.py: fairness_parts)")


@functools.lru_cache
def _entries(assignment: str) -> list[str]:
    from coursetools.fairness import catalogue

    return ["solution", "stub", *(v.name for v in catalogue(assignment))]


def fairness_parts(item) -> set[int]:
    """The fairness proofs' jobs that run ``item``: a verdict test, the one of its entry (every other one in
    the catalogue's order); a test that reads every verdict of an assignment, both (each checks the verdicts
    its job graded); any other test, the first."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "verdicts" not in getattr(item, "fixturenames", ()):
        return {1}
    if "name" not in params:
        return {1, 2}
    return {_entries(params["assignment"]).index(params["name"]) % 2 + 1}


@pytest.hookimpl(tryfirst=True)  # before `-m` selects, and before tests/e2e/conftest.py reads `e2e`
def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        folder = Path(item.path).relative_to(here).parts[0] if here in Path(item.path).parents else ""
        for lane, paths in MARKING_LANES.items():
            if in_lane(item.path, paths):
                item.add_marker(getattr(pytest.mark, lane))
        if item.get_closest_marker(FAIRNESS):
            for part in fairness_parts(item):
                item.add_marker(getattr(pytest.mark, f"{FAIRNESS}_{part}"))
        if folder == "e2e":
            item.add_marker(pytest.mark.e2e)
        if item.get_closest_marker("timeout") is None and (
                item.get_closest_marker("slow") or item.get_closest_marker("e2e")):
            item.add_marker(pytest.mark.timeout(SLOW_TIMEOUT))


@pytest.fixture(scope="session")
def sample_class_graded(tmp_path_factory):
    """The sample class (classes/sample/submitted) graded once, as `make grade` grades it by default.

    The grade command's default path: a Dask LocalCluster (one worker per core and one more), the
    SQLite gradebook, sandboxed kernels when the sandbox can run here. Returns the
    output folder, the results by (student, assignment), the rows of grades.csv as
    they were right after the run (later tests may regrade into the same folder) and
    the time limits used (runs compared with it use the same).
    """
    import csv
    import json

    from autograder import grade
    from autograder.sandbox import sandbox_available

    out = tmp_path_factory.mktemp("grade")
    args = ["--out", str(out), *SAMPLE_CLASS_LIMITS]
    if not sandbox_available():
        args.append("--unsandboxed")
    assert grade.main(args) == 0
    results = json.loads((out / "reports" / "results.json").read_text())
    with (out / "grades.csv").open(newline="") as fh:
        rows = list(csv.DictReader(fh))
    return {"out": out, "results": {(r["student"], r["assignment"]): r for r in results}, "grades": rows,
            "args": args, "limits": list(SAMPLE_CLASS_LIMITS)}


@pytest.fixture(scope="session")
def pg():
    """A throwaway PostgreSQL server on loopback (tests/cluster/pgserver.py), with an empty gradebook database;
    stopped and deleted after the session. One server for every module that needs one (starting one costs
    seconds): a test grades into a database of its own (``pg.create_database``). Skipped where PostgreSQL is
    missing, failed where it is required (CI)."""
    from tests.cluster.pgserver import PgServer, PgUnavailable
    from tests.sandbox.probe_assignment import need_postgres, required

    need_postgres()
    try:
        server = PgServer().start()
    except PgUnavailable as err:
        if required():
            pytest.fail(str(err))
        pytest.skip(str(err))
    yield server
    server.stop()
