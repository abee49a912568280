"""Every notice the grader can write about a submission has its Spanish sentence.

The feedback of a Spanish-edition submission shows ``Problem.text_es``; a notice written
without one would reach a Spanish learner in English. Read from the code: every
``Problem(...)`` built and every ``result.add(...)`` in the grading package passes a
Spanish text (a fourth argument, or ``text_es=``).
"""

from __future__ import annotations

import ast
import functools

import pytest

from autograder.course import ROOT
from autograder.results import Problem, SubmissionResult

PACKAGE = ROOT / "autograder"
# Modules whose Problem is another class (translations.py reports on notebooks to the course's authors).
OTHER_PROBLEMS = {"translations.py"}


@functools.cache
def notices() -> list[tuple[str, int, ast.Call]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in OTHER_PROBLEMS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            builds = isinstance(func, ast.Name) and func.id == "Problem"
            adds = (isinstance(func, ast.Attribute) and func.attr == "add" and len(node.args) >= 2
                    and isinstance(func.value, (ast.Name, ast.Attribute))
                    and (getattr(func.value, "id", "") in {"result", "self"} or getattr(func.value, "attr", "") == "result"))
            rebuilt = any(k.arg is None for k in node.keywords)  # Problem(**saved): read back, not written
            if (builds or adds) and not rebuilt:
                found.append((str(path.relative_to(ROOT)), node.lineno, node))
    return found


def test_the_notices_are_found():
    where = {f for f, _, _ in notices()}
    assert {"autograder/staging.py", "autograder/diagnosis.py", "autograder/cleanroom.py", "autograder/scan.py"} <= where


@pytest.mark.parametrize("place", [f"{f}:{line}" for f, line, _ in notices()])
def test_every_notice_has_its_spanish_sentence(place):
    file, line = place.rsplit(":", 1)
    call = next(c for f, n, c in notices() if f == file and n == int(line))
    spanish = len(call.args) >= 4 or any(k.arg == "text_es" for k in call.keywords)
    assert spanish, f"{place}: a notice without text_es reaches Spanish learners in English"


def test_a_notice_falls_back_to_english_only_without_a_translation():
    r = SubmissionResult("ana", "05_retry_with_backoff_es", 0, 1)
    r.add("renamed", "a.ipynb was missing", text_es="faltaba a.ipynb")
    r.problems.append(Problem("other", "only English"))
    assert [p.in_language("es") for p in r.problems] == ["faltaba a.ipynb", "only English"]
    assert [p.in_language("en") for p in r.problems] == ["a.ipynb was missing", "only English"]
    again = SubmissionResult.from_dict(r.to_dict())
    assert again.problems == r.problems, "results.json keeps the Spanish sentence"
