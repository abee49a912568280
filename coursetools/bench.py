"""Speed figures, measured in one run (what `make bench` prints).

    python -m coursetools.bench                  # every section
    python -m coursetools.bench compare          # only some: compare, lessons, grading, notebook, sandbox, simulator
    python -m coursetools.bench compare --scope well-behaved --submissions 6   # a small run
    python -m coursetools.bench grading --submissions 30 --workers 2

Sections (each a function ``(args) -> dict`` in :data:`SECTIONS`; add new ones there):

``compare``   what an instructor feels: on the same submissions of the sample class, plain
              ``nbgrader autograde`` (sequential, unsandboxed, the course's nbgrader_config.py,
              in a scratch course folder), the grade command's default path with all its
              checks, and the floor (kernel start, imports and the cells' own CPU, divided
              by the cores); on the well-behaved submissions and on the whole class
              (:mod:`coursetools.benchcompare`; goals: at least 2.5x faster than plain
              nbgrader, within 1.5x of the floor, on the well-behaved submissions).

``lessons``   how long each lesson notebook in ``course/`` takes to execute
              (nbclient, offline, as the lesson tests run them).
``notebook``  one submission of each graded exercise, graded as `make grade` does, its
              time broken down (kernel start, sandbox, setup imports, test cells,
              nbgrader, gradebook writes, the clean-room re-run) next to the floor: a
              plain kernel that runs only the setup imports. A graded kernel is forked
              from a warm one with the setup imports done (autograder.kernelfork).
``sandbox``   kernel start-up plain vs inside the grading sandbox (bubblewrap): the
              overhead per graded notebook; and a kernel forked in the sandbox.
``simulator`` lesson 5's thundering-herd simulator: 1,000 clients under every backoff
              strategy, best of ``--repeat`` + 2 (the widget redraws it on every
              slider move; the tests check what it computes, not how fast).
``grading``   a class of at least 24 submissions from the sample class, graded one at
              a time and on a Dask LocalCluster (`make grade`'s default) by the grade
              command's own ``run`` (generate, grade, write the outputs; the cluster's
              start-up and shutdown are inside the timing), in scratch courses with the
              same settings as `make grade`, alternating for ``--repeat`` rounds (the
              best time of each way counts; every round is printed with its steps):
              throughput, the ratios (whole run, and the grading step alone), CPU
              seconds, and whether the scores are identical.

On a shared machine the figures move with the load: the load average is printed
next to each section, and both grading runs happen back to back in one process.
Results go to ``classes/sample/output/reports/bench.json`` and a figure to
``classes/sample/output/reports/bench_grading.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from autograder.course import REPORTS, ROOT, SUBMITTED, assignments
from coursetools.measure import TreeCPU, interleave, load

SLOW_RECIPES = ("loop", "stuck")  # dominated by time limits, not by grading work


# -- lessons ----------------------------------------------------------------------------------
def bench_lessons(args: argparse.Namespace) -> dict[str, Any]:
    import nbformat
    from nbclient import NotebookClient

    os.environ.setdefault("MPLBACKEND", "Agg")
    os.environ["TOOLFAULTS_MODE"] = "offline"
    course = ROOT / "course"
    rows = []
    for path in sorted(course.glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        started = time.perf_counter()
        error = ""
        try:
            NotebookClient(nb, timeout=300, kernel_name="python3",
                           resources={"metadata": {"path": str(course)}}).execute()
        except Exception as err:  # noqa: BLE001 - reported in the table
            error = f"{type(err).__name__}: {str(err).splitlines()[0][:80] if str(err) else ''}"
        seconds = time.perf_counter() - started
        cells = sum(c.cell_type == "code" for c in nb.cells)
        rows.append({"notebook": path.name, "seconds": round(seconds, 2), "code_cells": cells, "error": error})
        print(f"  {path.name:<40} {seconds:6.1f} s  ({cells} code cells){'  ' + error if error else ''}", flush=True)
    total = sum(r["seconds"] for r in rows)
    print(f"  {'total':<40} {total:6.1f} s")
    return {"notebooks": rows, "total_seconds": round(total, 2)}


# -- grading ----------------------------------------------------------------------------------
def bench_tasks(submissions: Path, count: int) -> list:
    """``count`` sample-class submissions (without the time-limit ones), spread over assignments."""
    from autograder.pool import Task
    from coursetools.sample_class import CLASS, kind

    tasks = []
    for student, plan in sorted(CLASS.items()):
        for assignment, recipe in sorted(plan.items()):
            if kind(recipe) not in SLOW_RECIPES and (submissions / student / assignment).is_dir():
                tasks.append(Task(assignment, student))
    picked = interleave(sorted(tasks))[:count]
    return sorted(picked)


MODES = {  # mode: (its label, the grade command's workers; None = all cores)
    "sequential": ("one at a time (--workers 1)", 1),
    "dask": ("Dask LocalCluster (the default)", None),
}


def _grading_settings(args: argparse.Namespace) -> tuple[dict[str, dict[str, Any]], bool]:
    """The grade command's settings, and whether they sandbox (measured unsandboxed where the sandbox cannot run)."""
    from autograder.grade import grading_settings
    from autograder.sandbox import SandboxUnavailable

    try:
        return grading_settings(unsandboxed=args.unsandboxed, stream=sys.stdout), not args.unsandboxed
    except SandboxUnavailable as err:  # the sample class is the course's own code: measure without it
        print(f"  (no sandbox here, measuring unsandboxed: {str(err).splitlines()[0]})")
        return grading_settings(unsandboxed=True, stream=sys.stdout), False


def _grading_round(settings: dict, tasks: list, submissions: Path, root: Path, mode: str, workers: int,
                   runs: dict[str, dict[str, Any]], round_: int) -> None:
    """Round ``round_``'s grading of ``tasks`` in ``mode``, in a scratch course at ``root``; its figures added to
    ``runs``."""
    from autograder.grade import make_course
    from autograder.grade import run as grade_run

    root.mkdir()
    course = make_course(settings, root / "release", root=root, submissions=submissions,
                         staging=root / "staging", autograded_directory="autograded",
                         feedback_directory="feedback", db_url=f"sqlite:///{root / 'gradebook.db'}")
    label, n = MODES[mode]
    print(f"  round {round_}, {label}... ", end="", flush=True)
    steps: dict[str, float] = {}
    started = time.perf_counter()
    with TreeCPU() as cpu:
        results = grade_run(course, tasks, n or workers, root / "out", root / "feedback",
                            log=lambda *a: None, timings=steps)
    seconds = time.perf_counter() - started
    spread = _spread(results)
    print(f"{seconds:.1f} s ({len(tasks) / seconds:.2f} submissions/s; per worker: {spread}); "
          f"CPU {cpu.seconds:.1f} s, {cpu.seconds / len(tasks):.2f} s per submission  [{load()}]", flush=True)
    print("      " + _steps(steps), flush=True)
    one = runs.setdefault(mode, {"times": [], "scores": None, "same": True, "per_worker": [], "cpu": [],
                                 "grading": []})
    one["times"].append(round(seconds, 2))
    one["grading"].append(round(steps["grade"], 2))
    one["cpu"].append(round(cpu.seconds, 2))
    one["per_worker"].append(spread)
    scores = {f"{r.student}/{r.assignment}": (r.score, r.status) for r in results}
    one["same"] = one["same"] and (one["scores"] is None or one["scores"] == scores)
    one["scores"] = scores


def bench_grading(args: argparse.Namespace) -> dict[str, Any]:
    """One class graded one at a time and on a Dask LocalCluster (`make grade`'s default), round after round."""
    from autograder.pool import default_workers

    submissions = Path(args.submitted)
    tasks = bench_tasks(submissions, args.submissions or 24)
    workers = args.workers or default_workers()
    settings, sandboxed = _grading_settings(args)
    print(f"  {len(tasks)} submissions of {len({t.student for t in tasks})} students, "
          f"{len({t.assignment for t in tasks})} assignments; {'sandboxed' if sandboxed else 'unsandboxed'} kernels; "
          f"{workers} workers; each run is `make grade`'s own (autograder.grade.run): generate the assignments, "
          f"grade, write grades, feedback and the report; the LocalCluster starts and stops inside the timing, "
          f"as `make grade` starts and stops it")
    runs: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-grading-") as tmp:
        for round_ in range(1, args.repeat + 1):
            for mode in MODES:
                _grading_round(settings, tasks, submissions, Path(tmp) / f"{mode}-{round_}", mode, workers, runs,
                               round_)
    return _grading_summary(args, runs, tasks, workers, sandboxed)


def _grading_summary(args: argparse.Namespace, runs: dict[str, dict[str, Any]], tasks: list, workers: int,
                     sandboxed: bool) -> dict[str, Any]:
    """Print the rounds' figures (best of each way, ratios, CPU, identical scores); what bench.json keeps."""
    best = {mode: min(run["times"]) for mode, run in runs.items()}
    ratio = {"dask_vs_sequential": round(best["sequential"] / best["dask"], 3)}
    per_round = [round(s / d, 3) for s, d in zip(runs["sequential"]["times"], runs["dask"]["times"])]
    reference = runs["sequential"]["scores"]
    identical = all(run["same"] and run["scores"] == reference for run in runs.values())
    print(f"  throughput, best of {args.repeat} (submissions/s): "
          + ", ".join(f"{MODES[m][0]} {len(tasks) / best[m]:.2f}" for m in MODES))
    print(f"  Dask LocalCluster vs one at a time: {ratio['dask_vs_sequential']:.2f}x "
          f"(each round: {', '.join(f'{r:.2f}x' for r in per_round)})")
    grading = {mode: min(run["grading"]) for mode, run in runs.items()}
    ratio["grading_dask_vs_sequential"] = round(grading["sequential"] / grading["dask"], 3)
    print(f"  the grading step alone (without generating and writing, which take the same time in both): "
          f"{grading['sequential']:.1f} s vs {grading['dask']:.1f} s, {ratio['grading_dask_vs_sequential']:.2f}x")
    cpu = {mode: min(run["cpu"]) for mode, run in runs.items()}
    print("  CPU seconds (this process and all it started; the machine's other work does not count): "
          + ", ".join(f"{MODES[m][0]} {cpu[m]:.0f} s" for m in MODES)
          + f"; the Dask run's own cost: {cpu['dask'] - cpu['sequential']:+.0f} s (cluster, workers' warm-up, merging)")
    print(f"  estimate for an idle machine (one at a time keeps one core busy, Dask keeps {workers}): "
          f"{cpu['sequential']:.0f} s vs {cpu['dask'] / workers:.0f} s, "
          f"{cpu['sequential'] / (cpu['dask'] / workers):.2f}x")
    print(f"  scores identical in every run: {'yes' if identical else 'NO'}")
    if not identical:
        for mode, run in runs.items():
            for key in sorted(reference):
                if run["scores"].get(key) != reference[key]:
                    print(f"    {key}: one at a time {reference[key]} vs {mode} {run['scores'].get(key)}")
    figure = _figure(best, workers, len(tasks), REPORTS / "bench_grading.png")
    print(f"  figure: {figure.relative_to(ROOT) if figure.is_relative_to(ROOT) else figure}")
    return {"submissions": len(tasks), "workers": workers, "sandboxed": sandboxed,
            **{f"{mode}_seconds": run["times"] for mode, run in runs.items()},
            **{f"{mode}_per_worker": run["per_worker"] for mode, run in runs.items()},
            **{f"{mode}_cpu_seconds": run["cpu"] for mode, run in runs.items()},
            **ratio, "dask_vs_sequential_per_round": per_round, "identical_scores": identical}


def _steps(steps: dict[str, float]) -> str:
    """Where a run's time went, e.g. "generate 1.9 s, grade 52.1 s, write 0.8 s; the LocalCluster was up 2.6 s
    after it started (while the assignments were generated) and shut down in 1.4 s (while the outputs were written)"."""
    text = ", ".join(f"{step} {steps[step]:.1f} s" for step in ("generate", "grade", "write") if step in steps)
    if "cluster_up" in steps:
        text += (f"; the LocalCluster was up {steps['cluster_up']:.1f} s after it started (while the assignments "
                 f"were generated) and shut down in {steps['cluster_close']:.1f} s (while the outputs were written)")
    return text


def _spread(results: list) -> str:
    """How the submissions were shared among the processes that graded them, e.g. "13+11".

    A figure, not a check: on a busy machine Dask may hand most tasks to the worker that
    started first, and the tests assert only that workers (not this process) graded.
    """
    from collections import Counter

    return "+".join(str(n) for n in sorted(Counter(r.worker for r in results).values(), reverse=True))


def _figure(best: dict[str, float], workers: int, n: int, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 2.8))
    modes = list(MODES)[::-1]
    labels = [MODES[m][0].replace(" (", "\n(") for m in modes]
    values = [best[m] for m in modes]
    colours = {"sequential": "#8c959f", "dask": "#2da44e", "processes": "#57606a"}
    bars = ax.barh(labels, values, color=[colours[m] for m in modes])
    for bar, value in zip(bars, values):
        ax.text(value, bar.get_y() + bar.get_height() / 2, f" {value:.0f} s", va="center", fontsize=9)
    ax.set_xlabel("seconds to grade the class")
    ax.set_xlim(0, max(values) * 1.25)
    ax.tick_params(axis="y", labelsize=8)
    ax.set_title(f"Grading {n} submissions: {best['sequential'] / best['dask']:.2f}x faster on a "
                 f"{workers}-worker LocalCluster", fontsize=10, loc="left")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# -- sandbox ----------------------------------------------------------------------------------
def bench_sandbox(args: argparse.Namespace) -> dict[str, Any]:
    """Kernel start-up plain vs in the bubblewrap sandbox: the sandbox's cost per graded notebook."""
    from autograder.sandbox import SandboxUnavailable, check_sandbox, startup_overhead

    try:
        check_sandbox()
    except SandboxUnavailable as err:
        print(f"  skipped: {str(err).splitlines()[0]}")
        return {"skipped": str(err).splitlines()[0]}
    f = startup_overhead(runs=max(3, args.repeat * 2))
    print(f"  kernel start-up: plain {f['plain_s'] * 1000:.0f} ms, sandboxed {f['sandboxed_s'] * 1000:.0f} ms; "
          f"overhead {f['overhead_s'] * 1000:+.0f} ms per notebook (x{f['ratio']:.2f}, best of {f['runs']}; "
          f"medians {f['median_plain_s'] * 1000:.0f} vs {f['median_sandboxed_s'] * 1000:.0f} ms)")
    print(f"  a kernel forked from the warm kernel process, sandboxed, as grading starts it: "
          f"{f['forked_s'] * 1000:.0f} ms (median {f['median_forked_s'] * 1000:.0f} ms), with the setup imports done")
    return {k: round(v, 4) if isinstance(v, float) else v for k, v in f.items()}


# -- backoff simulator ------------------------------------------------------------------------
def bench_simulator(args: argparse.Namespace) -> dict[str, Any]:
    """Seconds to simulate 1,000 clients under every strategy (lesson 5's widget), best of several runs."""
    from toolfaults.backoff import compare

    compare(50)  # imports and numpy's first calls out of the timing
    times = []
    for _ in range(args.repeat + 2):
        started = time.perf_counter()
        results = compare(1000, base=0.1, cap=10.0)
        times.append(time.perf_counter() - started)
    calls = {s: r.total_calls for s, r in results.items()}
    print(f"  1,000 clients, {len(results)} strategies: best {min(times) * 1000:.0f} ms, "
          f"median {sorted(times)[len(times) // 2] * 1000:.0f} ms of {len(times)} runs (goal: well under 1 s); "
          "calls: " + ", ".join(f"{s} {n}" for s, n in calls.items()))
    return {"clients": 1000, "best_s": round(min(times), 4), "runs_s": [round(t, 4) for t in times], "calls": calls}


# -- one notebook ------------------------------------------------------------------------------
def _setup_imports(nb) -> str:
    """The import lines of a notebook's code cells before its first answer cell (its setup)."""
    lines = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        if cell.metadata.get("nbgrader", {}).get("solution"):
            break
        lines += [line for line in cell.source.splitlines() if line.startswith(("import ", "from "))]
    return "\n".join(lines)


def bench_notebook(args: argparse.Namespace) -> dict[str, Any]:
    """Where one graded notebook's time goes, for each of ``--assignment`` (default: every graded one).

    See :func:`bench_one_notebook`; ends with one line per assignment: its cost, its floor
    and how far it is from the budget (floor + 1 s).
    """
    names = args.assignment or [a for a in assignments() if not a.endswith("_es")]
    figures = {}
    for name in names:
        figures[name] = bench_one_notebook(args, name)
    print("  summary (this notebook / floor / budget = floor + 1 s):")
    for name, f in figures.items():
        over = f["total_s"] - f["floor_s"] - 1
        print(f"    {name:<30} {f['total_s']:5.2f} s / {f['floor_s']:5.2f} s / {f['floor_s'] + 1:5.2f} s  "
              f"{'within the budget' if over <= 0 else f'{over:+.2f} s over'} "
              f"(its own cells: {f['test cells and answers']:.2f} s in the kernel)")
    return figures


def _timed_grading(args: argparse.Namespace, settings: dict, assignment: str) -> dict[str, Any]:
    """Grade ``--student``'s ``assignment`` twice in a scratch course, the second time step by step.

    Returns the seconds of each step (``spent``), of the second grading (``total``), of the first
    (``first``) and of generating the assignment (``generate``), its result and the source notebook.
    """
    import nbformat
    from nbgrader.preprocessors import SaveAutoGrades

    from autograder import pipeline
    from autograder.grade import make_course
    from autograder.preprocessors import GuardedExecute

    spent: dict[str, float] = {}
    patched: list[tuple[Any, str, Any]] = []

    def timed(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)
        patched.append((owner, name, original))

        def wrapper(*a: Any, **k: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                spent[label] = spent.get(label, 0.0) + time.perf_counter() - started
        setattr(owner, name, wrapper)

    with tempfile.TemporaryDirectory(prefix="bench-notebook-") as tmp:
        root = Path(tmp)
        course = make_course(settings, root / "release", root=root, submissions=Path(args.submitted),
                             staging=root / "staging", autograded_directory="autograded",
                             feedback_directory="feedback", db_url=f"sqlite:///{root / 'gradebook.db'}")
        started = time.perf_counter()
        course.generate(assignment)
        generate = time.perf_counter() - started
        started = time.perf_counter()
        course.autograde(assignment, args.student)
        first = time.perf_counter() - started
        timed(pipeline, "stage", "staging")
        timed(pipeline, "cross_check", "clean-room re-run and code scan (crosscheck)")
        timed(pipeline, "read_back", "reading results")
        timed(pipeline, "diagnose", "diagnosis")
        timed(SaveAutoGrades, "preprocess", "gradebook writes (SaveAutoGrades)")
        execute = [p for p in course.config.Autograde.autograde_preprocessors
                   if isinstance(p, type) and issubclass(p, GuardedExecute)][0]
        timed(execute, "preprocess", "running the notebook (kernel + cells)")
        timed(course.api, "autograde", "nbgrader autograde (all of it)")
        started = time.perf_counter()
        try:
            result = course.autograde(assignment, args.student)
        finally:
            for owner, name, original in reversed(patched):
                setattr(owner, name, original)
        total = time.perf_counter() - started
        solution = nbformat.read(Path(course.source) / assignment / f"{assignment}.ipynb", as_version=4)
    return {"spent": spent, "total": total, "first": first, "generate": generate, "result": result,
            "solution": solution}


def _setup_floor(solution: Any) -> float:
    """Seconds a plain kernel takes to start and run the setup imports of ``solution`` (best of three: one start
    can be slowed by anything else on the machine)."""
    import nbformat
    from nbclient import NotebookClient

    floor_nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_setup_imports(solution))])
    floors = []
    for _ in range(3):
        started = time.perf_counter()
        NotebookClient(nbformat.from_dict(floor_nb), timeout=120, kernel_name="python3").execute()
        floors.append(time.perf_counter() - started)
    return min(floors)


def _notebook_rows(spent: dict[str, float], total: float, floor: float, boxed: float, plain: float,
                   sandboxed: bool, forked: bool) -> dict[str, float]:
    """Where the notebook's time went, step by step (the kernel's start and imports from the measured starts)."""
    run = spent.get("running the notebook (kernel + cells)", 0.0)
    nbgrader_all = spent.get("nbgrader autograde (all of it)", 0.0)
    imports = max(0.0, floor - plain)
    start = boxed if sandboxed else plain
    paid = 0.0 if forked else imports
    writes = spent.get("gradebook writes (SaveAutoGrades)", 0.0)
    ours = ("staging", "reading results", "diagnosis", "clean-room re-run and code scan (crosscheck)")
    rows = {
        **({"kernel start (a fork of a warm kernel, sandboxed)": boxed} if forked else
           {"kernel start (plain)": plain, "sandbox (extra kernel start)": boxed - plain if sandboxed else 0.0}),
        "setup imports" + (" (done once, by the warm kernel)" if forked else ""): paid,
        "test cells and answers": max(0.0, run - start - paid),
        "nbgrader pre/post-processing": max(0.0, nbgrader_all - run - writes),
        "gradebook writes (SaveAutoGrades)": writes,
        **{label: spent.get(label, 0.0) for label in ours},
    }
    rows["other (copies, bookkeeping)"] = max(0.0, total - nbgrader_all - sum(spent.get(k, 0.0) for k in ours))
    return rows


def bench_one_notebook(args: argparse.Namespace, assignment: str) -> dict[str, Any]:
    """Where one graded notebook's time goes: kernel start, sandbox, imports, test cells, nbgrader, gradebook.

    Grades ``--student``'s submission of ``assignment`` twice in a scratch course as
    `make grade` does (one at a time, sandboxed when possible): the first grading pays
    what a grading worker pays once (imports, the helper package's fingerprints, the
    clean-room process), the second is timed step by step, as every later task of a
    worker runs. Then measures the floor: a kernel that runs only the setup imports.
    """
    from autograder import sandbox

    settings, sandboxed = _grading_settings(args)
    graded = _timed_grading(args, settings, assignment)
    total, result = graded["total"], graded["result"]
    boxed = sandbox.kernel_start_seconds(sandboxed=sandboxed)
    plain = sandbox.kernel_start_seconds(sandboxed=False)
    floor = _setup_floor(graded["solution"])
    # A forked kernel (autograder.kernelfork) starts with the setup imports done, in the sandbox.
    forked = sandboxed and settings.get("SandboxedKernelManager", {}).get("fork", True)
    rows = _notebook_rows(graded["spent"], total, floor, boxed, plain, sandboxed, forked)
    print(f"  {args.student}/{assignment} ({result.score:g}/{result.max_score:g}), "
          f"{'sandboxed' if sandboxed else 'unsandboxed'}: {total:.2f} s in all, as a worker's later tasks "
          f"(its first: {graded['first']:.2f} s; generating the assignment first: {graded['generate']:.2f} s, "
          f"once per assignment)")
    for label, seconds in rows.items():
        print(f"    {label:<46} {seconds:6.2f} s")
    print(f"  floor (kernel start + setup imports): {floor:.2f} s; budget (floor + 1 s): {floor + 1:.2f} s; "
          f"this notebook: {total:.2f} s ({total - floor - 1:+.2f} s over the budget)")
    return {"student": args.student, "assignment": assignment, "total_s": round(total, 3),
            "first_s": round(graded["first"], 3), "load": load(),
            "floor_s": round(floor, 3), **{k: round(v, 3) for k, v in rows.items()}}


def bench_compare(args: argparse.Namespace) -> dict[str, Any]:
    """Plain nbgrader, the default path and the floor on the same submissions (:mod:`coursetools.benchcompare`)."""
    from coursetools.benchcompare import bench_compare as compare

    return compare(args)


SECTIONS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "compare": bench_compare,
    "lessons": bench_lessons,
    "grading": bench_grading,
    "sandbox": bench_sandbox,
    "notebook": bench_notebook,
    "simulator": bench_simulator,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m coursetools.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("sections", nargs="*", choices=[[], *SECTIONS], default=[],
                        help=f"sections to run (default: all of {', '.join(SECTIONS)})")
    parser.add_argument("--submissions", type=int, default=None,
                        help="submissions in the grading benchmark (24) and in each scope of the comparison (all)")
    parser.add_argument("--scope", choices=["both", "well-behaved", "whole"], default="both",
                        help="the comparison's submissions: the well-behaved ones, the whole class, or both (both)")
    parser.add_argument("--workers", type=int, default=None, help="workers of the parallel run (default: cores)")
    parser.add_argument("--repeat", type=int, default=2,
                        help="rounds of (one at a time, Dask), alternating; the best of each counts (2)")
    parser.add_argument("--submitted", default=str(SUBMITTED), help="the class to grade")
    parser.add_argument("--unsandboxed", action="store_true", help="grade without the sandbox")
    parser.add_argument("--student", default="ana", help="the submission the notebook section grades (ana)")
    parser.add_argument("--assignment", action="append",
                        help="an assignment the notebook section grades (repeatable; default: every graded one)")
    args = parser.parse_args(argv)
    chosen = args.sections or list(SECTIONS)
    out: dict[str, Any] = {"started": time.strftime("%Y-%m-%d %H:%M:%S"), "cores": os.cpu_count(),
                           "assignments": assignments()}
    for name in chosen:
        print(f"\n== {name}  [{load()}]", flush=True)
        out[name] = SECTIONS[name](args)
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / "bench.json").write_text(json.dumps(out, indent=1))
    print(f"\nFigures saved in {REPORTS.relative_to(ROOT)}/ (bench.json)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
