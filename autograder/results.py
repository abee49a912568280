"""What grading a submission produced, as plain data: no nbgrader, no notebooks.

A :class:`SubmissionResult` holds one student's score for one assignment, a
:class:`TestResult` per test cell (description, points, pass/fail, message) and the
:class:`Problem` s found with the submission. The feedback pages, the class report
and ``results.json`` are built from these alone, so they import this module and
nothing of nbgrader.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

ATTENTION = "needs attention"
INSTRUCTOR_SCORE = "instructor_score"  # the problem kind of a score an instructor set by hand


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
class Problem:
    """Something wrong with a submission, in one sentence for the instructor and the learner.

    ``kind`` is a stable key (tests and the report use it); ``attention`` means the
    score may not reflect the work and a person should look at it. ``text`` is in
    English (the class report, grades.csv); ``text_es`` is the same sentence for the
    feedback of a Spanish-edition submission (empty: ``text`` is shown).
    """

    kind: str
    text: str
    attention: bool = False
    text_es: str = ""

    def in_language(self, language: str) -> str:
        """The sentence in ``language`` ("en" or "es"), English when there is no translation."""
        return self.text_es if language == "es" and self.text_es else self.text


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

    def add(self, kind: str, text: str, attention: bool = False, text_es: str = "") -> None:
        """Record a problem once (``text`` in English, ``text_es`` in Spanish); one that needs attention sets the status."""
        if not any(p.kind == kind and p.text == text for p in self.problems):
            self.problems.append(Problem(kind, text, attention, text_es))
        if attention:
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
