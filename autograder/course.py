"""The course's nbgrader setup, loaded once: configuration, paths, assignments.

Everything instructor-side (release, grading, reports, tests) gets its nbgrader
objects from here, so there is one place that knows the layout.
"""

from __future__ import annotations

import difflib
import functools
from pathlib import Path
from typing import Any

from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from .classes import CLASSES, SAMPLE_CLASS, ClassFolder  # noqa: F401 - re-exported
from .layout import ROOT  # the one place that finds the course

SOLUTIONS = ROOT / "solutions"
EXERCISES = ROOT / "exercises"
AUTOGRADER = ROOT / "autograder"
# The fairness catalogue: wrong and right implementations of each answer cell.
CATALOGUE = ROOT / "coursetools" / "catalogue"
# A class is its own folder (autograder/classes.py): its submissions, gradebook, outputs and LMS
# files. Which class a command works on: --class, AUTOGRADER_CLASS (make's CLASS=), class.local, or
# the sample class the repository ships (classes/sample). nbgrader_config.py reads the same.
# The names below are the SAMPLE class's (the tests, `make bench`, `python -m coursetools.sample_class`);
# the commands ask ClassFolder.current() instead.
SAMPLE = ClassFolder(SAMPLE_CLASS)
SUBMITTED = SAMPLE.submitted
OUTPUT = SAMPLE.output
GRADEBOOK = SAMPLE.gradebook
AUTOGRADED = SAMPLE.autograded
FEEDBACK = SAMPLE.feedback
GRADES_CSV = SAMPLE.grades_csv
REPORTS = SAMPLE.reports
RESULTS = SAMPLE.results
COLLECTED = SAMPLE.collected
EXPORTS = SAMPLE.exports
# The course's public repository (its web address): the README's Binder badge is written
# from it (`python -m autograder.edition badge`; tests/lms/test_edition.py checks it). A
# learner edition has an address of its own (`make learner-edition REPOSITORY=...`).
REPOSITORY = "https://github.com/toolcalling-course/error-handling"


def assignments(source: Path = SOLUTIONS) -> list[str]:
    """Names of the assignments: the folders of ``solutions/`` that hold a notebook."""
    if not source.is_dir():
        return []
    return sorted(p.name for p in source.iterdir() if p.is_dir() and any(p.glob("*.ipynb")))


def is_practice(name: str, source: Path = SOLUTIONS) -> bool:
    """Whether an assignment is a practice exercise: visible tests only, no test cell with points.

    A practice exercise is released (``make exercises``) and counted by ``make progress`` like the
    others, but there is nothing to grade: ``make grade`` leaves it out (:func:`graded_assignments`).
    """
    import json

    for path in (source / name).glob("*.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        if any((c.get("metadata", {}).get("nbgrader") or {}).get("points") for c in cells):
            return False
    return True


def graded_assignments(source: Path = SOLUTIONS) -> list[str]:
    """The assignments ``make grade`` grades: every assignment but the practice ones (:func:`is_practice`)."""
    return [name for name in assignments(source) if not is_practice(name, source)]


def load_config(**coursedir: Any) -> Config:
    """The course's ``nbgrader_config.py``, with ``CourseDirectory`` traits overridden.

    Relative directories in the overrides are resolved by nbgrader against
    ``CourseDirectory.root``; absolute ones are used as they are.
    """
    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    check_settings(config, other_sections=True)  # a misspelt setting of a step the grader runs is an error
    for key, value in coursedir.items():
        setattr(config.CourseDirectory, key, value)
    return config


def api(config: Config | None = None):
    """An ``NbGraderAPI`` for the course (or for ``config``).

    The process is readied for it first: nbgrader runs ``alembic`` from ``PATH``
    (:func:`autograder.process.venv_tools_on_path`), and its gradebook's warnings are kept quiet
    (:func:`autograder.process.quiet_gradebook_warnings`).
    """
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    from .process import quiet_gradebook_warnings, venv_tools_on_path

    venv_tools_on_path()
    quiet_gradebook_warnings()
    config = config or load_config()
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


@functools.cache
def settable() -> dict[str, frozenset[str]]:
    """``section -> its settings``: every class a course's configuration may name, with the names of its
    ``config=True`` traits (its parents' included): nbgrader's preprocessors, converters and course
    directory, the grader's steps, the sandboxed kernel manager (and its parents: ``KernelManager``...)
    and :class:`autograder.settings.CrossCheck`. Each parent class is a section too (``ExecutePreprocessor``)."""
    from nbgrader import converters
    from nbgrader import preprocessors as nbgrader_steps
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Configurable

    from . import preprocessors
    from .sandbox import SandboxedKernelManager
    from .settings import CrossCheck

    classes = [CourseDirectory, SandboxedKernelManager, CrossCheck,
               *preprocessors.autograde_pipeline(), *preprocessors.sanitize_pipeline(),
               *(getattr(converters, name) for name in converters.__all__),
               *(getattr(nbgrader_steps, name) for name in nbgrader_steps.__all__)]
    known: dict[str, frozenset[str]] = {}
    for cls in classes:
        for base in cls.__mro__:
            if isinstance(base, type) and issubclass(base, Configurable):
                known[base.__name__] = known.get(base.__name__, frozenset()) | set(base.class_trait_names(config=True))
    return known


def check_settings(settings: dict[str, dict[str, Any]], *, other_sections: bool = False) -> None:
    """Check a course's settings, ``{"Class": {"trait": value}}`` (:class:`autograder.engine.Course`'s ``config``,
    or ``nbgrader_config.py``'s), against the settings the grader's classes declare (:func:`settable`).

    Args:
        settings: the settings, a dict or a traitlets ``Config``.
        other_sections: let sections of no class the grader runs pass unchecked (``nbgrader_config.py`` may
            configure nbgrader's own commands: ``Exchange``, ``ZipCollectApp``...); their settings are nbgrader's.

    Raises:
        ValueError: naming the first unknown section or setting, and the nearest known name, so that a
            misspelt ``CrossCheck.enable = False`` stops the course instead of being ignored.
    """
    known = settable()
    for section, traits in settings.items():
        if section not in known:
            if other_sections or not isinstance(traits, dict):
                continue
            raise ValueError(f"unknown settings section {section!r}{_nearest(section, known)}")
        for name in traits:
            if name not in known[section]:
                raise ValueError(f"unknown setting {section}.{name}{_nearest(name, known[section], section + '.')}; "
                                 f"{section}'s settings: {', '.join(sorted(known[section]))}")


def _nearest(name: str, names: Any, prefix: str = "") -> str:
    close = difflib.get_close_matches(name, list(names), n=1)
    return f" (did you mean {prefix}{close[0]}?)" if close else ""
