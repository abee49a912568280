"""The nbgrader wrapper: one course directory, driven through nbgrader's Python API.

A :class:`Course` wraps one nbgrader course directory (the real one, or a scratch
copy for tests), generates an assignment once, and autogrades submissions one by
one in this process (no per-student ``nbgrader`` command and its ~2 s of imports)::

    >>> course = Course.scratch(tmp_path)                       # doctest: +SKIP
    >>> course.generate("05_retry_with_backoff")                # doctest: +SKIP
    >>> course.submit("ana", "05_retry_with_backoff", notebook) # doctest: +SKIP
    >>> course.autograde("05_retry_with_backoff", "ana").score  # doctest: +SKIP

:meth:`Course.autograde` takes one submission through the stages of
:mod:`autograder.pipeline` (stage, execute, read back, diagnose, cross-check, explain). The
course is what those stages are not: nbgrader's configuration and API (generate an
assignment, autograde a staged submission), the paths of its course directory, the
assignment as read once (:meth:`Course.assignment`) and the gradebook
(:class:`autograder.gradebook.Book`, its one writer).

Broken submissions never stop grading and always get a score and a reason.
"""

from __future__ import annotations

import copy
import logging
import shutil
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

from . import crosscheck, pipeline
from .course import ROOT, SOLUTIONS, api, check_settings, load_config
from .gradebook import Book, read_alembic_head_here
from .pipeline import Assignment, Submission
from .preprocessors import autograde_pipeline, sanitize_pipeline
from .readback import ANSI
from .results import SubmissionResult

log = logging.getLogger(__name__)


def nbgrader_log_level() -> int:
    """nbgrader's own log: shown with ``--verbose`` (the grader's log at DEBUG), errors only otherwise."""
    return logging.INFO if logging.getLogger("autograder").isEnabledFor(logging.DEBUG) else logging.ERROR


@dataclass
class CourseSpec:
    """Everything needed to rebuild a :class:`Course` in another process (plain, picklable data)."""

    root: str
    source: str
    submissions: str
    staging: str
    coursedir: dict[str, Any]
    config: dict[str, dict[str, Any]]
    log_level: int = logging.ERROR  # nbgrader's log level


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
        log_level: nbgrader's log level (default: :func:`nbgrader_log_level`).
        **coursedir: further ``CourseDirectory`` overrides.
    """

    def __init__(self, root: Path = ROOT, source: Path = SOLUTIONS, *, submissions: Path | None = None,
                 staging: Path | None = None, config: dict[str, dict[str, Any]] | None = None,
                 log_level: int | None = None, **coursedir: Any) -> None:
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
        self.config.Autograde.sanitize_preprocessors = sanitize_pipeline()
        check_settings(self._extra)  # a misspelt section or setting raises ValueError (autograder/course.py)
        for section, traits in self._extra.items():
            for trait, value in traits.items():
                setattr(self.config[section], trait, value)
        self.log_level = nbgrader_log_level() if log_level is None else log_level
        logging.getLogger("traitlets").setLevel(self.log_level)
        self.api = api(self.config)
        self.api.log.setLevel(self.log_level)
        self.coursedir = self.api.coursedir
        read_alembic_head_here()
        self._assignments: dict[str, Assignment] = {}

    def configure(self, settings: dict[str, dict[str, Any]]) -> None:
        """Change settings, ``{"Class": {"trait": value}}``, here and in :meth:`spec` (the course a worker rebuilds)."""
        from traitlets.config import Config

        for section, traits in settings.items():
            self._extra.setdefault(section, {}).update(copy.deepcopy(traits))
        overrides = Config(copy.deepcopy(settings))
        self.config.merge(overrides)
        self.api.update_config(overrides)

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
                          coursedir, copy.deepcopy(self._extra), self.log_level)

    @classmethod
    def from_spec(cls, spec: CourseSpec) -> Course:
        return cls(Path(spec.root), Path(spec.source), submissions=Path(spec.submissions),
                   staging=Path(spec.staging), config=spec.config, log_level=spec.log_level, **spec.coursedir)

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

    def code_size(self, assignment: str) -> int:
        """Characters of code in the assignment's source notebooks, hidden tests included: what the
        grading loop uses to guess which submissions take longest (see :func:`autograder.pool.longest_first`)."""
        return sum(len(cell.source) for name in self.notebook_names(assignment)
                   for cell in self.solution(assignment, name).cells if cell.cell_type == "code")

    def submitted(self, assignment: str, student: str) -> Path:
        """The student's submission folder (what they handed in)."""
        return self.submissions / student / assignment

    # -- steps -------------------------------------------------------------------------
    def generate(self, assignment: str) -> None:
        """Generate the released version and record the assignment in the gradebook.

        Raises:
            RuntimeError: nbgrader could not generate it (its log says why).
        """
        self._assignments.pop(assignment, None)
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

    # -- the pipeline's view of the course ------------------------------------------------
    def assignment(self, name: str) -> Assignment:
        """The assignment as the pipeline reads it, once per process (read again after :meth:`generate`)."""
        if name not in self._assignments:
            release = self.root / self.coursedir.release_directory
            self._assignments[name] = Assignment.read(name, self.source, release)
        return self._assignments[name]

    def submission(self, assignment: str, student: str) -> Submission:
        """One student's submission of ``assignment``, as the pipeline's stages take it."""
        return Submission(self.assignment(assignment), student, self.submitted(assignment, student),
                          self.staging / student / assignment,
                          self.directory(self.coursedir.autograded_directory, assignment, student))

    @property
    def book(self) -> Book:
        """The course's gradebook, the one writer of it (:class:`autograder.gradebook.Book`)."""
        return Book(self.db_url, self.course_id)

    def run_nbgrader(self, assignment: str, student: str) -> str:
        """nbgrader's autograde of one staged submission; why it could not grade it (its log's last line), or ""."""
        outcome = self.api.autograde(assignment, student, force=True, create=True)
        if outcome["success"]:
            return ""
        text = ANSI.sub("", (outcome.get("error") or outcome.get("log") or "")).strip()
        log.debug("nbgrader could not grade %s/%s:\n%s", student, assignment, text)
        return (text.splitlines() or ["?"])[-1]

    def autograde(self, assignment: str, student: str) -> SubmissionResult:
        """Grade one student's submission through every stage of :mod:`autograder.pipeline`. Never raises for a
        broken one: it gets a score and a reason."""
        return pipeline.grade(self.submission(assignment, student), self.run_nbgrader, self.book,
                              crosscheck.options(self.config))
