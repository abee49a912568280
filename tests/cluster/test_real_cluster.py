"""Grading on a real Dask cluster, started exactly as docs/instructors.md says.

The scheduler and the workers are separate OS processes, started with the two
`.venv/bin/dask` command lines of the guide's single-machine trial (read from the
guide itself; only the port 8786 is replaced by a free one), from the repository, with
the venv not activated and no PYTHONPATH: what an instructor types. Such processes do
not inherit pytest's ``sys.path``, so they grade only if the venv itself holds the
grader (``make setup`` installs it).

- Every task of a `--scheduler` run must run on one of the cluster's worker processes
  (both of them get work), none may be graded again in the grade command's process,
  and the scores must equal the default run's (a LocalCluster with SQLite).
- A worker whose venv lacks the grader (a venv with the course's dependencies but not
  the course's own packages, as one set up before the grader was installed there) must
  make the grade command say so plainly: the exception's type and message, how many
  tasks, that the cluster did not grade, and a non-zero exit status.
- A second grade command on the same workers grades as well, and each run's grader
  (a Dask WorkerPlugin holding its Course) is gone from every worker when its run ends.
- ``python -m autograder.checkcluster`` (``make check-cluster``) says, worker by
  worker, whether it can grade.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from autograder.course import ROOT
from tests.conftest import SAMPLE_CLASS_LIMITS
from tests.ports import free_port
from tests.sandbox.probe_assignment import need_sandbox

pytestmark = pytest.mark.slow

GUIDE = ROOT / "docs" / "instructors.md"
VENV_BIN = ROOT / ".venv" / "bin"
# 2 students x 2 assignments of the sample class: full, partial and zero scores, no time limits involved.
STUDENTS = ["ana", "dara"]
ASSIGNMENTS = ["04_validate_then_execute", "06_fallback_and_degradation"]


def guide_commands() -> dict[str, list[str]]:
    """The guide's single-machine `dask scheduler` and `dask worker` lines (bound to 127.0.0.1)."""
    found: dict[str, list[str]] = {}
    for line in GUIDE.read_text().splitlines():
        match = re.match(r"^\s*(\.venv/bin/dask (scheduler|worker) .*)$", line)
        if match and "127.0.0.1" in line:
            assert match.group(2) not in found, f"the guide has two single-machine `dask {match.group(2)}` lines"
            found[match.group(2)] = shlex.split(match.group(1).split("#")[0])
    assert set(found) == {"scheduler", "worker"}, f"docs/instructors.md lacks the trial's commands: {found}"
    return found


def test_the_guide_binds_the_trial_to_loopback():
    commands = guide_commands()
    assert commands["scheduler"][commands["scheduler"].index("--host") + 1] == "127.0.0.1"
    worker = commands["worker"]
    assert worker[worker.index("--host") + 1] == "127.0.0.1" and worker[2] == "tcp://127.0.0.1:8786"
    assert worker[worker.index("--nthreads") + 1] == "1"


def _instructor_env(tmp: Path) -> dict[str, str]:
    """The environment of an instructor's terminal: no PYTHONPATH, the venv not activated."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep)
                                  if p and Path(p).resolve() != VENV_BIN.resolve())
    env["DASK_TEMPORARY_DIRECTORY"] = str(tmp)  # the workers' scratch space, not /tmp/dask-scratch-space
    return env


@contextmanager
def _process(cmd: list[str], log: Path, env: dict[str, str]):
    with log.open("w") as fh:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=fh, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        yield proc
    finally:
        for sig, wait in ((signal.SIGTERM, 30), (signal.SIGKILL, 10)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue


@contextmanager
def cluster(tmp: Path, worker_python: str | None = None):
    """A scheduler and two workers started with the guide's command lines; yields (address, worker pids).

    ``worker_python``: run the guide's ``.venv/bin/dask worker`` script with this interpreter instead.
    """
    from distributed import Client

    commands = guide_commands()
    port = str(free_port())
    scheduler_cmd = [part.replace("8786", port) for part in commands["scheduler"]]
    worker_cmd = [part.replace("8786", port) for part in commands["worker"]]
    if worker_python:
        worker_cmd = [worker_python, str(ROOT / worker_cmd[0]), *worker_cmd[1:]]
    address = f"tcp://127.0.0.1:{port}"
    env = _instructor_env(tmp)
    with _process(scheduler_cmd, tmp / "scheduler.log", env) as scheduler:
        deadline = time.monotonic() + 60
        while socket.socket().connect_ex(("127.0.0.1", int(port))) != 0:
            assert scheduler.poll() is None and time.monotonic() < deadline, (tmp / "scheduler.log").read_text()
            time.sleep(0.2)
        with _process(worker_cmd, tmp / "worker.log", env) as workers:
            with Client(address, timeout=30, set_as_default=False) as client:
                try:
                    client.wait_for_workers(2, timeout=120)
                except TimeoutError:
                    pytest.fail("the workers did not start:\n" + (tmp / "worker.log").read_text()[-3000:])
                pids = client.run(os.getpid)
            assert workers.poll() is None
            yield address, pids


def _grade(out: Path, *more: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "autograder.grade", "--out", str(out), *SAMPLE_CLASS_LIMITS, *more]
    for student in STUDENTS:
        cmd += ["--student", student]
    for assignment in ASSIGNMENTS:
        cmd += ["--assignment", assignment]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)


def _results(out: Path) -> dict[tuple[str, str], dict]:
    return {(r["student"], r["assignment"]): r for r in json.loads((out / "reports" / "results.json").read_text())}


def _grades(results: dict) -> dict:
    return {key: (r["score"], r["max_score"], r["status"], [(t["grade_id"], t["points"]) for t in r["tests"]])
            for key, r in results.items()}


@pytest.fixture(scope="module")
def guide_cluster(tmp_path_factory):
    """One scheduler and two workers started as the guide says, for this module's tests that grade or check
    on them (in file order: the grading test first, on workers that have done nothing yet)."""
    need_sandbox()
    with cluster(tmp_path_factory.mktemp("guide-cluster")) as (address, pids):
        yield address, pids


def test_workers_started_as_the_guide_says_do_the_grading(tmp_path, pg, sample_class_graded, guide_cluster):
    """4 submissions on a scheduler and 2 workers started as the guide says: all graded on the workers, with
    the grades of the default path (the sample class graded by `make grade`'s defaults, the same limits)."""
    from distributed import Client

    from autograder.cleanroom import running_zygotes
    from autograder.worker import graders

    address, pids = guide_cluster
    assert len(set(pids.values())) == 2
    run = _grade(tmp_path / "cluster", "--scheduler", address, "--db", pg.create_database("guide"))
    # The same long-lived workers, a second grade command: each run's grader is dropped at its end,
    # and so are the clean-room processes its tasks started on the worker.
    with Client(address, set_as_default=False) as client:
        left_after_first = client.run(graders)
        clean_rooms_after_first = client.run(running_zygotes)
        again = _grade(tmp_path / "again", "--scheduler", address, "--db", pg.create_database("again"))
        left_after_second = client.run(graders)
        clean_rooms_after_second = client.run(running_zygotes)
        assert client.run(os.getpid) == pids, "the workers were restarted"
    assert clean_rooms_after_first == clean_rooms_after_second == {worker: 0 for worker in pids}
    assert again.returncode == 0, again.stdout[-3000:] + again.stderr[-3000:]
    assert "Graded on the cluster's workers: 4; graded here, after a worker failed: 0." in again.stdout
    assert left_after_first == left_after_second == {worker: [] for worker in pids}
    said = run.stdout + run.stderr
    assert run.returncode == 0, f"grade command failed:\n{said[-4000:]}"
    results = _results(tmp_path / "cluster")
    assert len(results) == 4
    workers = {r["worker"] for r in results.values()}
    assert workers <= set(pids.values()), f"graded outside the cluster's workers {pids}: {workers}"
    assert len(workers) == 2, "both workers should have graded"
    assert not [key for key, r in results.items() if any(p["kind"] == "regraded" for p in r["problems"])]
    assert "Graded on the cluster's workers: 4; graded here, after a worker failed: 0." in run.stdout, said[-3000:]
    assert "failed" not in run.stderr, run.stderr
    assert sample_class_graded["limits"] == SAMPLE_CLASS_LIMITS
    assert _grades(results) == _grades({key: sample_class_graded["results"][key] for key in results})


@pytest.fixture()
def venv_without_the_grader(tmp_path) -> str:
    """A venv holding the course's dependencies but not the course's own packages; its python.

    Its site-packages lists the course venv's site-packages as a plain path, so Dask and
    nbgrader import, but the course's editable installs (autograder, toolfaults) are not
    processed: as on a worker whose venv was set up without the grader.
    """
    import sysconfig

    stale = tmp_path / "stale-venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(stale)], check=True, timeout=120)
    python = stale / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "course-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    check = subprocess.run([str(python), "-c", "import distributed, nbgrader; import autograder"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert "No module named 'autograder'" in check.stderr, check.stderr
    return str(python)


def test_a_worker_that_cannot_import_the_grader_is_said_plainly(tmp_path, pg, venv_without_the_grader):
    need_sandbox()
    with cluster(tmp_path, worker_python=venv_without_the_grader) as (address, pids):
        checked = subprocess.run([sys.executable, "-m", "autograder.checkcluster", address], cwd=ROOT,
                                 capture_output=True, text=True, timeout=300)
        run = _grade(tmp_path / "out", "--scheduler", address, "--db", pg.create_database("stale"))
    assert checked.returncode == 1, checked.stdout + checked.stderr
    for worker in pids:
        assert re.search(rf"worker {re.escape(worker)}.*CANNOT GRADE: ModuleNotFoundError: No module named "
                         r"'autograder'", checked.stdout), checked.stdout
    assert "0 of 2 worker(s) can grade" in checked.stdout

    said = run.stdout + run.stderr
    assert run.returncode == 3, said[-4000:]
    # The exception once, with the workers it concerns; the number of tasks it cost.
    assert run.stderr.count("ModuleNotFoundError: No module named 'autograder'") == 1, run.stderr
    assert re.search(r"2 of 2 workers of the Dask scheduler at \S+ cannot import the grader and get no tasks: "
                     r"ModuleNotFoundError: No module named 'autograder'", run.stderr), run.stderr
    assert re.search(r"4 grading tasks failed on the workers of the Dask scheduler at \S+: no worker of the "
                     r"cluster can import the grader", run.stderr), run.stderr
    assert "The cluster did not grade" in run.stderr, run.stderr
    assert "Graded on the cluster's workers: 0; graded here, after a worker failed: 4." in run.stdout
    results = _results(tmp_path / "out")
    assert len(results) == 4 and results[("ana", ASSIGNMENTS[0])]["score"] == results[("ana", ASSIGNMENTS[0])]["max_score"]


def test_check_cluster_says_each_worker_can_grade(guide_cluster):
    address, pids = guide_cluster
    checked = subprocess.run([sys.executable, "-m", "autograder.checkcluster", address], cwd=ROOT,
                             capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"scheduler {address}: ok" in checked.stdout
    for worker, pid in pids.items():
        assert re.search(rf"worker {re.escape(worker)} \(.*pid {pid}\): ok: imports the grader from "
                         rf"{re.escape(str(ROOT / 'autograder'))}; a sandboxed kernel started", checked.stdout), \
            checked.stdout
    assert "2 of 2 worker(s) can grade" in checked.stdout
