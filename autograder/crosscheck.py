"""The checks that run after a submission is graded, so that tricks cannot fool the grade.

One call, where the engine produces a submission's result::

    crosscheck.verify(course, result)

1. :mod:`autograder.cleanroom` re-runs the notebook (nbgrader's autograded copy, or the
   staged submission when nbgrader could not grade it) with the assignment's own tests in a
   plain Python process (no IPython), in the same sandbox; each test keeps the lower
   of its two scores, except a test that only the helper-package check failed in the
   kernel and a clean run passed (the clean room's score counts: a false alarm of ours
   costs nothing); any difference or anything the clean room had to put back marks the
   submission "needs attention".
2. :mod:`autograder.scan` flags code that reaches for the kernel's machinery, tracing
   hooks, builtins, frames and the like ("needs attention", never a score change).

A course can switch both off with ``config={"CrossCheck": {"enabled": False}}`` (the
tests that show what a trick does *without* them use that).
"""

from __future__ import annotations

import logging
from typing import Any

from . import cleanroom, scan

log = logging.getLogger(__name__)
SECTION = "CrossCheck"


def enabled(config: Any) -> bool:
    """Whether a course's ``config`` runs the cross-checks (default: yes).

    Args:
        config: the course's traitlets ``Config``.

    Returns:
        False only when ``CrossCheck.enabled`` is set to a false value.
    """
    return not (SECTION in config and "enabled" in config[SECTION] and not config[SECTION]["enabled"])


def verify(course: Any, result: Any) -> None:
    """Cross-check one graded submission, unless the course switched the checks off.

    Args:
        course: the :class:`autograder.engine.Course` that graded it.
        result: its :class:`autograder.engine.SubmissionResult` (changed in place).

    Returns:
        None (see :func:`check`).
    """
    if enabled(course.config):
        check(course, result)


def check(course: Any, result: Any) -> None:
    """Cross-check one graded submission (changes ``result`` in place; never raises).

    Args:
        course: the :class:`autograder.engine.Course` that graded it.
        result: its :class:`autograder.engine.SubmissionResult`.

    Returns:
        None. A score goes down where the clean room failed a test, and up only where the
        helper-package check alone failed it in the kernel (:func:`cleanroom.compare`); problems are added.
    """
    from .testcells import hidden_code

    try:
        runs = cleanroom.rerun(course, result.assignment, result.student)
        changed = cleanroom.compare(result, runs, hidden_code(result.assignment, course.source))
        if changed:
            record(course, result.assignment, result.student, changed)
        flags = []
        for name in course.notebook_names(result.assignment):
            found = cleanroom.checked_copy(course, result.assignment, result.student, name)
            if found is not None:
                flags += scan.scan_notebook(found[0])
        scan.report(result, flags)
    except Exception as err:  # noqa: BLE001 - a check that breaks must not lose the grade
        log.exception("cross-check of %s/%s failed", result.student, result.assignment)
        result.add(cleanroom.UNFINISHED, f"the grader could not re-check this submission ({type(err).__name__}); "
                                         "the kernel's results were kept", True,
                   f"el corrector no pudo volver a comprobar esta entrega ({type(err).__name__}); "
                   "se conservaron los resultados del kernel")


def record(course: Any, assignment: str, student: str, cells: list[tuple[str, str, float]]) -> None:
    """Write the scores the clean room changed into the course's gradebook (grades.csv is read from it).

    Args:
        course: the course whose gradebook holds the submission.
        assignment: the assignment's name.
        student: the student's id.
        cells: ``[(notebook, grade_id, points)]`` of the tests whose score changed.

    Returns:
        None.
    """
    from nbgrader.api import Gradebook

    with Gradebook(course.db_url, course.course_id) as gb:
        for notebook, grade_id, points in cells:
            gb.find_grade(grade_id, notebook, assignment, student).auto_score = points
        gb.db.commit()
