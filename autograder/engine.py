"""Grade submissions with nbgrader's Python API and read back per-test results.

The building block of class grading and of the grader-fairness proofs: a
:class:`Course` wraps one nbgrader course directory (the real one, or a scratch
copy for tests), generates an assignment once, autogrades submissions one by one
in this process (no per-student ``nbgrader`` command and its ~2 s of imports),
and returns a :class:`SubmissionResult` per student: the score, and for every
test cell its description, points, pass/fail and the test's own message.

    >>> course = Course.scratch(tmp_path)                       # doctest: +SKIP
    >>> course.generate("04_retry_with_backoff")                # doctest: +SKIP
    >>> course.submit("ana", "04_retry_with_backoff", notebook) # doctest: +SKIP
    >>> course.autograde("04_retry_with_backoff", "ana").score  # doctest: +SKIP

Broken submissions never stop grading and always get a score and a reason
(:class:`Problem`). Before nbgrader sees a submission, it is *staged*: copied
from the submissions folder (never modified there) into a private folder, where
a renamed notebook is taken under its expected name, a notebook that is not valid
JSON is set aside, deleted test cells are put back and the nbgrader metadata of
known cells is restored. nbgrader then runs the pipeline of
:mod:`autograder.preprocessors` (time limits, dead or stuck kernels, huge output,
helper-package check). Finally the autograded notebook is read for what happened
(syntax errors, ``sys.exit()``, timeouts, ...).

Messages never carry test source: a message is the test's exception type and
text (no traceback), and any line of a hidden test that would appear in it is
removed (:meth:`Course.hidden_lines`).
"""

from __future__ import annotations

import ast
import copy
import json
import logging
import os
import re
import shutil
import tempfile
import time
import warnings
import weakref
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import nbformat

from . import gradebook as gbook
from .course import ROOT, SOLUTIONS, api, load_config
from .guard import TAMPERED
from .preprocessors import CELL_TIMEOUT, GRADER_ERRORS, KERNEL_DIED, META, NOT_RUN, autograde_pipeline

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
HIDDEN = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
MAX_MESSAGE = 1000

# Grading runs thousands of nbgrader/SQLAlchemy steps: keep their chatter out of the output.
warnings.filterwarnings("ignore", message=".*not in session.*")
logging.getLogger("traitlets").setLevel(logging.ERROR)


@dataclass
class TestResult:
    """One graded test cell of one submission."""

    grade_id: str
    description: str
    points: float
    max_points: float
    passed: bool
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Problem:
    """Something wrong with a submission, in one sentence for the instructor and the learner.

    ``kind`` is a stable key (tests and the report use it); ``attention`` means the
    score may not reflect the work and a person should look at it.
    """

    kind: str
    text: str
    attention: bool = False


ATTENTION = "needs attention"


@dataclass
class SubmissionResult:
    """The grade of one student's notebook for one assignment."""

    student: str
    assignment: str
    score: float
    max_score: float
    tests: list[TestResult] = field(default_factory=list)
    status: str = "graded"  # "graded" | "needs attention"
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0  # wall time spent grading it
    worker: int = 0  # process id of the process that graded it

    @property
    def failed(self) -> list[TestResult]:
        return [t for t in self.tests if not t.passed]

    def add(self, kind: str, text: str, attention: bool = False) -> None:
        if not any(p.kind == kind and p.text == text for p in self.problems):
            self.problems.append(Problem(kind, text, attention))
        if attention:
            self.status = ATTENTION

    def kinds(self) -> list[str]:
        return [p.kind for p in self.problems]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tests"] = [t.to_dict() for t in self.tests]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubmissionResult:
        data = dict(data)
        data["tests"] = [TestResult(**t) for t in data.get("tests", [])]
        data["problems"] = [Problem(**p) for p in data.get("problems", [])]
        return cls(**data)


def describe_test(source: str) -> str:
    """The first line of a test cell's docstring (what behaviour it checks)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        tree = None
    if tree is not None:
        doc = ast.get_docstring(tree)
        if doc:
            return doc.strip().splitlines()[0]
    for line in source.splitlines():
        line = line.strip()
        if line.startswith("#") and len(line) > 2:
            return line.lstrip("# ").strip()
    return ""


def test_descriptions(assignment: str, source: Path = SOLUTIONS) -> dict[str, tuple[str, float]]:
    """``grade_id -> (description, points)`` for every test cell of an assignment's source."""
    found: dict[str, tuple[str, float]] = {}
    for nb_path in sorted((source / assignment).glob("*.ipynb")):
        nb = nbformat.read(nb_path, as_version=4)
        for cell in nb.cells:
            meta = cell.metadata.get("nbgrader", {})
            if meta.get("grade") and cell.cell_type == "code":
                found[meta["grade_id"]] = (describe_test(cell.source), float(meta.get("points", 0)))
    return found


def hidden_lines(source: str) -> list[str]:
    """The stripped lines between the hidden-test markers of a cell's source."""
    lines, inside = [], False
    for line in source.splitlines():
        stripped = line.strip()
        if stripped == HIDDEN[0]:
            inside = True
        elif stripped == HIDDEN[1]:
            inside = False
        elif inside and stripped:
            lines.append(stripped)
    return lines


@lru_cache(maxsize=64)
def _hidden_code(nb_path: str, mtime: float) -> tuple[str, ...]:
    """Lines of hidden tests that are code (not a message string) and long enough to be recognisable."""
    nb = nbformat.read(nb_path, as_version=4)
    found: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            for line in hidden_lines(cell.source):
                if len(line) >= 12 and not re.match(r"^[rbfu]*[\"']", line, re.I) and not line.startswith("#"):
                    found.add(line)
    return tuple(sorted(found))


def hidden_code(assignment: str, source: Path = SOLUTIONS) -> tuple[str, ...]:
    lines: list[str] = []
    for nb_path in sorted((source / assignment).glob("*.ipynb")):
        lines += _hidden_code(str(nb_path), nb_path.stat().st_mtime)
    return tuple(lines)


def redact(message: str, hidden: tuple[str, ...]) -> str:
    """``message`` with any hidden test line removed and its length capped."""
    for line in hidden:
        if line in message:
            message = message.replace(line, "[hidden test]")
    message = message.strip()
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + " ..."
    return message


def failure_message(cell: nbformat.NotebookNode) -> str:
    """The message a failed test cell printed: its exception's type and text, no source.

    What the grader reports (a timeout, a dead kernel) comes before the learner's own errors
    (a timed-out cell also shows the ``KeyboardInterrupt`` that stopped it).
    """
    errors = [out for out in cell.get("outputs", []) if out.get("output_type") == "error"]
    errors.sort(key=lambda out: out.get("ename") not in GRADER_ERRORS)
    for out in errors:
        if True:
            ename, evalue = out.get("ename", "Error"), ANSI.sub("", str(out.get("evalue", ""))).strip()
            if ename == NOT_RUN and evalue:
                return "This test was " + evalue + "."
            if ename in GRADER_ERRORS and evalue:
                return evalue[:1].upper() + evalue[1:]
            if ename == "AssertionError" and evalue:
                return evalue
            return f"{ename}: {evalue}" if evalue else ename
    return ""


def read_notebook(path: Path) -> tuple[nbformat.NotebookNode | None, str]:
    """A submitted notebook, or ``None`` and why it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        return None, f"it is not text ({err.reason})"
    except OSError as err:
        return None, f"it cannot be read ({err.strerror})"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return None, f"it is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}"
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        return None, "it is JSON but not a notebook (no list of cells)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nb = nbformat.reads(text, as_version=4)
    except Exception as err:  # noqa: BLE001 - nbformat raises many kinds for malformed notebooks
        return None, f"it is not a valid notebook ({type(err).__name__}: {str(err).splitlines()[0][:200]})"
    return nb, ""


def _grade_id(cell: nbformat.NotebookNode) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def _is_test(meta: dict) -> bool:
    return bool(meta.get("grade")) and not meta.get("solution")


@dataclass
class CourseSpec:
    """Everything needed to rebuild a :class:`Course` in another process (plain, picklable data)."""

    root: str
    source: str
    submissions: str
    staging: str
    coursedir: dict[str, Any]
    config: dict[str, dict[str, Any]]


class Course:
    """One nbgrader course directory, driven through nbgrader's Python API.

    Args:
        root: the course root (where autograded/ and the gradebook live).
        source: the folder of assignment sources (default: the repo's solutions/).
        submissions: where students' submissions are read from, ``<student>/<assignment>/``
            (default: the configured ``submitted_directory``). They are never modified:
            nbgrader reads a staged copy.
        staging: the folder of staged copies (default: a temporary folder).
        config: further configuration, ``{"Class": {"trait": value}}`` (e.g. a shorter
            ``Execute.timeout`` for tests).
        **coursedir: further ``CourseDirectory`` overrides.
    """

    def __init__(self, root: Path = ROOT, source: Path = SOLUTIONS, *, submissions: Path | None = None,
                 staging: Path | None = None, config: dict[str, dict[str, Any]] | None = None,
                 **coursedir: Any) -> None:
        self.root = Path(root).resolve()
        self.source = Path(source).resolve()
        overrides: dict[str, Any] = {"root": str(self.root), "source_directory": str(self.source)}
        overrides.update(coursedir)
        base = load_config(**overrides)
        configured = Path(base.CourseDirectory.submitted_directory)
        self.submissions = Path(submissions) if submissions else (
            configured if configured.is_absolute() else self.root / configured)
        if staging is None:
            staging = Path(tempfile.mkdtemp(prefix="autograder-staging-"))
            weakref.finalize(self, shutil.rmtree, staging, True)
        self.staging = Path(staging).resolve()
        self._coursedir = dict(coursedir)
        self._extra = copy.deepcopy(config or {})
        overrides["submitted_directory"] = str(self.staging)
        self.config = load_config(**overrides)
        self.config.Autograde.autograde_preprocessors = autograde_pipeline()
        for section, traits in self._extra.items():
            for trait, value in traits.items():
                setattr(self.config[section], trait, value)
        self.api = api(self.config)
        self.api.log.setLevel(logging.ERROR)
        self.coursedir = self.api.coursedir

    @classmethod
    def scratch(cls, root: Path, source: Path = SOLUTIONS, **kwargs: Any) -> Course:
        """A course in an empty folder: its own release, submissions and gradebook."""
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        defaults: dict[str, Any] = {
            "release_directory": "release",
            "submitted_directory": "submitted",
            "autograded_directory": "autograded",
            "feedback_directory": "feedback",
            "db_url": f"sqlite:///{Path(root).resolve() / 'gradebook.db'}",
            "staging": Path(root) / "staging",
        }
        defaults.update(kwargs)
        return cls(root, source, **defaults)

    def spec(self, **changes: Any) -> CourseSpec:
        """This course as plain data (``changes`` replace CourseDirectory settings, e.g. ``db_url``)."""
        coursedir = {**self._coursedir, **changes}
        coursedir.pop("submitted_directory", None)
        return CourseSpec(str(self.root), str(self.source), str(self.submissions), str(self.staging),
                          coursedir, copy.deepcopy(self._extra))

    @classmethod
    def from_spec(cls, spec: CourseSpec) -> Course:
        return cls(Path(spec.root), Path(spec.source), submissions=Path(spec.submissions),
                   staging=Path(spec.staging), config=spec.config, **spec.coursedir)

    @property
    def db_url(self) -> str:
        return self.coursedir.db_url

    @property
    def course_id(self) -> str:
        return self.coursedir.course_id

    # -- paths -------------------------------------------------------------------------
    def directory(self, step: str, assignment: str, student: str = ".") -> Path:
        return Path(self.coursedir.format_path(step, student, assignment))

    def notebook_names(self, assignment: str) -> list[str]:
        return sorted(p.stem for p in (self.source / assignment).glob("*.ipynb"))

    def submitted(self, assignment: str, student: str) -> Path:
        """The student's submission folder (what they handed in)."""
        return self.submissions / student / assignment

    # -- steps -------------------------------------------------------------------------
    def generate(self, assignment: str) -> None:
        """Generate the released version and record the assignment in the gradebook."""
        result = self.api.generate_assignment(assignment, force=True, create=True)
        if not result["success"]:
            raise RuntimeError(f"could not generate {assignment}:\n{result.get('error') or result.get('log')}")

    def released(self, assignment: str, notebook: str | None = None) -> nbformat.NotebookNode:
        """The released (student) version of a notebook, as generated."""
        notebook = notebook or self.notebook_names(assignment)[0]
        path = self.directory(self.coursedir.release_directory, assignment) / f"{notebook}.ipynb"
        return nbformat.read(path, as_version=4)

    def solution(self, assignment: str, notebook: str | None = None) -> nbformat.NotebookNode:
        """The source (solution) notebook."""
        notebook = notebook or self.notebook_names(assignment)[0]
        return nbformat.read(self.source / assignment / f"{notebook}.ipynb", as_version=4)

    def submit(self, student: str, assignment: str, notebook: nbformat.NotebookNode | str | bytes,
               name: str | None = None) -> Path:
        """Place a student's notebook (a node, or raw text/bytes) in the submissions folder."""
        name = name or self.notebook_names(assignment)[0]
        folder = self.submitted(assignment, student)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.ipynb"
        if isinstance(notebook, (str, bytes)):
            path.write_bytes(notebook.encode() if isinstance(notebook, str) else notebook)
        else:
            nbformat.write(notebook, path)
        return path

    def autograde(self, assignment: str, student: str) -> SubmissionResult:
        """Stage, autograde and read back one student's submission. Never raises for a broken one."""
        start = time.monotonic()
        problems: list[Problem] = []
        shutil.rmtree(self.directory(self.coursedir.autograded_directory, assignment, student), ignore_errors=True)
        try:
            staged = self.stage(assignment, student, problems)
        except Exception as err:  # noqa: BLE001 - a submission must never stop the batch
            staged = []
            problems.append(Problem("staging_error", f"the submission could not be prepared for grading ({err})", True))
        failure = ""
        if staged:
            outcome = self.api.autograde(assignment, student, force=True, create=True)
            if not outcome["success"]:
                log = ANSI.sub("", (outcome.get("error") or outcome.get("log") or "")).strip()
                failure = (log.splitlines() or ["?"])[-1]
        if not staged or failure:
            from nbgrader.api import Gradebook

            try:
                with Gradebook(self.db_url, self.course_id) as gb:
                    gbook.record_zero(gb, assignment, student)
            except Exception as err:  # noqa: BLE001 - reported, never raised
                problems.append(Problem("nbgrader_error", f"the gradebook could not record this submission ({err})", True))
        result = self.read_result(assignment, student)
        for p in problems:
            result.add(p.kind, p.text, p.attention)
        if failure:
            result.add("nbgrader_error", f"nbgrader could not grade this submission: {failure}", True)
        self.diagnose(result)
        result.seconds = round(time.monotonic() - start, 3)
        result.worker = os.getpid()
        return result

    # -- staging -----------------------------------------------------------------------
    def stage(self, assignment: str, student: str, problems: list[Problem]) -> list[str]:
        """Copy a submission into the staging folder, repaired; returns the notebooks that can be graded."""
        raw = self.submitted(assignment, student)
        dest = self.staging / student / assignment
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        if not raw.is_dir():
            problems.append(Problem("missing_notebook", f"nothing was submitted for {assignment}", True))
            return []
        expected = self.notebook_names(assignment)
        present = sorted(p for p in raw.glob("*.ipynb") if p.is_file())
        spare = [p for p in present if p.stem not in expected]
        staged = []
        for name in expected:
            path = raw / f"{name}.ipynb"
            if not path.exists():
                path = self._renamed(assignment, name, spare)
                if path is None:
                    files = sorted(p.name for p in raw.iterdir() if not p.name.startswith("."))
                    found = f" (the folder holds {', '.join(files)})" if files else " (the folder is empty)"
                    problems.append(Problem("missing_notebook",
                                            f"{name}.ipynb was not submitted{found}: its tests score 0", True))
                    continue
                spare.remove(path)
                problems.append(Problem("renamed", f"{name}.ipynb was missing; {path.name} was graded in its place "
                                                   "(the notebook was renamed)"))
            nb, why = read_notebook(path)
            if nb is None:
                problems.append(Problem("invalid_notebook", f"{path.name} could not be graded: {why}", True))
                continue
            nb = self.repair(assignment, name, nb, problems)
            nbformat.write(nb, dest / f"{name}.ipynb")
            staged.append(name)
        stamp = raw / "timestamp.txt"
        if staged and stamp.is_file():
            from nbgrader.utils import parse_utc

            try:
                parse_utc(stamp.read_text().strip())
                shutil.copy(stamp, dest / "timestamp.txt")
            except (ValueError, OverflowError):
                problems.append(Problem("bad_timestamp", "timestamp.txt is not a date; it was ignored"))
        return staged

    def _renamed(self, assignment: str, name: str, spare: list[Path]) -> Path | None:
        """The one spare notebook that holds this notebook's cells (a renamed copy), if exactly one does."""
        ids = {_grade_id(c) for c in self.released(assignment, name).cells} - {None}
        matches = []
        for path in spare:
            nb, _ = read_notebook(path)
            if nb is not None and ids & {_grade_id(c) for c in nb.cells}:
                matches.append(path)
        return matches[0] if len(matches) == 1 else None

    def repair(self, assignment: str, name: str, nb: nbformat.NotebookNode,
               problems: list[Problem]) -> nbformat.NotebookNode:
        """Restore deleted test (and locked code) cells and the nbgrader metadata of known cells."""
        released = self.released(assignment, name)
        descriptions = test_descriptions(assignment, self.source)
        order = [c for c in released.cells if _grade_id(c)]
        known = {_grade_id(c): c for c in order}
        seen: set[str] = set()
        for cell in nb.cells:
            gid = _grade_id(cell)
            if gid in known and gid not in seen:
                seen.add(gid)
                ref = known[gid]
                meta = ref.metadata["nbgrader"]
                if cell.metadata.get("nbgrader") != meta or cell.cell_type != ref.cell_type:
                    problems.append(Problem("metadata_changed", f"the grading metadata of cell {gid} was changed; "
                                                                "the grader restored it"))
                    cell.metadata["nbgrader"] = copy.deepcopy(meta)
                if _is_test(meta) and cell.source.strip() != ref.source.strip():
                    desc = descriptions.get(gid, (gid, 0))[0] or gid
                    problems.append(Problem("test_edited", f"the read-only test \"{desc}\" was edited; "
                                                           "the grader ran the original test"))
        for position, ref in enumerate(order):
            gid = _grade_id(ref)
            if gid in seen:
                continue
            meta = ref.metadata["nbgrader"]
            if meta.get("solution") and not meta.get("grade"):
                problems.append(Problem("answer_deleted", f"the answer cell {gid} was deleted; "
                                                          "the tests ran without it"))
                continue
            if not (_is_test(meta) or (meta.get("locked") and ref.cell_type == "code")):
                continue
            at = self._insert_at(nb, order, position)
            nb.cells.insert(at, copy.deepcopy(ref))
            seen.add(gid)
            if _is_test(meta):
                desc = descriptions.get(gid, (gid, 0))[0] or gid
                problems.append(Problem("test_deleted", f"the test \"{desc}\" was deleted; the grader put it back "
                                                        "and ran it"))
            else:
                problems.append(Problem("locked_deleted", f"the read-only cell {gid} was deleted; "
                                                          "the grader put it back"))
        return nb

    @staticmethod
    def _insert_at(nb: nbformat.NotebookNode, order: list, position: int) -> int:
        """Where released cell ``order[position]`` goes: after the closest earlier known cell present."""
        index = {_grade_id(c): i for i, c in enumerate(nb.cells) if _grade_id(c)}
        for ref in reversed(order[:position]):
            if _grade_id(ref) in index:
                return index[_grade_id(ref)] + 1
        for ref in order[position + 1:]:
            if _grade_id(ref) in index:
                return index[_grade_id(ref)]
        return len(nb.cells)

    # -- results -----------------------------------------------------------------------
    def read_result(self, assignment: str, student: str) -> SubmissionResult:
        """Score and per-test results of a graded submission (0 for everything missing)."""
        from nbgrader.api import Gradebook, MissingEntry

        described = test_descriptions(assignment, self.source)
        hidden = hidden_code(assignment, self.source)
        tests: list[TestResult] = []
        problems: list[Problem] = []
        with Gradebook(self.db_url, self.course_id) as gb:
            for name in self.notebook_names(assignment):
                graded_nb = self.autograded_notebook(assignment, student, name)
                outputs = {}
                if graded_nb is not None:
                    for cell in graded_nb.cells:
                        gid = _grade_id(cell)
                        if gid:
                            outputs[gid] = cell
                try:
                    sub_nb = gb.find_submission_notebook(name, assignment, student)
                    grades = {g.name: g for g in sub_nb.grades}
                except MissingEntry:
                    grades = {}
                    problems.append(Problem("not_graded", f"{name}.ipynb was not graded", True))
                for gid, (description, points) in described.items():
                    grade = grades.get(gid)
                    score = float(grade.score) if grade is not None and grade.score is not None else 0.0
                    cell = outputs.get(gid)
                    message = failure_message(cell) if cell is not None else "This test did not run."
                    passed = grade is not None and score >= points and points > 0
                    tests.append(TestResult(gid, description or gid, score, points, passed,
                                            "" if passed else redact(message or "This test failed.", hidden)))
        max_score = sum(t.max_points for t in tests)
        result = SubmissionResult(student, assignment, sum(t.points for t in tests), max_score, tests)
        for p in problems:
            result.add(p.kind, p.text, p.attention)
        return result

    def autograded_notebook(self, assignment: str, student: str, name: str) -> nbformat.NotebookNode | None:
        path = self.directory(self.coursedir.autograded_directory, assignment, student) / f"{name}.ipynb"
        if not path.exists():
            return None
        try:
            return nbformat.read(path, as_version=4)
        except (OSError, ValueError, json.JSONDecodeError):
            return None

    _autograded_notebook = autograded_notebook  # the name used before

    def diagnose(self, result: SubmissionResult) -> None:
        """Add to ``result`` what the autograded notebooks show went wrong."""
        described = test_descriptions(result.assignment, self.source)
        not_run = 0
        for name in self.notebook_names(result.assignment):
            nb = self.autograded_notebook(result.assignment, result.student, name)
            if nb is None:
                continue
            for index, cell in enumerate(nb.cells):
                if cell.cell_type != "code":
                    continue
                meta = cell.metadata.get("nbgrader", {})
                gid = meta.get("grade_id")
                if _is_test(meta):
                    label = f"the test \"{described.get(gid, (gid, 0))[0] or gid}\""
                elif meta.get("solution"):
                    label = f"the answer cell {gid}"
                else:
                    label = f"cell {index + 1}" + _snippet(cell.source)
                printed = cell.metadata.get(META, {}).get("output_chars")
                if printed:
                    result.add("huge_output", f"{label} printed {printed:,} characters; the grader cut the output")
                for out in cell.get("outputs", []):
                    if out.get("output_type") != "error":
                        continue
                    ename, evalue = out.get("ename", ""), ANSI.sub("", str(out.get("evalue", "")))
                    if ename == KERNEL_DIED:
                        result.add("kernel_died", "the kernel died (os._exit(), a crash or out of memory?) while "
                                                  f"running {label}; the cells after it were not run", True)
                    elif ename == CELL_TIMEOUT:
                        result.add("timeout", f"{label} did not finish within the time limit and was stopped "
                                              "(an endless loop?)")
                    elif ename == NOT_RUN:
                        not_run += _is_test(meta)
                        if "interrupted" in evalue:
                            result.add("stuck_kernel", "a cell kept running after it was interrupted (an endless "
                                                       "loop that catches KeyboardInterrupt?); the cells after it "
                                                       "were not run", True)
                        elif "time limit" in evalue:
                            result.add("time_limit", "the notebook used up its time limit (an endless loop?); "
                                                     "the cells after it were not run", True)
                    elif ename in ("SyntaxError", "IndentationError", "TabError") and not _is_test(meta):
                        result.add("syntax_error", f"{label} has a syntax error ({ename}: {evalue.strip()[:160]}); "
                                                   "nothing in it was defined")
                    elif ename == "SystemExit":
                        result.add("sys_exit", f"{label} called sys.exit(); the grader kept going")
                    elif ename == "AssertionError" and evalue.startswith(TAMPERED):
                        detail = evalue[len(TAMPERED):].split(". The tests", 1)[0].lstrip(": ")
                        result.add("tampered", f"the submission modified the course's helper package ({detail}); "
                                               "the tests that ran after it fail", True)
        if not_run:
            for p in result.problems:
                if p.kind in ("kernel_died", "stuck_kernel", "time_limit") and p.text.endswith("were not run"):
                    tests = f"{not_run} test{'s' if not_run != 1 else ''}"
                    p.text = p.text.replace("the cells after it were not run", f"the {tests} after it were not run")
                    break


def _snippet(source: str) -> str:
    """A short quote of a cell's first line of code that is not an import or a comment."""
    for line in source.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "import ", "from ")):
            return f" ({line[:40]}{'...' if len(line) > 40 else ''})"
    return ""


def replace_answer(nb: nbformat.NotebookNode, grade_id: str, code: str) -> nbformat.NotebookNode:
    """A copy of ``nb`` whose answer cell ``grade_id`` holds ``code`` (as a learner would type it)."""
    nb_copy = nbformat.from_dict(json.loads(json.dumps(nb)))
    for cell in nb_copy.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            cell.source = code
            return nb_copy
    raise KeyError(f"no cell with grade_id {grade_id!r}")
