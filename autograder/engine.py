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
"""

from __future__ import annotations

import ast
import json
import logging
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from .course import ROOT, SOLUTIONS, api, load_config

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


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
class SubmissionResult:
    """The grade of one student's notebook for one assignment."""

    student: str
    assignment: str
    score: float
    max_score: float
    tests: list[TestResult] = field(default_factory=list)
    status: str = "graded"  # "graded" | "needs attention"
    problems: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[TestResult]:
        return [t for t in self.tests if not t.passed]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tests"] = [t.to_dict() for t in self.tests]
        return data


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


def failure_message(cell: nbformat.NotebookNode) -> str:
    """The message a failed test cell printed: its exception's type and text, no source."""
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            ename, evalue = out.get("ename", "Error"), ANSI.sub("", str(out.get("evalue", ""))).strip()
            if ename == "AssertionError" and evalue:
                return evalue
            return f"{ename}: {evalue}" if evalue else ename
    return ""


class Course:
    """One nbgrader course directory, driven through nbgrader's Python API.

    Args:
        root: the course root (where submitted/, autograded/, the gradebook live).
        source: the folder of assignment sources (default: the repo's solutions/).
        **coursedir: further ``CourseDirectory`` overrides.
    """

    def __init__(self, root: Path = ROOT, source: Path = SOLUTIONS, **coursedir: Any) -> None:
        self.root = Path(root).resolve()
        self.source = Path(source).resolve()
        overrides: dict[str, Any] = {"root": str(self.root), "source_directory": str(self.source)}
        overrides.update(coursedir)
        self.config = load_config(**overrides)
        self.api = api(self.config)
        self.api.log.setLevel(logging.WARNING)
        self.coursedir = self.api.coursedir

    @classmethod
    def scratch(cls, root: Path, source: Path = SOLUTIONS, **coursedir: Any) -> Course:
        """A course in an empty folder: its own release, submissions and gradebook."""
        root = Path(root)
        root.mkdir(parents=True, exist_ok=True)
        defaults = {
            "release_directory": "release",
            "submitted_directory": "submitted",
            "autograded_directory": "autograded",
            "feedback_directory": "feedback",
            "db_url": f"sqlite:///{Path(root).resolve() / 'gradebook.db'}",
        }
        defaults.update(coursedir)
        return cls(root, source, **defaults)

    # -- paths -------------------------------------------------------------------------
    def directory(self, step: str, assignment: str, student: str = ".") -> Path:
        return Path(self.coursedir.format_path(step, student, assignment))

    def notebook_names(self, assignment: str) -> list[str]:
        return sorted(p.stem for p in (self.source / assignment).glob("*.ipynb"))

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
        """Place a student's notebook (a node, or raw text/bytes) where nbgrader collects it."""
        name = name or self.notebook_names(assignment)[0]
        folder = self.directory(self.coursedir.submitted_directory, assignment, student)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.ipynb"
        if isinstance(notebook, (str, bytes)):
            path.write_bytes(notebook.encode() if isinstance(notebook, str) else notebook)
        else:
            nbformat.write(notebook, path)
        return path

    def autograde(self, assignment: str, student: str) -> SubmissionResult:
        """Autograde one student's submission and read back the per-test results."""
        outcome = self.api.autograde(assignment, student, force=True, create=True)
        result = self.read_result(assignment, student)
        if not outcome["success"]:
            log = ANSI.sub("", (outcome.get("error") or outcome.get("log") or "")).strip()
            result.status = "needs attention"
            result.problems.append("nbgrader could not grade this submission: " + (log.splitlines() or ["?"])[-1])
        return result

    def read_result(self, assignment: str, student: str) -> SubmissionResult:
        """Score and per-test results of a graded submission (0 for everything missing)."""
        from nbgrader.api import Gradebook, MissingEntry

        described = test_descriptions(assignment, self.source)
        tests: list[TestResult] = []
        problems: list[str] = []
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            for name in self.notebook_names(assignment):
                graded_nb = self._autograded_notebook(assignment, student, name)
                outputs = {}
                if graded_nb is not None:
                    for cell in graded_nb.cells:
                        gid = cell.metadata.get("nbgrader", {}).get("grade_id")
                        if gid:
                            outputs[gid] = cell
                try:
                    sub_nb = gb.find_submission_notebook(name, assignment, student)
                    grades = {g.name: g for g in sub_nb.grades}
                except MissingEntry:
                    grades = {}
                    problems.append(f"{name}.ipynb was not graded")
                for gid, (description, points) in described.items():
                    grade = grades.get(gid)
                    score = float(grade.score) if grade is not None and grade.score is not None else 0.0
                    cell = outputs.get(gid)
                    message = failure_message(cell) if cell is not None else "test did not run"
                    passed = grade is not None and score >= points and points > 0
                    tests.append(TestResult(gid, description or gid, score, points, passed,
                                            "" if passed else message))
        max_score = sum(t.max_points for t in tests)
        return SubmissionResult(student, assignment, sum(t.points for t in tests), max_score, tests,
                                problems=problems)

    def _autograded_notebook(self, assignment: str, student: str, name: str) -> nbformat.NotebookNode | None:
        path = self.directory(self.coursedir.autograded_directory, assignment, student) / f"{name}.ipynb"
        if not path.exists():
            return None
        try:
            return nbformat.read(path, as_version=4)
        except (OSError, ValueError, json.JSONDecodeError):
            return None


def replace_answer(nb: nbformat.NotebookNode, grade_id: str, code: str) -> nbformat.NotebookNode:
    """A copy of ``nb`` whose answer cell ``grade_id`` holds ``code`` (as a learner would type it)."""
    copy = nbformat.from_dict(json.loads(json.dumps(nb)))
    for cell in copy.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            cell.source = code
            return copy
    raise KeyError(f"no cell with grade_id {grade_id!r}")
