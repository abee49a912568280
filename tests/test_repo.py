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


def test_every_test_file_is_in_one_lane_and_every_lane_path_exists():
    """tests/lanes.txt is the one list of where each lane's tests live: each path exists, no test file is in two
    marking lanes (its tests would run twice), and the main job ignores every marking lane's paths (and selects
    none of their markers), so that every test file runs in exactly one of them."""
    from coursetools.testlanes import MAIN, in_lane, jobs, lanes, marking_lanes

    found = lanes()
    assert MAIN in found and not found[MAIN] and {"fairness", "python"} <= set(found), found
    assert all((ROOT / path).exists() for paths in found.values() for path in paths)
    marked = marking_lanes(found)
    for test_file in (ROOT / "tests").rglob("test_*.py"):
        owners = [lane for lane, paths in marked.items() if in_lane(test_file, paths)]
        assert len(owners) <= 1, (test_file, owners)
    main = next(j for j in jobs(found, "python", {}, []) if j.name == MAIN)
    assert {a for a in main.argv if a.startswith("--ignore=")} == {f"--ignore={p}" for ps in marked.values() for p in ps}
    assert main.argv[-2:] == ["-m", " and ".join(f"not {lane}" for lane in marked)]


def test_the_jobs_are_each_lane_the_fairness_parts_and_each_other_python():
    """Each lane is a job selecting its marker; the fairness proofs are two parts; the python lane is one job per
    other Python, run by that Python on the lane's paths, without the Spanish and wording tests; PYTEST_ARGS go
    to every job."""
    from coursetools.testlanes import jobs, read_lanes

    found = read_lanes("# browser: no\nbrowser: tests/e2e\nmain:\nfairness: tests/x/test_f.py\n"
                       "python: tests/package tests/x/test_f.py\n")
    made = {j.name: j for j in jobs(found, "/venv/bin/python", {"3.12": "/v12/bin/python", "3.13": "/v13/bin/python"},
                                    ["-x"])}
    assert list(made) == ["browser", "main", "fairness-1", "fairness-2", "python-3.12", "python-3.13"]
    assert made["browser"].argv[-4:] == ["tests/e2e", "-m", "browser", "-x"]
    assert made["main"].argv[-4:] == ["--ignore=tests/x/test_f.py", "-m", "not browser and not fairness", "-x"]
    assert made["fairness-2"].argv[-4:] == ["tests/x/test_f.py", "-m", "fairness_2", "-x"]
    v13 = made["python-3.13"]
    assert v13.argv[0] == "/v13/bin/python" and v13.argv[-5:] == ["tests/package", "tests/x/test_f.py", "-m",
                                                                   "not spanish and not wording", "-x"]
    assert v13.env["PATH"].startswith("/v13/bin:") and v13.env["FAIRNESS_CATALOGUE"] == "clean-room"
    assert all(j.argv[0] == "/venv/bin/python" for name, j in made.items() if not name.startswith("python-"))


def test_the_lanes_reader_takes_lane_lines_and_marks_by_path():
    """Comment lines are skipped, each lane keeps its paths' order; a test is in a lane when its file is one of the
    lane's paths or under one of its folders (tests/lmsx is not under tests/lms)."""
    from coursetools.testlanes import in_lane, read_lanes

    lanes = read_lanes("# side: tests/not_this\nside: tests/e2e  tests/lms\n\nfairness: tests/x/test_f.py\n")
    assert lanes == {"side": ("tests/e2e", "tests/lms"), "fairness": ("tests/x/test_f.py",)}
    assert in_lane(ROOT / "tests" / "lms" / "test_roster.py", lanes["side"])
    assert not in_lane(ROOT / "tests" / "lmsx" / "test_roster.py", lanes["side"])
    assert in_lane(ROOT / "tests" / "x" / "test_f.py", lanes["fairness"])
    assert not in_lane(ROOT / "tests" / "y" / "test_f.py", lanes["fairness"])


def test_the_runner_runs_jobs_side_by_side_and_shows_what_failed(tmp_path):
    """At most `slots` jobs run at once; each writes its log; a passing job (or pytest's 5, "no test selected")
    shows its last line, a failing one its whole log, and the run fails naming it."""
    import io
    import sys

    from coursetools.testlanes import Job, Runner

    # Each job leaves a file in running/ while it runs, and waits until it sees another job's there, or until
    # no other job can come (every other one has finished, a file each in finished/): the most it saw is how many
    # ran at once. No job waits on the clock.
    probe = ("import os, sys; run, fin, name, total = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[6])\n"
             "open(os.path.join(run, name), 'w').close()\n"
             "while len(os.listdir(run)) < 2 and len(os.listdir(fin)) + 1 < total: pass\n"
             "print('beside', len(os.listdir(run))); os.remove(os.path.join(run, name))\n"
             "open(os.path.join(fin, name), 'w').close(); print(sys.argv[4]); sys.exit(int(sys.argv[5]))")

    def stand_ins(folder, cases):
        (folder / "running").mkdir(parents=True)
        (folder / "finished").mkdir()
        return [Job(name, [sys.executable, "-c", probe, str(folder / "running"), str(folder / "finished"), name, text,
                           code, str(len(cases))]) for name, text, code in cases]

    todo = stand_ins(tmp_path / "a", [("one", "1 passed", "0"), ("two", "no tests ran", "5"),
                                      ("three", "1 failed", "1"), ("four", "2 passed", "0")])
    out = io.StringIO()
    assert Runner(todo, tmp_path / "logs", slots=2, out=out).run() is False
    shown = out.getvalue()
    assert "FAILED: three" in shown and "== three" in shown and "beside" in shown.split("== three")[1]
    assert "two: passed" in shown and "three: FAILED (exit status 1)" in shown
    besides = [int(line.split()[1]) for job in todo
               for line in (tmp_path / "logs" / f"{job.name}.log").read_text().splitlines() if line.startswith("beside")]
    assert len(besides) == 4 and max(besides) == 2, besides
    assert Runner(stand_ins(tmp_path / "b", [("one", "1 passed", "0"), ("two", "no tests ran", "5")]),
                  tmp_path / "logs2", slots=4, out=io.StringIO()).run() is True


def test_stopping_the_runner_lets_each_job_clean_up(tmp_path):
    """Ctrl-C (Runner.stop) reaches each running job as SIGINT, as it reaches one pytest in a terminal, so that its
    fixtures stop what they started; jobs not started yet never start."""
    import io
    import sys
    import threading
    import time

    from coursetools.testlanes import Job, Runner

    probe = ("import pathlib, signal, sys, time\n"
             "here = pathlib.Path(sys.argv[1])\n"
             "def cleanup(*_):\n    (here / 'cleaned').write_text('yes'); sys.exit(2)\n"
             "signal.signal(signal.SIGINT, cleanup)\n(here / 'started').write_text('yes')\ntime.sleep(60)\n")
    todo = [Job("long", [sys.executable, "-c", probe, str(tmp_path)]),
            Job("never", [sys.executable, "-c", "open(__import__('sys').argv[1], 'w')", str(tmp_path / "ran")])]
    runner = Runner(todo, tmp_path / "logs", slots=1, out=io.StringIO())
    thread = threading.Thread(target=runner.run)
    thread.start()
    deadline = time.monotonic() + 30
    while not (tmp_path / "started").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    runner.stop(grace=10)
    thread.join(30)
    assert not thread.is_alive() and (tmp_path / "cleaned").exists() and runner.codes["long"] == 2
    assert not (tmp_path / "ran").exists()


def test_the_summary_says_what_each_python_ran_from_the_jobs_settings():
    """The closing line names the other Pythons, the python lane's paths and the markers they leave out, as the
    jobs run them (not a copy that could drift)."""
    from coursetools.testlanes import PYTHON_SKIPS, tested_on

    found = {"main": (), "python": ("tests/package", "tests/x/test_f.py")}
    said = tested_on(found, {"3.12": "/v12/bin/python", "3.13": "/v13/bin/python"})
    assert "everything) and 3.12, 3.13 (tests/package tests/x/test_f.py, but the tests marked spanish or wording" in said
    assert PYTHON_SKIPS == "not spanish and not wording"
    assert tested_on(found, {}).endswith("(everything).")
