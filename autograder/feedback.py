"""Per-student feedback: every test's description, points, pass/fail and message; never test source.

nbgrader's own ``generate_feedback`` renders the autograded notebook, hidden tests
and tracebacks included. This feedback is built from a
:class:`~autograder.results.SubmissionResult` alone, which holds for each test only
its description (the first line of its docstring), its points, whether it passed
and its message (the exception's type and text, with any hidden test line
removed by the engine). No cell source and no traceback ever reaches it. A score an
instructor set in the formgrader is the page's score, with the tests' own score beside it.

    feedback/<student>/<assignment>/<notebook>.html   what the learner opens
    feedback/<student>/<assignment>/feedback.json     the same, as data
"""

from __future__ import annotations

import json
from pathlib import Path

from toolfaults.language import language_of

from . import pages
from .results import ATTENTION, INSTRUCTOR_SCORE, SubmissionResult

#: The page's own words, in the submission's language (a Spanish assignment's name ends in _es).
WORDS = {
    "en": {
        "feedback": "Feedback",
        "passed": "{passed} of {total} tests passed. Each test checks one behaviour of the contract;\n"
                  "a failing test's message says what went wrong and hints at the fix.",
        "attention": "Your instructor will look at this submission.",
        "noticed": "What the grader noticed:",
        "test": "Test",
        "points": "Points",
    },
    "es": {
        "feedback": "Comentarios",
        "passed": "{passed} de {total} tests superados. Cada test comprueba un comportamiento del contrato;\n"
                  "el mensaje de un test que falla dice qué salió mal y da una pista para arreglarlo.",
        "attention": "Tu profesor revisará esta entrega.",
        "noticed": "Lo que ha visto el corrector:",
        "test": "Test",
        "points": "Puntos",
    },
}


def render_html(result: SubmissionResult) -> str:
    """The feedback page of one submission (template ``templates/feedback.html``), in its language."""
    language = language_of(result.assignment)
    passed = sum(t.passed for t in result.tests)
    words = dict(WORDS[language], passed=WORDS[language]["passed"].format(passed=passed, total=len(result.tests)))
    # The instructor's score is said under the score; the box is for what the grader noticed.
    adjusted = [p.in_language(language) for p in result.problems if p.kind == INSTRUCTOR_SCORE]
    noticed = [p for p in result.problems if p.kind != INSTRUCTOR_SCORE]
    return pages.render("feedback.html", r=result, passed=passed, attention=result.status == ATTENTION,
                        language=language, w=words, adjusted=adjusted, problems=noticed)


def as_data(result: SubmissionResult) -> dict:
    """The feedback as data: the same fields the page shows."""
    return {
        "student": result.student,
        "assignment": result.assignment,
        "language": language_of(result.assignment),
        "score": result.score,
        "max_score": result.max_score,
        "status": result.status,
        "problems": [p.in_language(language_of(result.assignment)) for p in result.problems],
        "tests": [{"description": t.description, "points": t.points, "max_points": t.max_points,
                   "passed": t.passed, "message": t.message} for t in result.tests],
    }


def write(result: SubmissionResult, folder: Path, notebook: str | None = None) -> Path:
    """Write the page (and its JSON) under ``folder/<student>/<assignment>/``; returns the page's path."""
    dest = Path(folder) / result.student / result.assignment
    dest.mkdir(parents=True, exist_ok=True)
    page = dest / f"{notebook or result.assignment}.html"
    page.write_text(render_html(result), encoding="utf-8")
    (dest / "feedback.json").write_text(json.dumps(as_data(result), indent=1), encoding="utf-8")
    return page
