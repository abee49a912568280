"""Re-run a graded notebook's tests in a clean room: a plain ``python`` process, no IPython.

A submission runs in the same kernel as its tests, so one line of it can change how
the kernel runs the *later* cells: an IPython input or AST transformer that empties
the test cells, a replaced ``run_cell``, an event hook or a custom exception handler
that hides a failure, a trace function that jumps over ``assert`` statements, a
patched builtin or test helper. nbgrader has no defence against that.

After nbgrader's autograde, this module runs the notebook once more, outside IPython:

- the submission's own cells, as nbgrader ran them (from the autograded copy), and the
  assignment's test cells, visible and hidden, **from the source notebook**, in order;
  but not what the kernel gave up on (cells it did not run, tests it stopped at their
  time limit, a cell stopped at its limit with nothing run after it: :func:`kernel_gave_up`),
  whose tests already score zero, so that an endless loop costs its time limit once, not twice;
- in one plain ``python -I`` process (the package :mod:`autograder.inside`), inside the
  same bubblewrap sandbox and limits as the kernel (:func:`autograder.jail.sandbox_command`),
  with the same time limits per cell and per notebook. Input and AST transformers,
  ``run_cell``, events and custom exception handlers do not exist there;
- the runner takes a snapshot of what the tests rely on before any notebook code runs
  and puts it back before each test cell, saying what it had to put back
  (:mod:`autograder.inside.checks`); a change made while a test runs fails that test.

:func:`compare` then folds the clean run into the kernel's result: each test keeps the
lower of its two scores, and a test that passed in the kernel but not in the clean
room, or anything the runner had to put back, marks the submission "needs attention"
with a plain reason. A clean run that could not finish (killed, timed out, crashed)
changes no score but marks the submission too.

    runs = rerun(sub, options)                   # {notebook: CleanRun}, sub: autograder.pipeline.Submission
    compare(result, runs, sub.assignment.hidden)

Cost: one process start, the imports the tests need and the cells' own run time;
no kernel, no ZMQ (``python -m autograder.cleanroom`` measures it).

What this module holds: which cells to run (:func:`plan`), its settings from the course's
config (:func:`settings`), one run (:func:`run`) and the reading of its results channel
(:func:`_read`), a graded submission's re-run (:func:`rerun`) and the comparison
(:func:`compare`). The processes it runs in come from :mod:`autograder.forkserver` (a fork
of a warm process, or a fresh one) inside :func:`autograder.jail.sandbox_command`; the code
they run is :mod:`autograder.inside`. It is the last of the isolation layers: nothing it
imports imports it.
"""

from __future__ import annotations

import ast
import functools
import logging
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import nbformat

from . import problems, pyast
from .forkserver import Settings, folder_files, in_sandbox, run_forked, run_fresh, runner_argv

if TYPE_CHECKING:
    from .pipeline import Submission

# The fork server's pool, as the grading workers and their tests reach it through the clean room.
from .forkserver import close_zygotes, idle_zygotes, prestart, running_zygotes, take, zygotes_started  # noqa: F401,E501

log = logging.getLogger(__name__)

# A run's time limits (Settings.cell_timeout, notebook_timeout) and the seconds it may take beyond them for its
# start-up (Settings.grace, the course's CrossCheck.grace) come from the course's configuration (settings()).

# Problem kinds this module adds to a SubmissionResult (autograder.problems holds their words).
DIFFERS = problems.DIFFERS  # a test passed in the kernel and failed here: the clean result counts
KERNEL_KEPT = problems.KERNEL_KEPT  # a test failed in the kernel and passed here: the kernel's result counts
CHANGED = problems.CHANGED
UNFINISHED = problems.UNFINISHED
OVERRULED = problems.OVERRULED  # only the helper-package check failed a test the clean room passed
CHANNEL = problems.CHANNEL  # the notebook wrote to, or kept results from, the runner's results channel


@dataclass
class CleanTest:
    """One test cell's outcome in the clean room."""

    grade_id: str
    passed: bool
    message: str = ""
    changed: list[str] = field(default_factory=list)  # what the code the test called changed


@dataclass
class CleanRun:
    """What the clean room observed for one notebook."""

    tests: dict[str, CleanTest] = field(default_factory=dict)
    changed: list[str] = field(default_factory=list)  # what was put back before the tests
    complete: bool = False
    reason: str = ""  # why the run did not complete
    seconds: float = 0.0
    planned: list[str] = field(default_factory=list)  # the tests the runner was asked to run
    order: list[str] = field(default_factory=list)  # per cell of the plan: its test id, or "" for another cell
    stopped: bool = False  # the notebook's time limit ended the run: the later tests were not run
    forked: bool = False  # run as a fork of a long-lived clean-room process (see autograder.forkserver.Zygote), not a fresh one
    damaged: list[str] = field(default_factory=list)  # what was wrong with the results channel

    def missing(self) -> list[str]:
        """Planned tests a complete run did not report: its results channel was interfered with."""
        if not self.complete or self.stopped:
            return []
        return [gid for gid in self.planned if gid not in self.tests]


# -- what to run --------------------------------------------------------------------------
def _nbgrader(cell: Any) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {})


def _kind(cell: Any) -> str:
    meta = _nbgrader(cell)
    if meta.get("grade") and not meta.get("solution"):
        return "test"
    if meta.get("solution"):
        return "answer"
    if meta.get("locked"):
        return "locked"
    return "other"


@functools.lru_cache(maxsize=2048)  # the same test and read-only cells come back in every submission
def python_source(source: str) -> str:
    """A cell's source as plain Python (IPython magics and ``!`` commands become calls).

    Args:
        source: the cell's source, as typed in the notebook.

    Returns:
        The source IPython would compile; unchanged when IPython cannot transform it.
    """
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        return TransformerManager().transform_cell(source)
    except Exception:  # noqa: BLE001 - then Python reports the syntax error, as the kernel did
        return source


def kernel_gave_up(graded: nbformat.NotebookNode) -> set[int]:
    """The indexes of the cells the kernel gave up on, which the clean room does not run again.

    - every cell the kernel did not run (after the notebook's time limit, a dead kernel, or
      a cell that kept running after it was interrupted: :class:`autograder.preprocessors.GuardedExecute`);
    - every test the kernel stopped at its time limit;
    - any other cell stopped at its time limit when nothing the clean room runs comes after it.

    Their tests score zero in the kernel, and the clean room can only lower a score, so
    running them again would only spend the same time limits a second time (an endless
    loop cost twice its limit). A test cell runs in its own copy of the namespace, so the
    cells after a skipped test run as before; an answer or setup cell stopped at its
    limit, with cells after it, is run again: what it defined before the loop counts for
    the tests after it.
    """
    from .preprocessors import CELL_TIMEOUT, NOT_RUN

    skipped: set[int] = set()
    kept_after = False
    for index in reversed(range(len(graded.cells))):
        cell = graded.cells[index]
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        errors = {out.get("ename") for out in cell.get("outputs", []) if out.get("output_type") == "error"}
        if NOT_RUN in errors or (CELL_TIMEOUT in errors and (_kind(cell) == "test" or not kept_after)):
            skipped.add(index)
        else:
            kept_after = True
    return skipped


def plan(graded: nbformat.NotebookNode, source: nbformat.NotebookNode) -> list[dict[str, str]]:
    """The cells the clean room runs, in the graded notebook's order.

    Args:
        graded: the autograded copy (the submission's cells as nbgrader ran them).
        source: the assignment's source notebook (test cells with their hidden tests).

    Returns:
        ``[{"kind", "id", "source"}]``: every code cell but those the kernel gave up on
        (:func:`kernel_gave_up`; their tests keep the kernel's zero); a test cell's source
        is taken from ``source`` by its grade id, never from the submission.
    """
    tests = {_nbgrader(c)["grade_id"]: c.source for c in source.cells
             if c.cell_type == "code" and _kind(c) == "test"}
    cells = []
    gave_up = kernel_gave_up(graded)
    for index, cell in enumerate(graded.cells):
        if cell.cell_type != "code" or not cell.source.strip() or index in gave_up:
            continue
        kind, gid = _kind(cell), _nbgrader(cell).get("grade_id", "")
        if kind == "test":
            if gid not in tests:
                continue
            text = tests[gid]
        else:
            text = cell.source
        cells.append({"kind": kind, "id": gid, "source": python_source(text)})
    return cells


def imports(cells: list[dict[str, str]], kind: str = "test") -> tuple[list[str], list[list[str]]]:
    """The modules the test cells import, and the names they take from them.

    Args:
        cells: the plan (only its cells of ``kind`` are read).
        kind: ``"test"`` (what the runner watches) or ``"locked"`` (the read-only cells).

    Returns:
        ``(modules, [[module, name], ...])`` for the runner to import and watch.
    """
    modules: set[str] = set()
    names: set[tuple[str, str]] = set()
    for cell in cells:
        if cell["kind"] == kind:
            found_modules, found_names = _imports_of(cell["source"])
            modules.update(found_modules)
            names.update(found_names)
    return sorted(modules), [list(n) for n in sorted(names)]


@functools.lru_cache(maxsize=2048)  # the same test and read-only cells come back in every submission
def _imports_of(source: str) -> tuple[frozenset[str], frozenset[tuple[str, str]]]:
    """The modules one cell imports (with their parent packages), and the ``(module, name)`` it takes from them."""
    modules: set[str] = set()
    names: set[tuple[str, str]] = set()
    try:
        tree = pyast.parse(source)
    except SyntaxError:
        return frozenset(), frozenset()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                modules.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            parts = node.module.split(".")
            modules.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            names.update((node.module, a.name) for a in node.names if a.name != "*")
    return frozenset(modules), frozenset(names)


def preloads(cells: list[dict[str, str]], modules: list[str]) -> list[str]:
    """What the read-only cells import from the packages the tests import (``toolfaults``, ``langchain_core``...).

    The runner imports them with the tests' modules, before any notebook code runs, so
    that a fresh run and a forked one (:class:`autograder.forkserver.Zygote`) start from the same modules.
    Only packages the tests already import: a module a changed read-only cell names
    elsewhere is imported by the run itself, never by the long-lived process.
    """
    roots = {m.split(".")[0] for m in modules}
    return [m for m in imports(cells, "locked")[0] if m.split(".")[0] in roots and m not in modules]


# -- how to run it ------------------------------------------------------------------------
def settings(config: Any) -> Settings:
    """The clean room's settings for a course's nbgrader ``config``.

    Args:
        config: the course's traitlets ``Config`` (as :class:`autograder.engine.Course` holds it).

    Returns:
        Sandboxed when the course's autograde is, with the kernel manager's limits, the kernel's time
        limits (a cell's: :meth:`~autograder.preprocessors.GuardedExecute.cell_limit`, the notebook's:
        ``GuardedExecute.notebook_timeout``) and ``CrossCheck.fork`` and ``grace``: each read through
        the class that declares it, as the kernel's own steps read them.
    """
    from .preprocessors import GuardedExecute
    from .sandbox import SandboxedKernelManager, is_sandboxed, sandbox_limits
    from .settings import CrossCheck

    kernel, executor, checks = (SandboxedKernelManager(config=config), GuardedExecute(config=config),
                                CrossCheck(config=config))
    return Settings(sandboxed=is_sandboxed(config), limits=sandbox_limits(lambda name: getattr(kernel, name)),
                    cell_timeout=executor.cell_limit(), notebook_timeout=float(executor.notebook_timeout),
                    fork=checks.fork, grace=checks.grace)


def command(workdir: Path, options: Settings) -> list[str]:
    """The command line of the clean room (:func:`autograder.forkserver.runner_argv`).

    Args:
        workdir: the folder the notebook runs in (the submission's autograded copy).
        options: sandboxed or not, and the sandbox's limits.

    Returns:
        ``python -I -c <boot>``, wrapped in :func:`autograder.jail.sandbox_command`
        when ``options.sandboxed``.
    """
    argv = runner_argv()
    if not options.sandboxed:
        return argv
    return in_sandbox(argv, options, workdir=workdir)


def run(cells: list[dict[str, str]], workdir: Path, options: Settings | None = None) -> CleanRun:
    """Run ``cells`` in the clean room and read back what happened.

    Args:
        cells: the plan (:func:`plan`).
        workdir: the working directory (read-only in the sandbox).
        options: how to run it (default: sandboxed, the course's default limits).

    Returns:
        The clean run. Never raises for what the notebook does: a run that dies or
        overruns is returned with ``complete=False`` and a reason.
    """
    options = options or Settings()
    started = time.monotonic()
    token = secrets.token_hex(16)
    modules, names = imports(cells)
    request = {"token": token, "cells": cells, "watch": modules, "names": names, "preload": preloads(cells, modules),
               "cell_timeout": options.cell_timeout, "notebook_timeout": options.notebook_timeout}
    outcome = CleanRun(planned=[c["id"] for c in cells if c["kind"] == "test"],
                       order=[c["id"] if c["kind"] == "test" else "" for c in cells])
    deadline_s = options.notebook_timeout + options.grace
    files = folder_files(Path(workdir)) if options.fork else None
    if files is not None:
        outcome.forked = True
        data, reason, status = run_forked(request, files, options, deadline_s)
    else:
        data, reason, status = run_fresh(command(Path(workdir), options), Path(workdir), request, options, deadline_s)
    outcome.seconds = round(time.monotonic() - started, 3)
    _read(data, token, outcome)
    if not outcome.complete:
        outcome.reason = reason or (f"the clean run stopped early (exit status {status})"
                                    if status else "the clean run stopped early")
    return outcome



def _read(data: bytes, token: str, outcome: CleanRun) -> None:
    """Read the runner's lines into ``outcome``.

    Only the runner writes to this pipe, one well-formed line per message: each cell's start
    in order, each test's result once and while that test's cell runs, nothing after "done".
    Anything else (a line without the token, one that does not parse, cells out of order, a
    result for a test that was not running or reported twice, a line after "done") means the
    notebook's code wrote to the channel: it is recorded in ``outcome.damaged``; of a test
    reported twice, a failure wins.
    """
    prefix = token.encode()
    current = -1  # the cell running now
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()  # the newline that ends the last line
    damaged = outcome.damaged

    def damage(what: str) -> None:
        if what not in damaged and len(damaged) < 10:
            damaged.append(what)

    for number, line in enumerate(lines, 1):
        if outcome.complete:
            damage("a line came after the run's end")
            break
        msg = None
        if line.startswith(prefix):
            try:
                msg = pyast.literal_eval(line[len(prefix):].decode("utf-8", "replace"))
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                msg = None
        if not isinstance(msg, dict):
            if number < len(lines) or data.endswith(b"\n"):  # not the last line cut short by a stop
                damage("a line that is not the runner's")
            continue
        kind = msg.get("kind")
        if kind == "cell":
            if msg.get("index") != current + 1:
                damage("the cells were reported out of order")
            current = msg.get("index") if isinstance(msg.get("index"), int) else current
        elif kind == "test":
            gid = str(msg.get("id"))
            if not (0 <= current < len(outcome.order) and outcome.order[current] == gid):
                damage(f"a result for the test {gid} came while it was not running")
                continue  # not the runner's: ignored
            test = CleanTest(gid, msg.get("passed") is True, str(msg.get("message", "")),
                             [str(w) for w in msg.get("what", [])])
            earlier = outcome.tests.get(gid)
            if earlier is not None:  # the runner reports a test once: one report is forged; a failure wins
                damage(f"the test {gid} was reported twice")
                if earlier.passed and not test.passed:
                    outcome.tests[gid] = test
                continue
            outcome.tests[gid] = test
        elif kind == "finding":
            outcome.changed += [str(w) for w in msg.get("what", []) if str(w) not in outcome.changed]
        elif kind == "stopped":
            outcome.stopped = True
            outcome.reason = "the notebook used up its time limit in the clean run"
        elif kind == "done":
            outcome.complete = True


# -- a graded submission ----------------------------------------------------------------------
def rerun(sub: Submission, options: Settings) -> dict[str, CleanRun]:
    """Re-run every notebook of one submission in the clean room (each its :meth:`~autograder.pipeline.Submission.checked_copy`).

    Args:
        sub: the submission (:class:`autograder.pipeline.Submission`).
        options: how to run it (:func:`settings`).

    Returns:
        ``notebook name -> CleanRun`` for each notebook that has an autograded or a staged copy.
    """
    runs = {}
    for name in sub.assignment.notebooks:
        found = sub.checked_copy(name)
        if found is None:
            continue
        graded, workdir = found
        runs[name] = run(plan(graded, sub.assignment.sources[name]), workdir, options)
        log.debug("clean room %s/%s/%s: %.2f s", sub.student, sub.assignment.name, name, runs[name].seconds)
    return runs


def _points(value: float) -> str:
    return f"{value:g}"


def compare(result: Any, runs: dict[str, CleanRun],
            hidden: tuple[str, ...] = ()) -> list[tuple[str, str, float]]:
    """Fold the clean runs into a graded result: each test keeps the lower of its two scores,
    except where only the grader's own helper-package check failed it in the kernel.

    That check (:mod:`autograder.guard`) can be wrong; the clean room cannot be fooled by
    what it checks, since it puts the package back before every test. So a test that
    failed in the kernel *only with the check's message* and passed in a clean run that
    had nothing to put back and no damage keeps the clean room's score
    (:data:`OVERRULED`, "needs attention", both scores said): a false alarm costs the
    student nothing the clean room proves they earned. Every other disagreement keeps
    the lower score. ``docs/instructors.md`` states the same rule.

    Args:
        result: the kernel's :class:`autograder.engine.SubmissionResult` (changed in place).
        runs: the clean runs of its notebooks (:func:`rerun`).
        hidden: lines of hidden tests, removed from any message shown.

    Returns:
        ``[(notebook, grade_id, points)]`` of the tests whose score changed (for the gradebook).
        Adds "needs attention" problems: tests that passed only in the kernel, tests the
        helper-package check alone failed, what the clean room had to put back, a clean run
        that did not finish.
    """
    from .guard import TAMPERED
    from .testcells import redact

    clean = {gid: t for r in runs.values() for gid, t in r.tests.items()}
    notebook_of = {gid: name for name, r in runs.items() for gid in r.tests}
    for name, r in runs.items():  # a complete run that did not report a test: it counts as failed there
        for gid in r.missing():
            clean[gid] = CleanTest(gid, False, "This test gave no result when re-run in a clean Python process.")
            notebook_of[gid] = name
    trusted = {name for name, r in runs.items() if r.complete and not r.changed and not r.damaged}
    kernel_score = sum(t.points for t in result.tests)
    lowered, raised, overruled, cells = [], [], [], []
    for test in result.tests:
        other = clean.get(test.grade_id)
        if other is None:
            continue
        if test.passed and not other.passed:
            lowered.append(test.description)
            cells.append((notebook_of[test.grade_id], test.grade_id, 0.0))
            test.passed, test.points = False, 0.0
            message = other.message.removeprefix("AssertionError: ")  # as the kernel's messages read
            test.message = redact(message or "This test failed when re-run.", hidden)
        elif other.passed and not test.passed:
            if (test.message.removeprefix("AssertionError: ").startswith(TAMPERED)
                    and notebook_of[test.grade_id] in trusted and not other.changed):
                overruled.append(test.description)
                cells.append((notebook_of[test.grade_id], test.grade_id, test.max_points))
                test.passed, test.points, test.message = True, test.max_points, ""
            else:
                raised.append(test.description)
    result.score = sum(t.points for t in result.tests)
    if overruled:
        scores = f"{_points(kernel_score)}/{_points(result.max_score)}", \
            f"{_points(result.score)}/{_points(result.max_score)}"
        result.flag(OVERRULED, n=len(overruled), tests=overruled, kernel=scores[0], clean=scores[1])
    changed = sorted({w for r in runs.values() for w in r.changed}
                     | {w for t in clean.values() for w in t.changed})
    if changed:
        result.flag(CHANGED, changes=changed)
    if lowered:
        result.flag(DIFFERS, n=len(lowered), tests=lowered)
    if raised:
        result.flag(KERNEL_KEPT, n=len(raised), tests=raised)
    damaged = sorted({d for r in runs.values() for d in r.damaged}
                     | {f"no result for {len(r.missing())} test(s)" for r in runs.values() if r.missing()})
    if damaged:
        result.flag(CHANNEL, damage=damaged)
    unfinished = [r.reason for r in runs.values() if not r.complete and r.reason]
    if unfinished:
        result.flag(UNFINISHED, reason=unfinished[0])
    return cells


def main(argv: list[str] | None = None) -> int:
    """Print the cost of one clean run of each assignment's own solution: fresh, and forked."""
    import argparse
    import resource
    import tempfile

    from .course import SOLUTIONS, assignments

    argparse.ArgumentParser(prog="python -m autograder.cleanroom",
                            description="Print the cost of one clean run of each assignment's own solution "
                                        "(in the sandbox): in a fresh process, and forked from a clean-room "
                                        "process that already ran once (as a grading worker's later runs are); "
                                        "and the fresh run's CPU time without the sandbox.").parse_args(argv)

    for name in assignments():
        nb = nbformat.read(next((SOLUTIONS / name).glob("*.ipynb")), as_version=4)
        with tempfile.TemporaryDirectory(prefix="cleanroom-") as tmp:
            fresh = run(plan(nb, nb), Path(tmp), Settings(fork=False))  # sandboxed, as make grade runs it
            run(plan(nb, nb), Path(tmp))  # the clean-room process imports the tests' modules
            forked = run(plan(nb, nb), Path(tmp))
            # CPU time is only seen without the sandbox (bwrap's processes are not accounted to us)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            run(plan(nb, nb), Path(tmp), Settings(sandboxed=False, fork=False))
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        for label, done in (("fresh", fresh), ("forked", forked)):
            passed = sum(t.passed for t in done.tests.values())
            print(f"{name} {label}: {done.seconds:.2f} s wall in the sandbox{f', {cpu:.2f} s CPU' if label == 'fresh' else ''}, "
                  f"{passed}/{len(done.tests)} tests passed{'' if done.complete else ', unfinished: ' + done.reason}"
                  f"{' ' + str(done.changed) if done.changed else ''}")
    close_zygotes()
    return 0


if __name__ == "__main__":
    sys.exit(main())
