"""`make test`'s jobs, run a few at a time: the lanes of tests/lanes.txt, the fairness proofs' parts, the other Pythons.

tests/lanes.txt names each lane and the test files or folders it collects, one lane a line, in the order
the lanes start (the longest first)::

    main:
    browser: tests/e2e
    fairness: tests/exercises/test_fairness.py
    python: tests/package tests/lessons/test_lessons.py

Three names have a meaning of their own:

- ``main`` (no paths): every test no other lane collects (it ignores their paths);
- ``fairness``: two jobs, ``fairness-1`` and ``fairness-2``, each every other entry of the catalogues
  (marked ``fairness_1`` and ``fairness_2`` by tests/conftest.py);
- ``python``: a job for each other supported Python (``--python 3.12=.venv-3.12/bin/python``), which runs
  these paths but the tests marked ``spanish`` or ``wording``, judging the catalogue in the clean room.

Every other lane is one job; tests/conftest.py marks its tests with the lane's name, and the job selects them
(``-m browser``). One job runs per core (``--slots``): each is started, in the file's order, as soon as a
slot is free. The suite is bound by the CPU, not by waiting: on 2 cores, with two jobs at a time, the
machine was 96.5 % busy (/proc/stat) and the jobs used 2,435 CPU-seconds (each in a cgroup of its own) for
21 min 21 s of wall time; four at a time took 23 min 10 s (one run each). Each writes its log to ``--logs``; a line is printed as each job starts and
ends, and at the end the last line of each log, or the whole log of a job that failed. Exit status 0
when every job passed (pytest's 5, "no test selected", counts as passed: ``PYTEST_ARGS`` chose tests of
other jobs only).

Usage (the Makefile's ``test`` target)::

    python -m coursetools.testlanes --logs artifacts/test-logs --python 3.12=.venv-3.12/bin/python -- -x
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
LANES_FILE = REPOSITORY / "tests" / "lanes.txt"
#: The lanes whose name means something more than "these paths" (see the module's docstring).
MAIN, FAIRNESS, PYTHON = "main", "fairness", "python"
FAIRNESS_PARTS = (1, 2)
#: What the other Pythons leave to the course's own: the Spanish edition's notebooks (the same code as the
#: English ones) and the catalogue's wording variants (they prove the matchers, which the helper package's
#: tests cover on every Python).
PYTHON_SKIPS = "not spanish and not wording"
#: pytest's exit statuses that count as passed: 0, and 5 ("no test selected").
PASSED = (0, 5)


def read_lanes(text: str) -> dict[str, tuple[str, ...]]:
    """``lane -> its paths`` from the lines ``lane: path path ...`` of tests/lanes.txt, in the file's order (any
    other line is a comment)."""
    return {m.group(1): tuple(m.group(2).split()) for m in re.finditer(r"^([\w-]+):(.*)$", text, re.M)}


def lanes() -> dict[str, tuple[str, ...]]:
    """tests/lanes.txt's lanes."""
    return read_lanes(LANES_FILE.read_text(encoding="utf-8"))


def marking_lanes(found: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """The lanes whose tests tests/conftest.py marks with the lane's name: every lane with paths but ``python``
    (its paths are other lanes' too)."""
    return {name: paths for name, paths in found.items() if paths and name != PYTHON}


def in_lane(path: Path, paths: tuple[str, ...], root: Path = REPOSITORY) -> bool:
    """Whether the test file ``path`` is one of ``paths`` or under one of its folders."""
    path = Path(path).resolve()
    return any(path == root / p or root / p in path.parents for p in paths)


@dataclass
class Job:
    """One pytest run of `make test`: its name (its log is ``<name>.log``), its command and its environment's
    changes."""

    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)


def jobs(found: dict[str, tuple[str, ...]], python: str, others: dict[str, str], pytest_args: list[str]) -> list[Job]:
    """Every job, in the order they start.

    Args:
        found: the lanes (:func:`lanes`).
        python: the course's own Python (its venv's).
        others: ``version -> python`` of each other supported Python's venv.
        pytest_args: added to every job's pytest command (``PYTEST_ARGS``).
    """
    marked = marking_lanes(found)
    done: list[Job] = []
    for name, paths in found.items():
        pytest = [python, "-m", "pytest", "-p", "no:cacheprovider"]
        if name == MAIN:
            ignores = [f"--ignore={p}" for lane in marked.values() for p in lane]
            selection = " and ".join(f"not {lane}" for lane in marked)
            done.append(Job(name, [*pytest, *ignores, "-m", selection, *pytest_args]))
        elif name == FAIRNESS:
            done += [Job(f"{name}-{part}", [*pytest, *paths, "-m", f"{name}_{part}", *pytest_args])
                     for part in FAIRNESS_PARTS]
        elif name == PYTHON:
            for version, other in others.items():
                bin_dir = str(Path(other).parent)
                done.append(Job(f"python-{version}", [other, *pytest[1:], *paths, "-m", PYTHON_SKIPS, *pytest_args],
                                {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
                                 "FAIRNESS_CATALOGUE": "clean-room"}))
        else:
            done.append(Job(name, [*pytest, *paths, "-m", name, *pytest_args]))
    return done


def _clock(seconds: float) -> str:
    return f"{int(seconds) // 60}:{int(seconds) % 60:02d}"


def last_line(log: Path) -> str:
    """The last line a job wrote (pytest's summary)."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else []
    return lines[-1].strip("= ") if lines else "(no output)"


class Runner:
    """Runs :func:`jobs` in ``slots`` at a time, each writing ``logs/<name>.log``."""

    def __init__(self, todo: list[Job], logs: Path, slots: int, out=sys.stdout) -> None:
        self.todo, self.logs, self.slots, self.out = todo, logs, max(1, slots), out
        self.started = time.monotonic()
        self.codes: dict[str, int] = {}
        self.running: dict[str, subprocess.Popen] = {}
        self.lock = threading.Lock()
        self.stopping = False

    def say(self, text: str) -> None:
        with self.lock:
            print(f"[{_clock(time.monotonic() - self.started)}] {text}", file=self.out, flush=True)

    def run_one(self, job: Job) -> int:
        if self.stopping:
            return 130
        log = self.logs / f"{job.name}.log"
        begun = time.monotonic()
        self.say(f"{job.name}: started ({log})")
        with log.open("wb") as fh:
            proc = subprocess.Popen(job.argv, stdout=fh, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    cwd=REPOSITORY, env={**os.environ, **job.env}, start_new_session=True)
            with self.lock:
                self.running[job.name] = proc
            code = proc.wait()
        with self.lock:
            self.running.pop(job.name, None)
        self.codes[job.name] = code
        verdict = "passed" if code in PASSED else f"FAILED (exit status {code})"
        self.say(f"{job.name}: {verdict} in {_clock(time.monotonic() - begun)}: {last_line(log)}")
        return code

    def stop(self, grace: float = 30) -> None:
        """Stop every job still running, as Ctrl-C stops one pytest: SIGINT to its process group, so that its
        fixtures stop what they started (JupyterLab, clusters, servers); SIGKILL to the group if it is still
        there after ``grace`` seconds."""
        self.stopping = True
        with self.lock:
            procs = list(self.running.values())
        for proc in procs:
            try:
                os.killpg(proc.pid, signal.SIGINT)
            except OSError:
                pass
        deadline = time.monotonic() + grace
        for proc in procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass

    def run(self) -> bool:
        """Run every job; print each one's last line, or its whole log when it failed. True when all passed."""
        self.logs.mkdir(parents=True, exist_ok=True)
        self.say(f"{len(self.todo)} jobs, {self.slots} at a time: {', '.join(j.name for j in self.todo)}; "
                 f"their logs in {self.logs}/")
        pool = ThreadPoolExecutor(max_workers=self.slots)
        try:
            list(pool.map(self.run_one, self.todo))
        except KeyboardInterrupt:
            self.say("interrupted: stopping the jobs still running (their fixtures clean up)")
            self.stop()
            pool.shutdown(wait=True, cancel_futures=True)
            print(f"Interrupted; the jobs' logs are in {self.logs}/", file=self.out)
            return False
        pool.shutdown(wait=True)
        failed = [j.name for j in self.todo if self.codes.get(j.name) not in PASSED]
        for job in self.todo:
            log = self.logs / f"{job.name}.log"
            print(f"== {job.name} ({log}) ==", file=self.out)
            if job.name in failed:
                print(log.read_text(encoding="utf-8", errors="replace") if log.exists() else "(no log)", file=self.out)
            else:
                print(last_line(log), file=self.out)
        if failed:
            print(f"FAILED: {' '.join(failed)} (logs in {self.logs}/)", file=self.out)
        else:
            print(f"Every job passed in {_clock(time.monotonic() - self.started)}.", file=self.out)
        return not failed


def default_slots(count: int) -> int:
    """One job per core, no more than there are jobs."""
    return max(1, min(count, os.cpu_count() or 1))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m coursetools.testlanes", description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=Path, default=REPOSITORY / "artifacts" / "test-logs",
                        help="the folder of the jobs' logs (emptied first)")
    parser.add_argument("--slots", type=int, default=0, help="jobs run at once (default: one per core)")
    parser.add_argument("--python", action="append", default=[], metavar="VERSION=PYTHON",
                        help="another supported Python's venv, for its job (repeat for each)")
    parser.add_argument("pytest_args", nargs="*", help="added to every job's pytest command (after --)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    others = dict(spec.split("=", 1) for spec in args.python)
    todo = jobs(lanes(), sys.executable, others, args.pytest_args)
    if args.logs.exists():
        for old in args.logs.glob("*.log"):
            old.unlink()
    runner = Runner(todo, args.logs, args.slots or default_slots(len(todo)))
    passed = runner.run()
    if passed:
        print(tested_on(lanes(), others))
    return 130 if runner.stopping else 0 if passed else 1


def tested_on(found: dict[str, tuple[str, ...]], others: dict[str, str]) -> str:
    """Which Python ran what, read from the jobs' own settings."""
    here = "%d.%d" % sys.version_info[:2]
    if not others:
        return f"Tested on Python {here} (everything)."
    return (f"Tested on Python {here} (everything) and {', '.join(others)} ({' '.join(found[PYTHON])}, "
            f"but the tests marked {PYTHON_SKIPS.replace('not ', '').replace(' and ', ' or ')}: the Spanish "
            f"edition's notebooks run the same code, the wording variants prove the matchers the helper package's "
            f"tests cover on every Python; the catalogue judged by the tests alone, in the clean room).")


if __name__ == "__main__":
    sys.exit(main())
