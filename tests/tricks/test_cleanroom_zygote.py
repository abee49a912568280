"""Forked clean runs: one long-lived clean-room process per grading process, a fresh fork per notebook.

A run must see what a fresh ``python`` process would, and nothing a previous run left:
no process, no file, no random state. A run that breaks the long-lived process loses
only its own clean result. The processes kept idle stay few, and a worker's run that
ends stops them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
import pytest

from autograder import cleanroom, forkserver
from autograder.sandbox import sandbox_available

HONEST = "def double(x):\n    return 2 * x\n"
TEST = 'assert double(2) == 4, "double(2) must be 4"\n'
SANDBOXED = cleanroom.Settings(sandboxed=True, cell_timeout=10, notebook_timeout=30)
UNSANDBOXED = cleanroom.Settings(sandboxed=False, cell_timeout=10, notebook_timeout=30)
needs_sandbox = pytest.mark.skipif(not sandbox_available(), reason="bubblewrap cannot run here")


def plan(answer: str, *tests: str) -> list[dict[str, str]]:
    return [{"kind": "answer", "id": "answer", "source": answer}] + [
        {"kind": "test", "id": f"test_{i}", "source": t} for i, t in enumerate(tests)]


def run(tmp_path, answer: str, *tests: str, options=UNSANDBOXED) -> cleanroom.CleanRun:
    return cleanroom.run(plan(answer, *tests), tmp_path, options)


def message(done: cleanroom.CleanRun, test: str = "test_0") -> str:
    return done.tests[test].message


def idle_pids() -> list[int]:
    """The host PIDs of the idle clean-room processes (inside the sandbox each one is PID 2)."""
    return [zygote.proc.pid for _, zygote in forkserver._idle]


TMP_LISTING = "import os\nassert False, sorted(n for n in os.listdir('/tmp') if not n.startswith('clean-room-run-'))"


@pytest.fixture(autouse=True)
def fresh_pool():
    forkserver.close_zygotes()
    yield
    forkserver.close_zygotes()


@pytest.mark.parametrize("options", [UNSANDBOXED, pytest.param(SANDBOXED, marks=needs_sandbox)],
                         ids=["unsandboxed", "sandboxed"])
def test_runs_are_forks_of_one_process_and_each_starts_clean(tmp_path, options):
    probe = "import os, random\nassert False, (os.getppid(), os.getpid(), random.random())"
    first = run(tmp_path, HONEST, TEST, probe, options=options)
    after_first = idle_pids()
    second = run(tmp_path, HONEST, TEST, probe, options=options)
    assert first.forked and second.forked and first.complete and second.complete
    assert first.tests["test_0"].passed and second.tests["test_0"].passed
    parent1, child1, draw1 = eval(message(first, "test_1").removeprefix("AssertionError: "))
    parent2, child2, draw2 = eval(message(second, "test_1").removeprefix("AssertionError: "))
    assert len(after_first) == 1 and idle_pids() == after_first, "both runs must be forks of the same clean-room process"
    assert parent1 == parent2 and child1 != child2, "each run is a new process, forked by the same one"
    assert draw1 != draw2, "each run must draw its own random numbers (the fork is reseeded)"


@needs_sandbox
def test_a_run_leaves_no_process_and_no_file_for_the_next_one(tmp_path):
    daemon = ("import os, time\n"
              "open('/tmp/left-behind', 'w').write('x')\n"
              "open('/tmp/home/left-behind', 'w').write('x')\n"
              "open('/dev/shm/left-behind', 'w').write('x')\n"
              "os.makedirs('/tmp/locked/inner')\n"
              "open('/tmp/locked/inner/f', 'w').write('x')\n"
              "os.chmod('/tmp/locked/inner', 0)\n"
              "os.chmod('/tmp/locked', 0)\n"
              "os.rename('/tmp/home', '/tmp/old-home')\n"
              "os.symlink('/dev/shm', '/tmp/home')\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    while True:\n"
              "        time.sleep(0.05)\n" + HONEST)
    before = run(tmp_path, HONEST, TMP_LISTING, options=SANDBOXED)
    listing = eval(message(before).removeprefix("AssertionError: "))
    assert "home" in listing, listing  # and the folders holding the sandbox's binds, for a course under /tmp
    started = idle_pids()
    first = run(tmp_path, daemon, TEST, options=SANDBOXED)
    assert first.complete and first.tests["test_0"].passed, first
    assert idle_pids() == started, "the clean-room process must put its sandbox back and go on serving runs"
    probe = ("import os\n"
             "others = [p for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, os.getpid(), os.getppid())]\n"
             "assert not others, ('processes', others)\n"
             "left = [p for p in ('/tmp/left-behind', '/tmp/home/left-behind', '/dev/shm/left-behind') if os.path.exists(p)]\n"
             "assert not left, ('files', left)\n"
             "tmp = sorted(n for n in os.listdir('/tmp') if not n.startswith('clean-room-run-'))\n"
             f"assert tmp == {listing!r}, tmp\n"
             "assert not os.path.islink('/tmp/home') and os.listdir('/tmp/home') == []\n"
             "assert os.listdir('/dev/shm') == []\n"
             "assert os.getcwd().startswith('/tmp/clean-room-run-') and not os.access('.', os.W_OK)\n")
    second = run(tmp_path, HONEST, probe, options=SANDBOXED)
    assert second.forked and second.complete and second.tests["test_0"].passed, message(second)
    assert idle_pids() == started


@needs_sandbox
def test_a_run_sees_the_notebook_s_folder_read_only_as_the_kernel_did(tmp_path):
    (tmp_path / "data.txt").write_text("42")
    done = run(tmp_path, HONEST, "assert open('data.txt').read() == '42'\n"
                                 "try:\n    open('new.txt', 'w')\n    wrote = True\nexcept OSError:\n    wrote = False\n"
                                 "assert not wrote", options=SANDBOXED)
    assert done.forked and done.tests["test_0"].passed, message(done)


def test_a_folder_with_a_subfolder_runs_in_a_fresh_process(tmp_path):
    (tmp_path / "data").mkdir()
    done = run(tmp_path, HONEST, TEST)
    assert not done.forked and done.complete and done.tests["test_0"].passed


@needs_sandbox
def test_a_run_cannot_open_the_long_lived_process_s_pipes_or_memory(tmp_path):
    probe = ("import os\n"
             "parent = f'/proc/{os.getppid()}'\n"
             "opened = []\n"
             "for path in [f'{parent}/fd/{n}' for n in os.listdir(f'{parent}/fd')] + [f'{parent}/mem']:\n"
             "    try:\n"
             "        os.close(os.open(path, os.O_RDONLY))\n"
             "        opened.append(path)\n"
             "    except OSError:\n"
             "        pass\n"
             "assert len(os.listdir(f'{parent}/fd')) >= 3 and not opened, opened\n")
    done = run(tmp_path, HONEST, probe, options=SANDBOXED)
    assert done.forked and done.tests["test_0"].passed, message(done)


@pytest.mark.parametrize("options", [UNSANDBOXED, pytest.param(SANDBOXED, marks=needs_sandbox)],
                         ids=["unsandboxed", "sandboxed"])
def test_a_run_that_kills_the_long_lived_process_loses_only_its_own_clean_result(tmp_path, options):
    killer = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n" + HONEST
    done = run(tmp_path, killer, TEST, options=options)
    assert not done.complete and re.search("stopped early", done.reason), done
    after = run(tmp_path, HONEST, TEST, options=options)
    assert after.forked and after.complete and after.tests["test_0"].passed, after


def test_a_run_stopped_at_its_deadline_is_reported_and_the_next_run_works(tmp_path):
    options = cleanroom.Settings(sandboxed=False, cell_timeout=60, notebook_timeout=2, grace=0.0)
    # a cell that ignores the alarm: signals blocked, so only the deadline can stop it
    endless = "import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\nwhile True:\n    pass\n"
    done = run(tmp_path, endless, TEST, options=options)
    assert not done.complete and "did not finish within 2 s" in done.reason, done
    after = run(tmp_path, HONEST, TEST, options=options)
    assert after.complete and after.tests["test_0"].passed


def test_idle_processes_stay_few_and_are_stopped_when_a_run_ends(tmp_path):
    for seconds in range(1, 8):  # seven settings: each its own process, the oldest dropped
        options = cleanroom.Settings(sandboxed=False, limits={"cpu_limit": 100 + seconds}, notebook_timeout=30)
        assert run(tmp_path, HONEST, TEST, options=options).forked
        assert forkserver.idle_zygotes() <= forkserver.KEEP_IDLE
    assert forkserver.idle_zygotes() == forkserver.KEEP_IDLE
    assert forkserver.close_zygotes() == forkserver.KEEP_IDLE and forkserver.idle_zygotes() == 0


def test_a_course_can_ask_for_a_fresh_process_per_run(tmp_path):
    from traitlets.config import Config

    assert cleanroom.settings(Config()).fork is True
    options = cleanroom.settings(Config({"CrossCheck": {"fork": False}}))
    assert options.fork is False
    done = cleanroom.run(plan(HONEST, TEST), tmp_path, cleanroom.Settings(sandboxed=False, fork=options.fork))
    assert not done.forked and done.complete and done.tests["test_0"].passed


# A grading process that makes a clean-room process, leaves a read-only run folder in its folder (as a run
# stopped halfway does), says where, and waits to be killed.
KILLED_GRADER = """
import sys
from autograder import cleanroom, forkserver
options = cleanroom.Settings(sandboxed=sys.argv[1] == "sandboxed", cell_timeout=10, notebook_timeout=30)
zygote = forkserver.Zygote(options, ("json",) if sys.argv[2] == "kernel" else None)
run = zygote.folder / "clean-room-run-1"
run.mkdir()
(run / "notebook.ipynb").write_text("{}")
(run / "notebook.ipynb").chmod(0o444)
run.chmod(0o555)
print(zygote.folder, zygote.proc.pid, flush=True)
sys.stdin.read()
"""


@pytest.mark.parametrize("sandboxed", [False, pytest.param(True, marks=needs_sandbox)],
                         ids=["unsandboxed", "sandboxed"])
@pytest.mark.parametrize("kind", ["clean-run", "kernel"])
def test_a_folder_left_by_a_killed_grader_goes_when_the_next_one_starts(monkeypatch, sandboxed, kind):
    """A grading process killed outright (SIGKILL; SIGTERM to a Dask worker's group) cannot remove its
    clean-room process's folder; the next grading process to make one in that temp folder removes it,
    and keeps those of processes still running and folders it did not name."""
    tmp = Path(tempfile.mkdtemp(prefix="zy", dir="/tmp"))  # short: a kernel's socket paths must fit
    try:
        grader = subprocess.Popen([sys.executable, "-c", KILLED_GRADER, "sandboxed" if sandboxed else "plain", kind],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, "TMPDIR": str(tmp)})
        folder, zygote = grader.stdout.readline().decode().split()
        folder, prefix = Path(folder), (forkserver.KERNEL_FOLDER_PREFIX if kind == "kernel" else forkserver.FOLDER_PREFIX)
        assert folder.parent == tmp and folder.name.startswith(f"{prefix}{grader.pid}-"), folder
        grader.kill()
        grader.wait()
        deadline = time.monotonic() + 60
        while psutil.pid_exists(int(zygote)) and psutil.Process(int(zygote)).status() != psutil.STATUS_ZOMBIE:
            assert time.monotonic() < deadline, "the clean-room process outlived its grader by a minute"
            time.sleep(0.05)
        assert folder.exists(), "the killed grader left nothing behind: this test no longer shows the leak"
        running = tmp / f"{prefix}{os.getppid()}-stillrun"  # a grading process still running (this test's parent)
        not_ours = tmp / f"{prefix}{grader.pid}-notmkdtemp"  # the gone process's number, but not a name it made
        for kept in (running, not_ours):
            kept.mkdir()

        monkeypatch.setattr(forkserver, "_swept", set())
        new = forkserver.own_folder(prefix, str(tmp))
        assert not folder.exists(), sorted(p.name for p in tmp.iterdir())
        assert running.exists() and not_ours.exists(), sorted(p.name for p in tmp.iterdir())
        assert new.exists() and new.name.startswith(f"{prefix}{os.getpid()}-")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_a_warm_process_that_imported_an_older_helper_package_is_not_reused(tmp_path, monkeypatch):
    """The helper package changed on disk after the warm process imported it (an update during a grading run):
    kernels forked from it would hold the old version, which the helper-package check (compared with the files)
    takes for tampering. The pool starts a new process instead, and the runs still work."""
    assert run(tmp_path, HONEST, TEST).tests["test_0"].passed
    first = idle_pids()
    assert len(first) == 1
    taken = forkserver.take(UNSANDBOXED)
    assert taken.proc.pid == first[0], "an unchanged package: the warm process is reused"
    forkserver.give_back(taken)
    monkeypatch.setattr(forkserver, "package_stamp", lambda: (("toolfaults/tools.py", 1, 1),))
    assert run(tmp_path, HONEST, TEST).tests["test_0"].passed
    assert first[0] not in idle_pids(), "the process that imported the older package served another run"
