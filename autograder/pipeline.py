"""One submission's way through the grader: its context, and the stages it goes through, in order.

A :class:`Submission` holds everything about one student's submission of one assignment: the
:class:`Assignment` (its notebooks' names, released copies, sources, test descriptions and hidden
lines, read once per process), the three folders (what was handed in, the staged copy nbgrader
grades, nbgrader's autograded copy), the problems found so far, and the autograded notebooks,
each read once. :func:`grade` takes it through the stages of :data:`STAGES`::

    stage         autograder.staging      copy the submission into its own folder, repaired
    execute       nbgrader's autograde    run the staged notebooks in a kernel (sandboxed)
    read back     autograder.readback     scores and messages, from the gradebook and the autograded copy
    diagnose      autograder.diagnosis    what the error outputs say went wrong
    cross-check   autograder.crosscheck   the tests again in the clean room, the code scanned
    explain       autograder.unparsed     a syntax error said once, naming its line

Every stage but ``execute`` is a function of the context and plain data that a test can call on
fixture notebooks without a kernel (``tests/grading/test_pipeline.py``). The stages do not know
the course: ``execute`` is given nbgrader's autograde step as a function
(:meth:`autograder.engine.Course.run_nbgrader`), and every gradebook write goes through the one
writer, :class:`autograder.gradebook.Book`.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

from .problems import Problem, problem
from .results import SubmissionResult

# The stages :func:`grade` runs, in order (docs/architecture.md lists the same; a test checks it).
STAGES = ("stage", "execute", "read back", "diagnose", "cross-check", "explain")


@dataclass(frozen=True)
class Assignment:
    """One assignment as the grader reads it: every notebook read once, never changed.

    Args:
        name: the assignment's name (its folder in the source and release folders).
        source: the folder of the assignment's source notebooks (solutions, hidden tests).
        notebooks: the names of its notebooks, without ``.ipynb``, sorted.
        released: each notebook as released to learners (what staging repairs from).
        sources: each source notebook (what the clean room takes the tests from).
        tests: ``grade_id -> (description, points)`` of every test cell.
        hidden: the recognisable hidden test lines (no message may show them).
    """

    name: str
    source: Path
    notebooks: tuple[str, ...]
    released: dict[str, nbformat.NotebookNode]
    sources: dict[str, nbformat.NotebookNode]
    tests: dict[str, tuple[str, float]]
    hidden: tuple[str, ...]

    @classmethod
    def read(cls, name: str, source: Path, release: Path) -> Assignment:
        """Read an assignment from its source folder (``source/name``) and its release (``release/name``)."""
        from .testcells import hidden_code, test_descriptions

        names = tuple(sorted(p.stem for p in (source / name).glob("*.ipynb")))
        return cls(name, Path(source), names,
                   {n: nbformat.read(release / name / f"{n}.ipynb", as_version=4) for n in names},
                   {n: nbformat.read(source / name / f"{n}.ipynb", as_version=4) for n in names},
                   test_descriptions(name, source), hidden_code(name, source))

    def code_size(self) -> int:
        """Characters of code in the source notebooks, hidden tests included (how long grading may take)."""
        return sum(len(c.source) for nb in self.sources.values() for c in nb.cells if c.cell_type == "code")


@dataclass
class Submission:
    """One student's submission of one assignment, as it goes through the stages.

    Args:
        assignment: the assignment, read once.
        student: the student's id.
        submitted: the folder the student handed in (read, never changed).
        staged: where :func:`stage` puts the repaired copy nbgrader grades.
        autograded: where nbgrader writes the autograded copy.
    """

    assignment: Assignment
    student: str
    submitted: Path
    staged: Path
    autograded: Path
    problems: list[Problem] = field(default_factory=list)  # found before the result exists (staging)
    notebooks: list[str] = field(default_factory=list)  # the staged notebooks: those nbgrader can grade
    _graded: dict[str, nbformat.NotebookNode | None] = field(default_factory=dict, repr=False)

    def graded(self, name: str) -> nbformat.NotebookNode | None:
        """The autograded copy of notebook ``name``, read once (``None``: nbgrader left none, or it cannot be read)."""
        if name not in self._graded:
            path = self.autograded / f"{name}.ipynb"
            try:
                self._graded[name] = nbformat.read(path, as_version=4) if path.is_file() else None
            except (OSError, ValueError):
                self._graded[name] = None
        return self._graded[name]

    def checked_copy(self, name: str) -> tuple[nbformat.NotebookNode, Path] | None:
        """The copy of notebook ``name`` that the cross-checks re-run and scan, and its folder.

        nbgrader's autograded copy; when nbgrader left none (it could not grade the submission:
        a dead kernel, a time limit), the staged copy it was given, so that a submission nbgrader
        could not grade is still re-run and scanned. ``None`` when neither exists.
        """
        graded = self.graded(name)
        if graded is not None:
            return graded, self.autograded
        from .staging import read_notebook

        staged, _ = read_notebook(self.staged / f"{name}.ipynb")
        return None if staged is None else (staged, self.staged)


# -- the stages ------------------------------------------------------------------------------------
def stage(sub: Submission) -> None:
    """Stage: clear what an earlier run left, then copy the submission into ``sub.staged``, repaired.

    Sets ``sub.notebooks`` (the notebooks nbgrader can grade) and adds to ``sub.problems``; never raises.
    """
    from . import staging

    shutil.rmtree(sub.autograded, ignore_errors=True)
    sub._graded.clear()
    try:
        sub.notebooks = staging.stage(sub)
    except Exception as err:  # noqa: BLE001 - a submission must never stop the batch
        sub.notebooks = []
        sub.problems.append(problem("staging_error", error=err))


def execute(sub: Submission, autograde: Callable[[str, str], str]) -> str:
    """Execute: nbgrader's autograde of the staged notebooks (``autograde(assignment, student)``), when there
    are any. Returns why nbgrader could not grade it (its last log line), empty when it did."""
    return autograde(sub.assignment.name, sub.student) if sub.notebooks else ""


def read_back(sub: Submission, scores: dict[str, dict[str, float | None] | None]) -> SubmissionResult:
    """Read back: the result from the gradebook's ``scores`` (:meth:`autograder.gradebook.Book.auto_scores`)
    and the autograded copy's messages, with the problems staging found."""
    from .readback import read_result

    result = read_result(sub, scores)
    for found in sub.problems:
        result.note(found)
    return result


def diagnose(sub: Submission, result: SubmissionResult) -> None:
    """Diagnose: what the autograded copy's error outputs say went wrong (a dead kernel, a time limit...)."""
    from .diagnosis import diagnose as diagnosis

    diagnosis(sub, result)


def cross_check(sub: Submission, result: SubmissionResult, options) -> list[tuple[str, str, float]]:
    """Cross-check: the tests again in the clean room (``options``: :func:`autograder.cleanroom.settings`,
    ``None`` to skip), the code scanned. Returns the test scores it changed, for the gradebook."""
    from . import crosscheck

    return crosscheck.check(sub, result, options) if options is not None else []


def explain(result: SubmissionResult) -> None:
    """Explain: a syntax error becomes one problem naming its line, not a NameError per test."""
    from . import unparsed

    unparsed.explain(result)


def grade(sub: Submission, autograde: Callable[[str, str], str], book, checks) -> SubmissionResult:
    """Take one submission through every stage; every grade is recorded in ``book``. Never raises for a
    broken submission: it gets a score and a reason.

    Args:
        sub: the submission.
        autograde: nbgrader's autograde step (:meth:`autograder.engine.Course.run_nbgrader`).
        book: the gradebook (:class:`autograder.gradebook.Book`).
        checks: the clean room's settings, ``None`` when the course switched the cross-checks off.
    """
    start = time.monotonic()
    stage(sub)
    failure = execute(sub, autograde)
    if not sub.notebooks or failure:
        try:
            book.record_zero(sub.assignment.name, sub.student)
        except Exception as err:  # noqa: BLE001 - reported, never raised
            sub.problems.append(problem("gradebook_error", error=err))
    result = read_back(sub, book.auto_scores(sub.assignment.name, sub.student, sub.assignment.notebooks))
    if failure:
        result.flag("nbgrader_error", failure=failure)
    diagnose(sub, result)
    changed = cross_check(sub, result, checks)
    if changed:
        book.set_auto_scores(sub.assignment.name, sub.student, changed)
    explain(result)
    result.seconds = round(time.monotonic() - start, 3)
    result.worker = os.getpid()
    return result
