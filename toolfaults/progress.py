"""How far along am I? Run the visible tests of every exercise on your own notebooks.

``make progress`` (or ``python -m toolfaults.progress``) and the cell on the
course's index page run each exercise notebook under ``exercises/`` the way
*Restart Kernel and Run All Cells* would, but on a scratch copy in a temporary
folder, with a fresh kernel, offline (``TOOLFAULTS_MODE=offline``, no API key).
Your notebooks are only read: nothing is saved, no output is added, no file
appears next to them. The result is one row per part of each exercise::

    exercise                     part                     visible tests  status
    04_validate_then_execute     Part A: convert_temperature       3/8   in progress
    04_validate_then_execute     Part B: lookup_country            0/3   not started

A part is **not started** while its answer cell still holds the stub's
``raise NotImplementedError()`` and no visible test passes, **done** when every visible
test passes, and **in progress** in between. Hidden tests are not run: they
are not in your notebook (and a solution notebook's ``### BEGIN HIDDEN TESTS``
blocks are skipped), so *done* means "passes what you can see", not a grade.

The table speaks the language chosen with :func:`toolfaults.language.use_language`,
and :func:`show_progress` lists that language's edition of the exercises (the
Spanish ones are the folders ending in ``_es``)::

    >>> from toolfaults.language import use_language
    >>> _ = use_language("es")
    >>> row = PartProgress("05_retry_with_backoff_es", "Parte A: resilient_invoke", (TestOutcome("test_a", True),))
    >>> print(format_table([row]))
    ejercicio                 parte                      tests visibles  estado
    05_retry_with_backoff_es  Parte A: resilient_invoke             1/1  hecho
    <BLANKLINE>
    1 de 1 partes hechas, 0 en curso, 0 sin empezar. Solo tests visibles: los ocultos se ejecutan al calificar.
    >>> _ = use_language("en")

Parts and tests are found from the nbgrader metadata every exercise cell keeps
(no grading code is needed): an answer cell has ``solution: true``; a test cell
is a locked code cell without a solution that comes after an answer cell; a
part is named by the ``## `` heading above its answer cell. The status rule on
its own, for one part::

    >>> tests = (TestOutcome("test_a", True), TestOutcome("test_b", False, "AssertionError: no"))
    >>> PartProgress("04_retry", "Part A: resilient_invoke", tests, stub=False).status
    'in progress'
    >>> PartProgress("04_retry", "Part A: resilient_invoke", tests[1:], stub=True).status
    'not started'
    >>> PartProgress("04_retry", "Part A: resilient_invoke", tests[:1], stub=False).status
    'done'
"""

from __future__ import annotations

import argparse
import atexit
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from .language import LANGUAGES, current_language, language_of, say
from .startup import skip_slow_format_checkers

skip_slow_format_checkers()  # nbclient and nbformat import jsonschema: 1 to 2 s less per check (see there)

__all__ = [
    "Status", "TestOutcome", "PartProgress", "Part", "find_parts", "visible_source",
    "check_notebook", "check_exercises", "exercise_notebooks", "format_table", "run_progress",
    "show_progress", "main", "execute_notebook", "KERNEL_START_ATTEMPTS",
]

log = logging.getLogger(__name__)

Status = Literal["not started", "in progress", "done", "missing", "unreadable"]

_HIDDEN = re.compile(r"^[ \t]*### BEGIN HIDDEN TESTS.*?^[ \t]*### END HIDDEN TESTS[^\n]*\n?", re.S | re.M)
_STEM = re.compile(r"^\d\d_[a-z0-9_]+$")
_STUB = re.compile(r"^[ \t]*raise NotImplementedError\b", re.M)
#: Kernels started for one notebook before its tests are reported as not run: a kernel that
#: does not start (nbclient waits 60 s) is the machine's doing, not the learner's.
KERNEL_START_ATTEMPTS = 3


@dataclass(frozen=True)
class TestOutcome:
    """One visible test cell, run.

    Attributes:
        name: the cell's nbgrader ``grade_id`` (e.g. ``test_resilient_invoke_success``).
        passed: it ran without an error.
        error: ``"AssertionError: <first line of the message>"`` when it failed.
    """

    __test__ = False  # not a pytest test class, despite its name

    name: str
    passed: bool
    error: str = ""


@dataclass(frozen=True)
class PartProgress:
    """One part of one exercise: its visible tests and where the learner stands.

    Attributes:
        exercise: the exercise's stem, e.g. ``"05_retry_with_backoff"``.
        part: the part's name, e.g. ``"Part A: resilient_invoke"``.
        tests: every visible test of the part, in notebook order.
        stub: every answer cell of the part still holds the stub's ``raise NotImplementedError``.
        problem: for a missing or unreadable notebook, what is wrong (no tests then).
    """

    exercise: str
    part: str
    tests: tuple[TestOutcome, ...] = ()
    stub: bool = False
    problem: str = ""

    @property
    def passed(self) -> int:
        """How many visible tests pass."""
        return sum(t.passed for t in self.tests)

    @property
    def total(self) -> int:
        """How many visible tests the part has."""
        return len(self.tests)

    @property
    def status(self) -> Status:
        """``not started``, ``in progress`` or ``done`` (``missing``/``unreadable`` for a broken file)."""
        if self.problem:
            return "missing" if self.problem.startswith("missing") else "unreadable"
        if self.total and self.passed == self.total:
            return "done"
        if self.passed == 0 and self.stub:
            return "not started"
        return "in progress"

    @property
    def failing(self) -> list[TestOutcome]:
        """The visible tests that fail."""
        return [t for t in self.tests if not t.passed]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready), with ``passed``, ``total`` and ``status`` included."""
        data = asdict(self)
        data.update(passed=self.passed, total=self.total, status=self.status)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "PartProgress":
        """Read back what :meth:`to_dict` wrote."""
        return cls(data["exercise"], data["part"], tuple(TestOutcome(**t) for t in data["tests"]),
                   data["stub"], data.get("problem", ""))


@dataclass
class Part:
    """Where a part lives in a notebook: its answer cells and its visible test cells (indices)."""

    title: str
    answers: list[int] = field(default_factory=list)
    tests: list[int] = field(default_factory=list)


def _nbgrader(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _part_title(heading: str, fallback: str) -> str:
    """``"## Part A: `convert_temperature` (18 points)"`` -> ``"Part A: convert_temperature"`` (Spanish: "Parte A: ...")."""
    text = heading.lstrip("#").strip().replace("`", "")
    m = re.match(r"(Parte?\s+\w+)\s*[:.\-—–]?\s*([A-Za-z_][\w.]*)?", text)
    if m:
        return f"{m.group(1)}: {m.group(2)}" if m.group(2) else m.group(1)
    m = re.match(r"([A-Za-z_][\w.]*)", text)
    return m.group(1) if m else fallback


def find_parts(nb) -> list[Part]:
    """The parts of an exercise notebook, from its nbgrader cell metadata.

    An answer cell (``solution: true``) opens a part, or joins the current one when
    no new ``## `` heading came between them. Locked code cells without a solution
    that follow an answer cell are that part's tests (setup cells come before
    the first answer cell and are not tests).
    """
    parts: list[Part] = []
    heading, heading_used = "", True
    for i, cell in enumerate(nb.cells):
        meta = _nbgrader(cell)
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if re.match(r"^##\s", line):
                    heading, heading_used = line, False
                    break
        elif meta.get("solution"):
            if cell.cell_type != "code":
                continue
            if parts and heading_used:
                parts[-1].answers.append(i)
            else:
                parts.append(Part(_part_title(heading, meta.get("grade_id", f"cell {i}")), [i]))
                heading_used = True
        elif cell.cell_type == "code" and parts and (meta.get("locked") or meta.get("grade")):
            parts[-1].tests.append(i)
    return parts


def visible_source(source: str) -> str:
    """A test cell's source without its ``### BEGIN/END HIDDEN TESTS`` blocks."""
    return _HIDDEN.sub("", source)


def _error_of(cell) -> str:
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            lines = str(out.get("evalue", "")).strip().splitlines()
            return f"{out.get('ename', 'Error')}: {lines[0] if lines else ''}".rstrip(": ")
    return ""


def _kernel_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    env["TOOLFAULTS_MODE"] = "offline"
    env["MPLBACKEND"] = "Agg"
    # The exercises import toolfaults: make this copy of it importable from the scratch folder.
    package_root = str(Path(__file__).resolve().parents[1])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH", "")) if p)
    return env


def _sent_any(nb) -> bool:
    """Whether a code cell was sent to a kernel (nbclient records its timings from then on)."""
    return any("execution" in c.metadata for c in nb.cells if c.cell_type == "code")


def execute_notebook(nb, *, start: dict[str, Any] | None = None, **options: Any) -> None:
    """Run ``nb`` in place in a new kernel: ``NotebookClient(nb, **options).execute(**start)``.

    A kernel that does not start (nbclient waits 60 s for it; a loaded machine can take
    longer) is not the notebook's doing: another one is started, up to
    :data:`KERNEL_START_ATTEMPTS` kernels. Once a cell has been sent nothing is run again.
    Raises what the last run raised. Timings a cell kept from an earlier run are cleared first, so
    that those nbclient records tell which cells this run sent.
    """
    from nbclient import NotebookClient

    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.metadata.pop("execution", None)
    for attempt in range(1, KERNEL_START_ATTEMPTS + 1):
        client = NotebookClient(nb, **options)
        try:
            client.execute(**(start or {}))
            return
        except Exception as err:
            # nbclient leaves its clean-up registered for exit when the kernel did not start,
            # and it then fails ("assert self.km is not None"); it has already cleaned up.
            cleanup = getattr(client, "_cleanup_kernel", None)
            if cleanup is not None:
                atexit.unregister(cleanup)
            if _sent_any(nb) or attempt == KERNEL_START_ATTEMPTS:
                raise
            log.warning("the kernel did not start (%s: %s); starting another (%d of %d)",
                        type(err).__name__, err, attempt + 1, KERNEL_START_ATTEMPTS)


def check_notebook(path: str | os.PathLike, *, exercise: str | None = None, timeout: float = 60,
                   kernel_name: str = "python3", kernel_manager_class: type | None = None) -> list[PartProgress]:
    """Run one exercise notebook's visible tests on a scratch copy; one result per part.

    Args:
        path: the notebook (``exercises/NN_topic/NN_topic.ipynb``, or a solution).
        exercise: the name shown in the table (default: the notebook's stem).
        timeout: seconds a cell may run before it is interrupted and counted as failed.
        kernel_name: the Jupyter kernel to start.
        kernel_manager_class: how to start it (default: jupyter_client's, a new process); the grader's tests
            pass its sandboxed kernels forked from a warm one (``autograder.sandbox.SandboxedKernelManager``).

    Returns:
        One :class:`PartProgress` per part; a single ``missing``/``unreadable`` row
        when the notebook cannot be read.
    """
    import nbformat

    path = Path(path)
    name = exercise or path.stem
    if not path.is_file():
        return [PartProgress(name, "-", problem="missing: " + say(f"{path} does not exist", f"{path} no existe"))]
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as err:  # a half-written or hand-edited file: say so, do not crash
        return [PartProgress(name, "-", problem=f"unreadable: {type(err).__name__}: {err}")]
    parts = find_parts(nb)
    for part in parts:
        for i in part.tests:
            nb.cells[i].source = visible_source(nb.cells[i].source)
    log.info("%s: running %d visible tests in %d part(s)", name, sum(len(p.tests) for p in parts), len(parts))
    with tempfile.TemporaryDirectory(prefix="toolfaults-progress-") as scratch:
        work = Path(scratch) / path.parent.name
        shutil.copytree(path.parent, work, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        env = _kernel_env()
        env["IPYTHONDIR"] = str(Path(scratch) / "ipython")   # no history or profile of the learner's touched
        stopped = ""  # why the run ended before the last cell, if it did
        try:
            # The kernel's stderr (ipykernel's start-up warnings) would only clutter the table.
            manager = {"kernel_manager_class": kernel_manager_class} if kernel_manager_class else {}
            execute_notebook(nb, start={"env": env, "cwd": str(work), "stderr": subprocess.DEVNULL},
                             timeout=timeout, kernel_name=kernel_name, allow_errors=True, interrupt_on_timeout=True,
                             shutdown_kernel="immediate", resources={"metadata": {"path": str(work)}}, **manager)
        except Exception as err:  # the kernel died or could not start: every test that did not run fails
            stopped = f"{type(err).__name__}: {err}".strip().rstrip(":")
            log.warning("%s: the run stopped early: %s", name, stopped)
    if not stopped:
        not_run = say("not run: the notebook stopped before this cell",
                      "no se ejecutó: el notebook se detuvo antes de esta celda")
    elif _sent_any(nb):
        not_run = say(f"not run: the notebook stopped before this cell ({stopped})",
                      f"no se ejecutó: el notebook se detuvo antes de esta celda ({stopped})")
    else:
        not_run = say(f"not run: the kernel did not start after {KERNEL_START_ATTEMPTS} tries ({stopped})",
                      f"no se ejecutó: el kernel no arrancó tras {KERNEL_START_ATTEMPTS} intentos ({stopped})")
    results = []
    for part in parts:
        stub = all(_STUB.search(nb.cells[i].source) for i in part.answers)
        tests = []
        for i in part.tests:
            cell = nb.cells[i]
            ran = cell.get("execution_count") is not None or cell.get("outputs")
            sent = "execution" in cell.metadata  # nbclient's timings: set when the cell is sent, then the reply's
            if stopped and sent and "shell.execute_reply" not in cell.metadata["execution"]:
                # the kernel died while this cell ran: no error was printed, and it did not pass
                error = say(f"the notebook stopped during this cell ({stopped})",
                            f"el notebook se detuvo durante esta celda ({stopped})")
            else:
                error = _error_of(cell) if ran else not_run
            tests.append(TestOutcome(_nbgrader(cell).get("grade_id", f"cell {i}"), not error, error))
        results.append(PartProgress(name, part.title, tuple(tests), stub))
    return results


def exercise_notebooks(root: str | os.PathLike, language: str | None = None) -> list[Path]:
    """``root/NN_topic/NN_topic.ipynb`` for every exercise folder under ``root``, in order.

    With ``language`` ("en" or "es"), only that edition's exercises.
    """
    root = Path(root)
    return [d / f"{d.name}.ipynb" for d in sorted(root.iterdir()) if d.is_dir() and _STEM.match(d.name)
            and (language is None or language_of(d.name) == language)]


#: Exercise notebooks checked at the same time, each in its own kernel (fewer on a machine with fewer cores).
MAX_PARALLEL = 4


def check_exercises(root: str | os.PathLike = "exercises", *, language: str | None = None,
                    **kwargs: Any) -> list[PartProgress]:
    """Run :func:`check_notebook` on every exercise under ``root``; all parts, in order.

    With ``language`` ("en" or "es"), only that edition's exercises.

    Raises:
        FileNotFoundError: when ``root`` is not a folder.
    """
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(say(f"no exercises folder at {root}", f"no hay carpeta de ejercicios en {root}"))
    notebooks = exercise_notebooks(root, language)
    # One kernel per exercise, up to one per core at a time (at most MAX_PARALLEL): much of each run is
    # its own kernel's start, which the others need not wait for.
    workers = max(1, min(len(notebooks), os.cpu_count() or 1, MAX_PARALLEL))
    with ThreadPoolExecutor(workers, thread_name_prefix="toolfaults-progress") as pool:
        found = list(pool.map(lambda notebook: check_notebook(notebook, exercise=notebook.parent.name, **kwargs),
                              notebooks))
    return [row for rows in found for row in rows]


def format_table(rows: Sequence[PartProgress], *, details: bool = False) -> str:
    """The table: exercise, part, visible tests passed/total, status; then a one-line summary.

    With ``details``, each failing test is listed under its part with the first
    line of its message (the hint the test gives).
    """
    header = (say("exercise", "ejercicio"), say("part", "parte"), say("visible tests", "tests visibles"),
              say("status", "estado"))
    cells = [(r.exercise, r.part, f"{r.passed}/{r.total}" if not r.problem else "-",
              _status(r.status) if not r.problem else f"{_status(r.status)} ({r.problem.split(': ', 1)[-1]})")
             for r in rows]
    widths = [max(len(str(c[k])) for c in [header, *cells]) for k in range(3)]
    lines = [f"{header[0]:<{widths[0]}}  {header[1]:<{widths[1]}}  {header[2]:>{widths[2]}}  {header[3]}"]
    for row, c in zip(rows, cells):
        lines.append(f"{c[0]:<{widths[0]}}  {c[1]:<{widths[1]}}  {c[2]:>{widths[2]}}  {c[3]}")
        if details and row.status == "in progress":
            lines += [f"    {t.name}: {t.error}" for t in row.failing]
    counts = {s: sum(r.status == s for r in rows) for s in ("done", "in progress", "not started")}
    lines.append("")
    lines.append(say(
        f"{counts['done']} of {len(rows)} parts done, {counts['in progress']} in progress, "
        f"{counts['not started']} not started. Visible tests only: hidden tests run when you are graded.",
        f"{counts['done']} de {len(rows)} partes hechas, {counts['in progress']} en curso, "
        f"{counts['not started']} sin empezar. Solo tests visibles: los ocultos se ejecutan al calificar."))
    return "\n".join(lines)


_STATUS_ES = {"not started": "sin empezar", "in progress": "en curso", "done": "hecho", "missing": "no existe",
              "unreadable": "ilegible"}


def _status(status: str) -> str:
    """A status as the table shows it, in the current language (the status values themselves stay English)."""
    return say(status, _STATUS_ES.get(status, status))


def _find_exercises(start: Path) -> Path:
    for folder in (start, *start.parents):
        if (folder / "exercises").is_dir():
            return folder / "exercises"
    raise FileNotFoundError(say(f"no exercises/ folder in {start} or above it",
                                f"no hay carpeta exercises/ en {start} ni por encima"))


def run_progress(root: str | os.PathLike | None = None, *, timeout: float = 60,
                 language: str | None = None) -> list[PartProgress]:
    """:func:`check_exercises` in a separate process (``python -m toolfaults.progress --json``).

    Nothing the tests do reaches the calling kernel. ``root`` defaults to the
    ``exercises/`` folder in the current folder or above it. With ``language``,
    only that edition's exercises are run (and their messages are in that language).

    Raises:
        FileNotFoundError: when there is no exercises folder.
        RuntimeError: when the check itself fails.
    """
    folder = Path(root) if root is not None else _find_exercises(Path.cwd())
    command = [sys.executable, "-m", "toolfaults.progress", str(folder), "--json", "--timeout", str(timeout)]
    if language is not None:
        command += ["--language", language]
    done = subprocess.run(command, capture_output=True, text=True, env=_kernel_env())
    if done.returncode != 0:
        raise RuntimeError(say("the progress check failed:", "la comprobación del progreso falló:")
                           + f"\n{done.stderr.strip()[-2000:]}")
    return [PartProgress.from_dict(d) for d in json.loads(done.stdout)]


def show_progress(root: str | os.PathLike | None = None, *, details: bool = True, timeout: float = 60) -> None:
    """For a notebook cell (the course index): print the progress table of your exercises.

    Only the exercises of the current language's edition are listed (see
    :func:`toolfaults.language.use_language`), and the table is in that language.

    Args:
        root: the exercises folder (default: ``exercises/`` in the current folder or above it).
        details: list the failing tests of parts in progress, with their hints.
        timeout: seconds a cell may run.
    """
    folder = Path(root) if root is not None else _find_exercises(Path.cwd())
    print(say(f"Running the visible tests of your exercises in {folder.resolve()} (on a scratch copy: "
              "your notebooks are not changed). This takes a few seconds per exercise...",
              f"Ejecutando los tests visibles de tus ejercicios en {folder.resolve()} (sobre una copia: "
              "tus notebooks no cambian). Tarda unos segundos por ejercicio..."), flush=True)
    language = current_language()
    print(format_table(run_progress(folder, timeout=timeout, language=language), details=details))


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m toolfaults.progress [EXERCISES] [--json] [--details] [--timeout S] [--language en|es]``."""
    parser = argparse.ArgumentParser(prog="python -m toolfaults.progress", description=(
        "Run the visible tests of each exercise on your own notebooks (a scratch copy, offline) "
        "and show each part's status: not started, in progress or done."))
    parser.add_argument("root", nargs="?", default="exercises", help="the exercises folder (default: exercises)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON instead of the table")
    parser.add_argument("--details", action="store_true", help="list failing tests with their messages")
    parser.add_argument("--timeout", type=float, default=60, help="seconds a cell may run (default: 60)")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--language", choices=LANGUAGES, default=None,
                        help="only this edition's exercises (es: the folders ending in _es), table in that language")
    args = parser.parse_args(argv)
    if args.language is not None:
        from .language import use_language

        use_language(args.language)
    if not (args.quiet or args.json):  # one line per exercise on stderr while it runs
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
    try:
        rows = check_exercises(args.root, timeout=args.timeout, language=args.language)
    except FileNotFoundError as err:
        print(err, file=sys.stderr)
        return 2
    print(json.dumps([r.to_dict() for r in rows], indent=1) if args.json else format_table(rows, details=args.details))
    return 0


if __name__ == "__main__":
    sys.exit(main())
