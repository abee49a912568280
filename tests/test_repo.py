"""Repository-level checks: pins agree, notebooks are clean, exercises are not stale."""

from __future__ import annotations

import re

import pytest

from autograder import notebooks, release
from autograder.course import ROOT

PIN = re.compile(r"^\s*-?\s*([A-Za-z0-9_.\-\[\]]+)\s*==\s*([^\s#]+)")


def _pins(lines: list[str]) -> dict[str, str]:
    found = {}
    for line in lines:
        m = PIN.match(line.split("#", 1)[0])
        if m:
            found[m.group(1).lower()] = m.group(2)
    return found


def test_environment_yml_matches_requirements():
    """Binder's environment.yml installs exactly the pins of requirements.txt."""
    req = _pins((ROOT / "requirements.txt").read_text().splitlines())
    env_text = (ROOT / "environment.yml").read_text()
    env = _pins(env_text.split("- pip:", 1)[1].splitlines())
    assert req, "requirements.txt has no pins"
    assert env == req, (
        "environment.yml (Binder) and requirements.txt disagree: "
        f"only in requirements.txt {sorted(set(req.items()) - set(env.items()))}, "
        f"only in environment.yml {sorted(set(env.items()) - set(req.items()))}"
    )
    py = re.search(r"python\s*=\s*3\.(\d+)", env_text)
    assert py and int(py.group(1)) >= 11, "environment.yml must pin Python 3.11 or newer (nbgrader 0.9.6 needs it)"


def test_lock_agrees_with_requirements():
    """constraints.txt (the full lock) holds every direct pin at the same version."""
    req = _pins((ROOT / "requirements.txt").read_text().splitlines())
    lock = _pins((ROOT / "constraints.txt").read_text().splitlines())
    wrong = {name: (v, lock.get(name)) for name, v in req.items() if lock.get(name) != v}
    assert not wrong, f"constraints.txt disagrees with requirements.txt (pin, lock): {wrong}"


def test_committed_notebooks_are_clean():
    """No notebook carries outputs, execution counts or widget state."""
    dirty = {str(p.relative_to(ROOT)): notebooks.problems(__import__("nbformat").read(p, as_version=4))
             for p in notebooks.tracked_notebooks()}
    dirty = {k: v for k, v in dirty.items() if v}
    assert not dirty, f"Dirty notebooks (run `make clean-notebooks`): {dirty}"


def test_clean_keeps_nbgrader_metadata():
    """Cleaning strips outputs but keeps nbgrader's cell metadata."""
    import nbformat

    cell = nbformat.v4.new_code_cell("x = 1", execution_count=3, outputs=[nbformat.v4.new_output("stream", text="1")])
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "t1", "points": 2, "solution": False, "locked": True}
    cell.metadata["execution"] = {"iopub.status.busy": "2026-01-01"}
    nb = nbformat.v4.new_notebook(cells=[cell])
    assert notebooks.problems(nb), "a notebook with outputs must be reported dirty"
    cleaned = notebooks.clean(nb)
    assert not notebooks.problems(cleaned)
    assert cleaned.cells[0].metadata["nbgrader"]["grade_id"] == "t1"
    assert cleaned.cells[0].outputs == [] and cleaned.cells[0].execution_count is None


@pytest.mark.slow
def test_exercises_are_generated_from_solutions():
    """exercises/ is exactly what `make exercises` generates from solutions/."""
    if not any((ROOT / "solutions").glob("*/*.ipynb")):
        pytest.skip("no solutions yet")
    stale = release.stale_files()
    assert not stale, "exercises/ is stale; run `make exercises` and commit:\n" + "\n".join(stale)



def test_every_test_has_a_time_limit(request):
    """pytest-timeout is active: 120 s for a test (pyproject.toml), 1200 s for one marked slow (tests/conftest.py)."""
    assert request.config.pluginmanager.hasplugin("timeout"), "pytest-timeout is not installed (`make setup`)"
    assert float(request.config.getini("timeout")) == 120
    assert request.node.get_closest_marker("timeout") is None, "an unmarked test runs under the global limit"
    slow = [i for i in request.session.items if i.get_closest_marker("slow")]
    assert all(i.get_closest_marker("timeout").args[0] >= 1200 for i in slow), "a slow test got no longer limit"


def test_the_makefile_and_conftest_read_the_same_lanes(tmp_path):
    """tests/lanes.txt is the one list of where each lane's tests live: the Makefile's SIDE_TESTS and FAIRNESS_TESTS
    (what each lane collects) are what tests/conftest.py reads from it (what it marks `side` and `fairness`), and
    each path is there: a folder the Makefile and the markers disagreed on would have its tests run by no lane."""
    import subprocess

    from tests.conftest import FAIRNESS_PROOFS, SIDE_LANE

    probe = tmp_path / "lanes.mk"
    probe.write_text("print-lanes:\n\t@echo $(SIDE_TESTS)\n\t@echo $(FAIRNESS_TESTS)\n")
    done = subprocess.run(["make", "--no-print-directory", "-s", "-f", "Makefile", "-f", str(probe), "print-lanes"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    side, fairness = done.stdout.splitlines()
    assert SIDE_LANE and side.split() == list(SIDE_LANE), (side, SIDE_LANE)
    assert FAIRNESS_PROOFS and fairness.split() == list(FAIRNESS_PROOFS), (fairness, FAIRNESS_PROOFS)
    assert all((ROOT / path).exists() for path in (*SIDE_LANE, *FAIRNESS_PROOFS))


def test_the_lanes_reader_takes_lane_lines_and_marks_by_path():
    """Comment lines are skipped, each lane keeps its paths' order; a test is in a lane when its file is one of the
    lane's paths or under one of its folders (tests/lmsx is not under tests/lms)."""
    from tests.conftest import in_lane, read_lanes

    lanes = read_lanes("# side: tests/not_this\nside: tests/e2e  tests/lms\n\nfairness: tests/x/test_f.py\n")
    assert lanes == {"side": ("tests/e2e", "tests/lms"), "fairness": ("tests/x/test_f.py",)}
    assert in_lane(ROOT / "tests" / "lms" / "test_roster.py", lanes["side"])
    assert not in_lane(ROOT / "tests" / "lmsx" / "test_roster.py", lanes["side"])
    assert in_lane(ROOT / "tests" / "x" / "test_f.py", lanes["fairness"])
    assert not in_lane(ROOT / "tests" / "y" / "test_f.py", lanes["fairness"])
