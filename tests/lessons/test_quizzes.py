"""Every lesson ends with a self-check whose questions are valid, render as widgets under
nbclient and give the right feedback for every option in a real kernel."""

from __future__ import annotations

import html
import json
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook

from autograder.course import ROOT
from editions import EDITIONS
from toolfaults.progress import execute_notebook
from toolfaults.quiz import is_quiz_cell, questions_from_cell

#: The numbered lessons of both editions (course/ and course/es/).
LESSONS = [p for e in EDITIONS for p in e.numbered()]
FIXTURE = ROOT / "tests" / "e2e" / "fixtures" / "quiz.ipynb"   # the browser test's notebook


def quiz_cells(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    return [c.source for c in nb.cells if c.cell_type == "code" and is_quiz_cell(c.source)]


WITH_QUIZ = [p for p in [*LESSONS, FIXTURE] if quiz_cells(p)]

# Prepended so that a quiz cell whose imports live in the lesson's setup cell runs on its own.
IMPORTS = "from toolfaults.quiz import Choice, Question, classify, quiz\n"
REHEARSE = """\
import json as _json
from toolfaults.quiz import Quiz as _Quiz
_quiz = _Quiz(QUESTIONS)
print(_json.dumps([[i, k, option.correct, _quiz.click(i, k)]
                   for i, question in enumerate(_quiz.questions) for k, option in enumerate(question.options)]))
"""


def test_every_lesson_has_one_self_check():
    """Every numbered lesson ends with exactly one quiz(QUESTIONS) cell."""
    assert len(LESSONS) == 8 * len(EDITIONS), f"expected 8 numbered lessons per edition, found {LESSONS}"
    missing = [p.name for p in LESSONS if len(quiz_cells(p)) != 1]
    assert not missing, f"lessons without exactly one quiz(QUESTIONS) cell: {missing}"


@pytest.mark.parametrize("path", WITH_QUIZ, ids=lambda p: p.stem + ("[es]" if p.parent.name == "es" else ""))
def test_quiz_questions_are_valid(path: Path):
    """3-5 questions, each with exactly one right option and an explanation for every option."""
    (source,) = quiz_cells(path)
    questions = questions_from_cell(IMPORTS + source)
    if path != FIXTURE:
        assert 3 <= len(questions) <= 5, f"{path.name}: {len(questions)} questions; a self-check has 3 to 5"


@pytest.fixture(scope="module")
def rehearsed():
    """Every quiz cell run in one kernel, each followed by a cell that clicks every option."""
    cells = []
    for path in WITH_QUIZ:
        (source,) = quiz_cells(path)
        cells += [new_code_cell(IMPORTS + source), new_code_cell(REHEARSE)]
    nb = new_notebook(cells=cells)
    execute_notebook(nb, timeout=120, kernel_name="python3", allow_errors=True,
                     resources={"metadata": {"path": str(ROOT / "course")}})
    return {path: (nb.cells[2 * n], nb.cells[2 * n + 1]) for n, path in enumerate(WITH_QUIZ)}


def _errors(cell) -> list[str]:
    return [f"{o['ename']}: {o['evalue']}" for o in cell.outputs if o.output_type == "error"]


@pytest.mark.slow
@pytest.mark.parametrize("path", WITH_QUIZ, ids=lambda p: p.stem + ("[es]" if p.parent.name == "es" else ""))
def test_quiz_renders_and_checks_every_answer_under_nbclient(rehearsed, path: Path):
    shown, clicked = rehearsed[path]
    assert not _errors(shown), f"{path.name}: the quiz cell raised {_errors(shown)}"
    data = next((o.data for o in shown.outputs if o.output_type == "execute_result"), {})
    assert "application/vnd.jupyter.widget-view+json" in data, f"{path.name}: the quiz cell shows no widget"
    assert data.get("text/plain", "").startswith("Self-check"), f"{path.name}: no text version of the quiz"
    assert not _errors(clicked), f"{path.name}: clicking the options raised {_errors(clicked)}"
    results = json.loads("".join(o.text for o in clicked.outputs if o.output_type == "stream"))
    (source,) = quiz_cells(path)
    questions = questions_from_cell(IMPORTS + source)
    assert len(results) == sum(len(q.options) for q in questions)
    for i, k, correct, text in results:
        option = questions[i].options[k]
        assert correct == option.correct
        expected = "✓ Right." if correct else "✗ Not quite."
        assert text.startswith(expected), f"{path.name} q{i + 1} option {k + 1}: feedback {text!r}"
        assert html.unescape(option.why.replace("`", "")) in text, (
            f"{path.name} q{i + 1} option {k + 1}: the feedback does not explain why: {text!r}")
