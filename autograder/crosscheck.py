"""The checks that run after a submission is graded, so that tricks cannot fool the grade.

The pipeline's "cross-check" stage (:mod:`autograder.pipeline`)::

    changed = crosscheck.check(sub, result, options)   # the scores the clean room changed

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
tests that show what a trick does *without* them use that): the pipeline is then given no
clean-room settings (:func:`options`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from . import cleanroom, scan
from .problems import RECHECK_FAILED

if TYPE_CHECKING:
    from .pipeline import Submission
    from .results import SubmissionResult

log = logging.getLogger(__name__)


def options(config: Any) -> cleanroom.Settings | None:
    """The clean room's settings for a course's nbgrader ``config``; ``None`` when it switched the checks off."""
    section = config["CrossCheck"] if "CrossCheck" in config else {}
    return cleanroom.settings(config) if section.get("enabled", True) else None


def check(sub: Submission, result: SubmissionResult, options: cleanroom.Settings) -> list[tuple[str, str, float]]:
    """Cross-check one graded submission (changes ``result`` in place; never raises).

    Args:
        sub: the submission (:class:`autograder.pipeline.Submission`).
        result: its result so far.
        options: how to run the clean room (:func:`options`).

    Returns:
        ``[(notebook, grade_id, points)]``: the tests whose score the clean room changed, for the
        gradebook. A score goes down where the clean room failed a test, and up only where the
        helper-package check alone failed it in the kernel (:func:`cleanroom.compare`); problems are added.
    """
    changed: list[tuple[str, str, float]] = []
    try:
        runs = cleanroom.rerun(sub, options)
        changed = cleanroom.compare(result, runs, sub.assignment.hidden)
        flags = []
        for name in sub.assignment.notebooks:
            found = sub.checked_copy(name)
            if found is not None:
                flags += scan.scan_notebook(found[0])
        scan.report(result, flags)
        return changed
    except Exception as err:  # noqa: BLE001 - a check that breaks must not lose the grade
        log.exception("cross-check of %s/%s failed", result.student, result.assignment)
        result.flag(RECHECK_FAILED, error=type(err).__name__)
        return changed
