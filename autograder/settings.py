"""The grader's own settings that belong to no nbgrader step: the cross-checks (:class:`CrossCheck`).

A course sets them as any nbgrader setting, ``c.CrossCheck.enabled = False`` in a config file or
``config={"CrossCheck": {"enabled": False}}`` for an :class:`autograder.engine.Course`, and the grader
reads them through the class (``CrossCheck(config=config).enabled``), so that a name it does not
declare is an error (:func:`autograder.course.check_settings`), not a setting silently ignored.

The other settings are traits of the step they limit: a cell's and a notebook's time limits and the
kernel's start-up of ``GuardedExecute`` (:mod:`autograder.preprocessors`, nbgrader's ``Execute.timeout``
included), the sandbox's limits of ``SandboxedKernelManager`` (:mod:`autograder.sandbox`).
docs/instructors.md ("Speed and time limits") lists the time limits (tests/sandbox/test_settings.py
checks the table against the traits).

This module imports traitlets only: the fork server's defaults read it (:mod:`autograder.forkserver`).
"""

from __future__ import annotations

from traitlets import Bool, Float
from traitlets.config import Configurable


class CrossCheck(Configurable):
    """The checks that run after nbgrader's grading (:mod:`autograder.crosscheck`): the clean room and the scan."""

    enabled = Bool(
        True,
        help="Re-run each graded notebook's tests in the clean room and scan its code (autograder.crosscheck); "
             "False only for the tests that show what a trick does without them.",
    ).tag(config=True)

    fork = Bool(
        True,
        help="Run each clean run as a fork of a long-lived clean-room process (autograder.forkserver); "
             "False: a fresh Python process per run.",
    ).tag(config=True)

    grace = Float(
        20.0,
        help="Seconds a clean run may take beyond the notebook's time limit (GuardedExecute.notebook_timeout) "
             "for its start-up and imports before it is stopped.",
    ).tag(config=True)
