"""`python -m autograder.grade` refuses an --assignment or --student it does not know, naming the valid ones.

A typo (``--assignment 05_retry``) or a wrong case (``--student Ana``) used to print "No submissions
to grade" and exit 0, as if there were nothing to do. Now the command stops as argparse does
(status 2), names what it does not know and lists what it does: the course's assignments, the
students of the submissions folder. A valid name with simply nothing submitted still says so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from autograder.course import ROOT, graded_assignments

ASSIGNMENT = "05_retry_with_backoff"
OTHER = "04_validate_then_execute"


@pytest.fixture
def submissions(tmp_path) -> Path:
    """A scratch submissions folder: ana handed in ASSIGNMENT, ben handed in OTHER."""
    folder = tmp_path / "submitted"
    (folder / "ana" / ASSIGNMENT).mkdir(parents=True)
    (folder / "ben" / OTHER).mkdir(parents=True)
    return folder


def grade(submissions: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "autograder.grade", "--workers", "1", "--unsandboxed",
           "--submissions", str(submissions), "--out", str(submissions.parent / "out"), *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=100)


def test_an_unknown_assignment_is_an_error_that_lists_the_course_assignments(submissions):
    run = grade(submissions, "--assignment", "05_retry")
    assert run.returncode == 2, run.stdout + run.stderr
    assert "error: unknown assignment 05_retry; the course's assignments: " + ", ".join(graded_assignments()) in run.stderr
    assert "No submissions" not in run.stdout
    assert not (submissions.parent / "out").exists()


def test_an_unknown_student_is_an_error_that_lists_the_students_found(submissions):
    run = grade(submissions, "--student", "Ana", "--student", "ana", "--student", "carl")
    assert run.returncode == 2, run.stdout + run.stderr
    assert f"error: unknown students Ana, carl; the students in {submissions}: ana, ben" in run.stderr
    assert "unknown assignment" not in run.stderr


def test_both_wrong_names_are_said_at_once(submissions):
    run = grade(submissions, "--assignment", "05_retry", "--student", "Ana")
    assert run.returncode == 2
    assert "unknown assignment 05_retry;" in run.stderr and "unknown student Ana;" in run.stderr


def test_valid_names_with_nothing_submitted_say_so_plainly(submissions):
    run = grade(submissions, "--assignment", OTHER, "--student", "ana")
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"No submissions of {OTHER} by ana to grade in {submissions}." in run.stdout
    assert "error" not in run.stderr
