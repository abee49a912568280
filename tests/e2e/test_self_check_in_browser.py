"""A lesson's self-check in the browser: answer a question wrong, then right; each time the
feedback says why, and the score follows.

The quiz cell is the one a lesson ends with (`quiz(QUESTIONS)` from toolfaults.quiz, which
imports what it needs). The test opens a real lesson, course/01_five_error_types.ipynb, and
runs that cell as a learner does (Ctrl+Enter); QUIZ_NOTEBOOK points it at another lesson or
at the fixture, tests/e2e/fixtures/quiz.ipynb (the first question's right and wrong options
are read from the notebook's own QUESTIONS, so the test needs no change per lesson).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from labdriver import Notebook

pytestmark = pytest.mark.e2e

NOTEBOOK = os.environ.get("QUIZ_NOTEBOOK", "course/01_five_error_types.ipynb")


def first_question(checkout: Path, notebook: str):
    """The quiz cell's index, its first question, and how many there are (no kernel needed)."""
    import nbformat

    from toolfaults.quiz import is_quiz_cell, questions_from_cell

    nb = nbformat.read(checkout / notebook, as_version=4)
    cells = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and is_quiz_cell(c.source)]
    assert len(cells) == 1, f"{notebook}: expected one cell that ends with quiz(QUESTIONS), found {len(cells)}"
    questions = questions_from_cell(nb.cells[cells[0]].source)
    return cells[0], questions[0], len(questions)


def test_quiz_answers_wrong_then_right_with_feedback(lab):
    index, question, count = first_question(lab.server.checkout, NOTEBOOK)
    right = question.answer_index
    wrong = next(k for k, o in enumerate(question.options) if not o.correct)

    lab.goto(NOTEBOOK)
    nb = Notebook(lab.page, Path(NOTEBOOK).name).wait_open()
    nb.run_cell(index, timeout=90)     # the self-check alone: a lesson's failure demos stay unrun
    quiz = nb.panel.locator(".tf-quiz")
    expect(quiz).to_have_count(1)
    quiz.evaluate("e => e.scrollIntoView({block: 'start'})")  # what is off screen is not rendered
    expect(quiz.locator(".tf-quiz-question")).to_have_count(count)
    q1 = quiz.locator(".tf-quiz-q1")
    options = q1.locator(".tf-quiz-option")
    expect(options).to_have_count(len(question.options))
    feedback = q1.locator(".tf-quiz-feedback")
    score = quiz.locator(".tf-quiz-score")
    expect(feedback).to_have_text("")
    lab.shot("quiz-rendered")

    # Wrong first: red, "Not quite", and why this option is wrong.
    options.nth(wrong).click()
    expect(feedback).to_have_class(re.compile(r"\btf-quiz-wrong\b"))
    expect(feedback).to_contain_text("Not quite.")
    expect(feedback).to_contain_text(question.options[wrong].why.replace("`", ""))
    expect(options.nth(wrong)).to_have_class(re.compile(r"\bmod-danger\b"))
    expect(score).to_contain_text(f"0 of {count} right")
    lab.shot("answered-wrong")

    # Then right: green, "Right.", why it is right; the wrong pick is no longer marked.
    options.nth(right).click()
    expect(feedback).to_have_class(re.compile(r"\btf-quiz-right\b"))
    expect(feedback).not_to_have_class(re.compile(r"\btf-quiz-wrong\b"))
    expect(feedback).to_contain_text("Right.")
    expect(feedback).to_contain_text(question.options[right].why.replace("`", ""))
    expect(options.nth(right)).to_have_class(re.compile(r"\bmod-success\b"))
    expect(options.nth(wrong)).not_to_have_class(re.compile(r"\bmod-danger\b"))
    expect(score).to_contain_text(f"1 of {count} right (0 at the first try)")
    q1.evaluate("e => e.scrollIntoView({block: 'start'})")
    lab.shot("answered-right")

    # The other questions are untouched, and nothing went wrong on the way.
    for n in range(2, count + 1):
        expect(quiz.locator(f".tf-quiz-q{n} .tf-quiz-feedback")).to_have_text("")
    nb.wait_idle()
    assert not nb.error_outputs(), f"{NOTEBOOK}: error output on screen: {nb.error_outputs()}"
    lab.assert_clean()
