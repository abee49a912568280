"""`make bench`'s comparison: the grader against what an instructor would use instead, and against the floor.

On the same submissions of the sample class, in one run:

``plain nbgrader``  ``nbgrader autograde <assignment>`` for each assignment, one after another, as an
                    instructor would type it: unsandboxed, no cross-checks, the course's own
                    ``nbgrader_config.py``, in a scratch copy of a course folder (the assignments'
                    source, the submissions, a gradebook of its own; nothing of the repository's
                    class is read or written).
``default path``    the grade command's default run (:func:`autograder.grade.run`: sandboxed kernels
                    forked from a warm one, a Dask LocalCluster of one worker per core, the clean-room
                    re-run and the code scan of every submission, feedback and report), in a scratch course.
``floor``           what no grader can avoid: for each submission, a plain kernel's start, its imports
                    and the CPU its cells take (each of plain nbgrader's autograded copies run again,
                    in a plain kernel, the same per-cell time limit), the sum divided by the cores.

Twice: on the well-behaved submissions (:data:`WELL_BEHAVED`: the stuck and broken ones set aside) and on
the whole class (every submission on disk). The issue's goals (issue 43): the default path at least 2.5x
faster than plain nbgrader on well-behaved submissions, and within 1.5x of the floor.

The sample class is found through :mod:`autograder.course` (``SUBMITTED``), never by a path of its own.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from coursetools.measure import TreeCPU, interleave, load

#: The sample class's recipes (coursetools.sample_class) whose notebooks run as written: answers right,
#: wrong or left as the stub, and a wrong answer that patches the helper package.
WELL_BEHAVED = ("solution", "right", "wrong", "stub", "tamper")
SCOPES = ("well-behaved", "whole")
GOALS = {"vs_plain": 2.5, "vs_floor": 1.5}


def class_tasks(submitted: Path, scope: str, limit: int | None = None) -> list:
    """The submissions of ``scope``: well-behaved ones (by the sample class's recipe), or every one on disk."""
    from autograder.course import assignments
    from autograder.pool import Task
    from coursetools.sample_class import CLASS, kind

    known = set(assignments())
    tasks = []
    for folder in sorted(p for p in submitted.glob("*/*") if p.is_dir() and p.name in known):
        student, assignment = folder.parent.name, folder.name
        recipe = CLASS.get(student, {}).get(assignment)
        if scope == "whole" or (recipe is not None and kind(recipe) in WELL_BEHAVED):
            tasks.append(Task(assignment, student))
    if limit:
        tasks = sorted(interleave(tasks)[:limit])
    return tasks


# -- plain nbgrader ---------------------------------------------------------------------------
def scratch_course(root: Path, tasks: list, submitted: Path) -> tuple[Path, dict[str, str]]:
    """A course folder for plain nbgrader: the course's ``nbgrader_config.py``, the assignments' source and
    the submissions, in a class folder of its own; ``(its root, the environment nbgrader runs with)``."""
    from autograder.course import ROOT, SOLUTIONS

    root.mkdir(parents=True)
    shutil.copy(ROOT / "nbgrader_config.py", root / "nbgrader_config.py")
    for assignment in sorted({t.assignment for t in tasks}):
        shutil.copytree(SOLUTIONS / assignment, root / "solutions" / assignment)
    for task in tasks:
        shutil.copytree(submitted / task.student / task.assignment,
                        root / "class" / "submitted" / task.student / task.assignment)
    # nbgrader_config.py grades the class named here (autograder.classes): the scratch one.
    return root, {**os.environ, "AUTOGRADER_CLASS": str(root / "class")}


def _nbgrader(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    command = [str(Path(sys.executable).parent / "nbgrader"), *args]
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)


def plain_nbgrader(tasks: list, submitted: Path, root: Path) -> dict[str, Any]:
    """``nbgrader autograde`` of each assignment, one after another (the assignments generated first, untimed)."""
    from nbgrader.api import Gradebook


    root, env = scratch_course(root, tasks, submitted)
    names = sorted({t.assignment for t in tasks})
    for name in names:
        done = _nbgrader(root, env, "generate_assignment", name, "--force")
        if done.returncode:
            raise RuntimeError(f"nbgrader generate_assignment {name} failed:\n{done.stderr[-2000:]}")
    started = time.perf_counter()
    failed: dict[str, str] = {}
    with TreeCPU() as cpu:
        for name in names:
            done = _nbgrader(root, env, "autograde", name, "--force")
            if done.returncode:  # said with its last error line; the submissions it graded still count
                failed[name] = next((line for line in reversed(done.stderr.splitlines()) if "ERROR" in line),
                                    done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "")[-300:]
    seconds = time.perf_counter() - started
    scores = {}
    with Gradebook(f"sqlite:///{root / 'class' / 'gradebook.db'}") as gradebook:
        for task in tasks:
            try:
                scores[f"{task.student}/{task.assignment}"] = gradebook.find_submission(task.assignment,
                                                                                        task.student).score
            except Exception:  # noqa: BLE001 - not graded (nbgrader gave up on it)
                scores[f"{task.student}/{task.assignment}"] = None
    return {"seconds": seconds, "cpu": cpu.seconds, "scores": scores, "failed": failed,
            "autograded": root / "class" / "output" / "autograded"}


# -- the default path ---------------------------------------------------------------------------
def default_path(tasks: list, submitted: Path, root: Path, unsandboxed: bool = False) -> dict[str, Any]:
    """The grade command's default run on ``tasks``, in a scratch course (sandboxed unless it cannot run here)."""
    from autograder.grade import grading_settings, make_course
    from autograder.grade import run as grade_run
    from autograder.pool import default_workers
    from autograder.sandbox import SandboxUnavailable

    try:
        settings, sandboxed = grading_settings(unsandboxed=unsandboxed, stream=sys.stdout), not unsandboxed
    except SandboxUnavailable as err:  # the sample class is the course's own code: measure without it
        print(f"  (no sandbox here, the default path runs unsandboxed: {str(err).splitlines()[0]})")
        settings, sandboxed = grading_settings(unsandboxed=True, stream=sys.stdout), False
    root.mkdir(parents=True)
    course = make_course(settings, root / "release", root=root, submissions=submitted, staging=root / "staging",
                         autograded_directory="autograded", feedback_directory="feedback",
                         db_url=f"sqlite:///{root / 'gradebook.db'}")
    steps: dict[str, float] = {}
    started = time.perf_counter()
    with TreeCPU() as cpu:
        results = grade_run(course, tasks, default_workers(), root / "out", root / "feedback",
                            log=lambda *a: None, timings=steps)
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "cpu": cpu.seconds, "sandboxed": sandboxed, "steps": steps,
            "scores": {f"{r.student}/{r.assignment}": r.score for r in results}}


# -- the floor --------------------------------------------------------------------------------
def _kernel_cpu(pid: int, last: float) -> float:
    import psutil

    try:
        times = psutil.Process(pid).cpu_times()
        return times.user + times.system
    except psutil.Error:  # the kernel is gone (a notebook that ended it): its last reading
        return last


def floor_one(path: Path, cell_timeout: float) -> tuple[float, float]:
    """``(kernel start, CPU of its imports and cells)`` of one notebook run in a plain kernel, in its folder.

    A kernel that dies or does not answer before its first cell is started again, up to
    :data:`toolfaults.progress.KERNEL_START_ATTEMPTS` kernels, as the grader and the helper package do (a
    loaded machine's doing, not the notebook's); the start counted is the one that answered.
    """
    import nbformat
    from nbclient import NotebookClient

    from toolfaults.progress import KERNEL_START_ATTEMPTS

    nb = nbformat.read(path, as_version=4)
    for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
        client = NotebookClient(nb, timeout=cell_timeout, kernel_name="python3", allow_errors=True,
                                interrupt_on_timeout=True, resources={"metadata": {"path": str(path.parent)}})
        started, start = time.perf_counter(), None
        try:
            with client.setup_kernel(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL):  # its start-up warnings
                start = time.perf_counter() - started
                return start, _cells_cpu(client, nb)
        except RuntimeError:  # "Kernel died before replying to kernel_info", "Kernel didn't respond ..."
            if start is not None or attempt == KERNEL_START_ATTEMPTS:
                raise
    raise AssertionError("not reached: the last attempt returns or raises")


def _cells_cpu(client: Any, nb: Any) -> float:
    """The CPU the started kernel of ``client`` uses running the code cells of ``nb``."""
    pid = client.km.provisioner.pid
    before = used = _kernel_cpu(pid, 0.0)
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        try:
            client.execute_cell(cell, index)
        except Exception:  # noqa: BLE001 - a dead kernel, a cell that would not stop: what it used counts
            break
        finally:
            used = _kernel_cpu(pid, used)
    return max(0.0, used - before)


def floor(tasks: list, autograded: Path, cell_timeout: float) -> dict[str, Any]:
    """The floor of ``tasks``: every notebook nbgrader autograded, in a plain kernel; the sum over the cores."""
    starts, cpu = 0.0, 0.0
    for task in tasks:
        for path in sorted((autograded / task.student / task.assignment).glob("*.ipynb")):
            start, used = floor_one(path, cell_timeout)
            starts, cpu = starts + start, cpu + used
    cores = os.cpu_count() or 1
    return {"seconds": (starts + cpu) / cores, "kernel_starts": starts, "cpu": cpu, "cores": cores}


# -- the section ------------------------------------------------------------------------------
def compare_scope(args: argparse.Namespace, scope: str, tmp: Path) -> dict[str, Any]:
    """The three figures on one scope's submissions, printed and returned."""
    from autograder.course import load_config

    submitted = Path(args.submitted)
    tasks = class_tasks(submitted, scope, args.submissions)
    print(f"  {scope}: {len(tasks)} submissions of {len({t.student for t in tasks})} students, "
          f"{len({t.assignment for t in tasks})} assignments  [{load()}]", flush=True)
    plain = plain_nbgrader(tasks, submitted, tmp / f"plain-{scope}")
    print(f"    plain nbgrader autograde (one assignment after another, unsandboxed): {plain['seconds']:.1f} s, "
          f"CPU {plain['cpu']:.0f} s{'; nbgrader failed on: ' + str(plain['failed']) if plain['failed'] else ''}  "
          f"[{load()}]", flush=True)
    ours = default_path(tasks, submitted, tmp / f"default-{scope}", args.unsandboxed)
    print(f"    the default path ({'sandboxed' if ours['sandboxed'] else 'unsandboxed'}, every check): "
          f"{ours['seconds']:.1f} s, CPU {ours['cpu']:.0f} s  [{load()}]", flush=True)
    least = floor(tasks, plain["autograded"], float(load_config().Execute.timeout))
    print(f"    floor (plain kernel starts {least['kernel_starts']:.1f} s + imports and cells' CPU "
          f"{least['cpu']:.1f} s, over {least['cores']} cores): {least['seconds']:.1f} s  [{load()}]", flush=True)
    vs_plain = plain["seconds"] / ours["seconds"] if ours["seconds"] else float("nan")
    vs_floor = ours["seconds"] / least["seconds"] if least["seconds"] else float("nan")
    differ = sorted(k for k, v in plain["scores"].items() if v is not None and ours["scores"].get(k) != v)
    goals = scope == "well-behaved"
    print(f"    default path vs plain nbgrader: {vs_plain:.2f}x faster"
          + (f" (goal: at least {GOALS['vs_plain']}x)" if goals else "")
          + f"; vs the floor: {vs_floor:.2f}x" + (f" (goal: within {GOALS['vs_floor']}x)" if goals else "")
          + f"; scores that differ from plain nbgrader's: {len(differ)} {differ[:6]}", flush=True)
    return {"submissions": len(tasks), "plain_nbgrader_s": round(plain["seconds"], 2),
            "plain_nbgrader_cpu_s": round(plain["cpu"], 1), "default_path_s": round(ours["seconds"], 2),
            "default_path_cpu_s": round(ours["cpu"], 1), "sandboxed": ours["sandboxed"],
            "floor_s": round(least["seconds"], 2), "floor_kernel_starts_s": round(least["kernel_starts"], 2),
            "floor_cpu_s": round(least["cpu"], 2), "cores": least["cores"], "vs_plain": round(vs_plain, 3),
            "vs_floor": round(vs_floor, 3), "scores_differ": differ, "load": load()}


def bench_compare(args: argparse.Namespace) -> dict[str, Any]:
    """Plain nbgrader, the default path and the floor, on the well-behaved submissions and on the whole class."""
    scopes = SCOPES if args.scope == "both" else (args.scope,)
    with tempfile.TemporaryDirectory(prefix="bench-compare-") as tmp:
        return {scope: compare_scope(args, scope, Path(tmp)) for scope in scopes}
