"""The course's nbgrader setup, loaded once: configuration, paths, assignments.

Everything instructor-side (release, grading, reports, tests) gets its nbgrader
objects from here, so there is one place that knows the layout.
"""

from __future__ import annotations

import os
import sys
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

# nbgrader runs `alembic` (and kernels run `python`) from PATH: put this
# interpreter's bin folder first, so the venv's tools are found from anywhere.
_BIN = str(Path(sys.executable).parent)
if os.environ.get("PATH", "").split(os.pathsep)[0] != _BIN:
    os.environ["PATH"] = _BIN + os.pathsep + os.environ.get("PATH", "")


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
    for key, value in coursedir.items():
        setattr(config.CourseDirectory, key, value)
    return config


def api(config: Config | None = None):
    """An ``NbGraderAPI`` for the course (or for ``config``)."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    config = config or load_config()
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)
