"""What grading a submission produced, as plain data: no nbgrader, no notebooks.

A :class:`SubmissionResult` holds one student's score for one assignment, a
:class:`TestResult` per test cell (description, points, pass/fail, message) and the
:class:`Problem` s found with the submission (kinds of :mod:`autograder.problems`, raised with
:meth:`SubmissionResult.flag`). The feedback pages, the class report
and ``results.json`` are built from these alone, so they import this module and
nothing of nbgrader.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .problems import INSTRUCTOR_SCORE, Problem, problem

__all__ = ["ATTENTION", "INSTRUCTOR_SCORE", "Problem", "SubmissionResult", "TestResult"]

ATTENTION = "needs attention"


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
    problems: list[Problem] = field(default_factory=list)
    seconds: float = 0.0  # wall time spent grading it
    worker: int = 0  # process id of the process that graded it

    @property
    def failed(self) -> list[TestResult]:
        return [t for t in self.tests if not t.passed]

    def flag(self, kind: str, **fields: Any) -> None:
        """Record the problem of ``kind`` with ``fields`` (:func:`autograder.problems.problem`, which checks them)."""
        self.note(problem(kind, **fields))

    def note(self, found: Problem) -> None:
        """Record a problem once (the same kind and text once); one that needs attention sets the status."""
        if not any(p.kind == found.kind and p.text == found.text for p in self.problems):
            self.problems.append(found)
        if found.attention:
            self.status = ATTENTION

    def kinds(self) -> list[str]:
        return [p.kind for p in self.problems]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["tests"] = [t.to_dict() for t in self.tests]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SubmissionResult:
        data = dict(data)
        data["tests"] = [TestResult(**t) for t in data.get("tests", [])]
        data["problems"] = [Problem(**p) for p in data.get("problems", [])]
        return cls(**data)
