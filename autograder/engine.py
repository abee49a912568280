"""The nbgrader wrapper: one course directory, driven through nbgrader's Python API.

A :class:`Course` wraps one nbgrader course directory (the real one, or a scratch
copy for tests), generates an assignment once, and autogrades submissions one by
one in this process (no per-student ``nbgrader`` command and its ~2 s of imports)::

    >>> course = Course.scratch(tmp_path)                       # doctest: +SKIP
    >>> course.generate("05_retry_with_backoff")                # doctest: +SKIP
    >>> course.submit("ana", "05_retry_with_backoff", notebook) # doctest: +SKIP
    >>> course.autograde("05_retry_with_backoff", "ana").score  # doctest: +SKIP

:meth:`Course.autograde` is the path of one submission, each step in its own module:

1. :func:`autograder.staging.stage` copies it into a private folder and repairs it;
2. nbgrader's ``autograde`` runs the pipeline of :mod:`autograder.preprocessors`
   (time limits, dead or stuck kernels, huge output, helper-package check), in the
   sandbox of :mod:`autograder.sandbox` when the configuration says so;
3. :func:`autograder.readback.read_result` reads scores and messages back;
4. :func:`autograder.diagnosis.diagnose` says what went wrong.

Broken submissions never stop grading and always get a score and a reason.
"""

from __future__ import annotations

import copy
import logging
import os
import shutil
import tempfile
import time
import warnings
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat

from . import crosscheck
from . import gradebook as gbook
from .course import ROOT, SOLUTIONS, api, load_config
from . import unparsed
from .diagnosis import diagnose
from .preprocessors import autograde_pipeline, sanitize_pipeline
from .readback import ANSI, read_result
from .results import Problem, SubmissionResult
from .staging import stage

log = logging.getLogger(__name__)

# Grading runs thousands of nbgrader/SQLAlchemy steps: keep their chatter out of the output.
warnings.filterwarnings("ignore", message=".*not in session.*")


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
        for section, traits in self._extra.items():
            for trait, value in traits.items():
                setattr(self.config[section], trait, value)
        self.log_level = nbgrader_log_level() if log_level is None else log_level
        logging.getLogger("traitlets").setLevel(self.log_level)
        self.api = api(self.config)
        self.api.log.setLevel(self.log_level)
        self.coursedir = self.api.coursedir

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

    def autograded_notebook(self, assignment: str, student: str, name: str) -> nbformat.NotebookNode | None:
        """The autograded copy of one notebook (see :func:`autograder.readback.autograded_notebook`)."""
        from .readback import autograded_notebook

        return autograded_notebook(self, assignment, student, name)

    def autograde(self, assignment: str, student: str) -> SubmissionResult:
        """Stage, autograde and read back one student's submission. Never raises for a broken one."""
        start = time.monotonic()
        problems: list[Problem] = []
        shutil.rmtree(self.directory(self.coursedir.autograded_directory, assignment, student), ignore_errors=True)
        try:
            staged = stage(self, assignment, student, problems)
        except Exception as err:  # noqa: BLE001 - a submission must never stop the batch
            staged = []
            problems.append(Problem("staging_error", f"the submission could not be prepared for grading ({err})", True,
                                    f"no se pudo preparar la entrega para corregirla ({err})"))
        failure = ""
        if staged:
            outcome = self.api.autograde(assignment, student, force=True, create=True)
            if not outcome["success"]:
                text = ANSI.sub("", (outcome.get("error") or outcome.get("log") or "")).strip()
                failure = (text.splitlines() or ["?"])[-1]
                log.debug("nbgrader could not grade %s/%s:\n%s", student, assignment, text)
        if not staged or failure:
            from nbgrader.api import Gradebook

            try:
                with Gradebook(self.db_url, self.course_id) as gb:
                    gbook.record_zero(gb, assignment, student)
            except Exception as err:  # noqa: BLE001 - reported, never raised
                problems.append(Problem("nbgrader_error", f"the gradebook could not record this submission ({err})", True,
                                        f"el libro de notas no pudo registrar esta entrega ({err})"))
        result = read_result(self, assignment, student)
        for p in problems:
            result.add(p.kind, p.text, p.attention, p.text_es)
        if failure:
            result.add("nbgrader_error", f"nbgrader could not grade this submission: {failure}", True,
                       f"nbgrader no pudo corregir esta entrega: {failure}")
        diagnose(self, result)
        crosscheck.verify(self, result)  # tricks: the tests again in a clean room, the code scanned
        unparsed.explain(result)  # a syntax error: one problem naming the line, not a NameError per test
        result.seconds = round(time.monotonic() - start, 3)
        result.worker = os.getpid()
        return result
