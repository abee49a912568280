"""toolfaults.quiz: question data is checked when it is built, answers get the right feedback,
and the widgets show it (clicked from Python, through the buttons' own handlers)."""

from __future__ import annotations

import doctest

import pytest

import toolfaults.quiz as quiz_module
from toolfaults.quiz import (
    Choice, Feedback, Question, Quiz, classify, is_quiz_cell, questions_from_cell, quiz, render_markdown, validate,
)

RIGHT = Choice("An error result listing the real tools", "The call gets its one result and names what exists.",
               correct=True)
WRONG = Choice("Nothing at all", "The next request is rejected: every call needs a result.")
OTHER = Choice("Raise KeyError", "The whole program stops because of one invented name.")


def question(*options: Choice, prompt: str = "The model calls `google_search`. What goes back?", **kw) -> Question:
    return Question(prompt, list(options or (WRONG, RIGHT, OTHER)), **kw)


def strategy_item(item: str = "HTTP 503 from the weather API", answer: str = "transient") -> Question:
    return classify(item, ask="Which strategy fits?", answer=answer, why={
        "transient": "The service is down for now; a later try may pass.",
        "bad arguments": "Nothing is wrong with the call; the server failed.",
        "permanent": "A 503 says not now, it does not say never.",
    })


def test_module_doctests_pass():
    result = doctest.testmod(quiz_module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0, f"{result.failed} doctest(s) in toolfaults.quiz failed"


# --- question data is validated ------------------------------------------------------------------

@pytest.mark.parametrize(("options", "problem"), [
    ([WRONG, OTHER], "exactly one option must be correct; found 0"),
    ([RIGHT, Choice("Also right", "This one claims to be right as well.", correct=True)],
     "exactly one option must be correct; found 2"),
    ([RIGHT, Choice("No reason", "")], "option 2 ('No reason') needs an explanation of why it is wrong"),
    ([RIGHT, Choice("Terse", "Wrong.")], "needs an explanation of why it is wrong (at least 4 words)"),
    ([Choice("Right", "Yes.", correct=True), WRONG], "option 1 ('Right') needs an explanation of why it is right"),
    ([RIGHT], "at least two options; found 1"),
    ([RIGHT, Choice(" an error result listing the real tools ", "Same text as the right one, other case.")],
     "two options have the same text"),
    ([RIGHT, Choice("Different text", RIGHT.why)], "two options have the same why"),
    ([RIGHT, Choice("", "This option has an explanation but no text.")], "option 2 has no text"),
    ([RIGHT, "just a string"], "option 2 is a str, not a Choice"),
])
def test_a_broken_question_is_refused_with_the_rule_it_breaks(options, problem):
    with pytest.raises(ValueError) as err:
        Question("Which one?", options)
    assert problem in str(err.value), f"expected {problem!r} in the error, got: {err.value}"
    assert "Which one?" in str(err.value), "the error must name the question it is about"


def test_an_empty_prompt_and_an_unknown_kind_are_refused():
    with pytest.raises(ValueError, match="the prompt is empty"):
        question(prompt="  ")
    with pytest.raises(ValueError, match="kind must be 'choice' or 'classify'"):
        question(kind="essay")


def test_every_problem_is_reported_at_once():
    with pytest.raises(ValueError) as err:
        Question("Which?", [Choice("a", "x"), Choice("b", "y")])
    text = str(err.value)
    assert "option 1" in text and "option 2" in text and "found 0" in text, text


def test_options_may_be_written_as_dicts():
    q = Question("Which?", [{"text": "a", "why": "Because a is what we want.", "correct": True},
                            {"text": "b", "why": "Because b is not what we want."}])
    assert q.options == (Choice("a", "Because a is what we want.", True), Choice("b", "Because b is not what we want."))
    assert q.answer.text == "a" and q.answer_index == 0


def test_classify_builds_one_option_per_category_in_order():
    q = strategy_item()
    assert q.kind == "classify"
    assert [o.text for o in q.options] == ["transient", "bad arguments", "permanent"]
    assert q.answer.text == "transient"
    assert "Which strategy fits?" in q.prompt and "HTTP 503 from the weather API" in q.prompt


def test_classify_refuses_an_answer_that_is_not_a_category():
    with pytest.raises(ValueError, match="the answer 'retryable' is not one of the categories"):
        strategy_item(answer="retryable")


def test_validate_refuses_duplicates_and_empty_quizzes():
    with pytest.raises(ValueError, match="appears twice"):
        validate([question(), question()])
    with pytest.raises(ValueError, match="two questions have the id 'q'"):
        validate([question(id="q"), classify("HTTP 404", ask="Which strategy?", answer="permanent", id="q",
                                            why={"permanent": "It will not appear by retrying.",
                                                 "transient": "Waiting does not create the order."})])
    with pytest.raises(ValueError, match="at least one question"):
        validate([])
    with pytest.raises(ValueError, match="question 2 is a str"):
        validate([question(), "not a question"])


def test_validate_reports_a_broken_question_by_its_number():
    with pytest.raises(ValueError, match=r"question 2: .*exactly one option must be correct"):
        validate([question(), {"prompt": "Which?", "options": [WRONG, OTHER]}])


# --- checking answers ----------------------------------------------------------------------------

def test_check_accepts_a_position_a_text_or_the_choice():
    q = question()
    for answer in (1, "an error result listing the real tools", "  An error result listing the real tools ", RIGHT):
        feedback = q.check(answer)
        assert feedback == Feedback(True, RIGHT, RIGHT.why), f"answer {answer!r} should be the right one"
    assert q.check(0) == Feedback(False, WRONG, WRONG.why)


def test_wrong_and_right_feedback_both_explain_why():
    q = question()
    wrong, right = q.check("Nothing at all"), q.check(RIGHT)
    assert not wrong.correct and wrong.text() == f"Not quite. {WRONG.why} Try another answer."
    assert right.correct and right.text() == f"Right. {RIGHT.why}"


@pytest.mark.parametrize("answer", [3, -1, "Something else", True, Choice("x", "not one of the options here")])
def test_an_answer_that_is_not_an_option_is_refused(answer):
    with pytest.raises(ValueError):
        question().check(answer)


def test_quiz_check_records_answers_and_the_first_try():
    qz = quiz([question(), strategy_item()])
    assert qz.score == 0 and "pick an answer" in qz.score_text()
    assert not qz.check(0, 0).correct
    assert qz.check(0, 1).correct
    assert qz.check(1, "transient").correct
    assert qz.score == 2 and qz.first_try == {0: False, 1: True}
    assert qz.score_text() == "2 of 2 right (1 at the first try)."
    qz.check(1, "permanent")
    assert qz.score == 1, "the last pick counts: a right answer changed to a wrong one is no longer right"
    with pytest.raises(IndexError):
        qz.check(2, 0)


def test_quiz_refuses_invalid_questions():
    with pytest.raises(ValueError, match="invalid quiz"):
        quiz([Question("Q?", [RIGHT, WRONG]), Question("Q?", [RIGHT, WRONG])])


# --- the widgets -----------------------------------------------------------------------------------

def _classes(widget) -> set[str]:
    return set(widget._dom_classes)


def test_widgets_carry_stable_classes_for_browser_tests():
    qz = quiz([question(), strategy_item()], title="Self-check: lesson 1")
    root = qz.widget
    assert "tf-quiz" in _classes(root)
    questions = [w for w in root.children if "tf-quiz-question" in _classes(w)]
    assert len(questions) == 2
    assert "tf-quiz-q1" in _classes(questions[0]) and "tf-quiz-q2" in _classes(questions[1])
    prompt, options, feedback = questions[1].children
    assert "tf-quiz-prompt" in _classes(prompt) and "HTTP 503" in prompt.value
    assert [b.description for b in options.children] == ["transient", "bad arguments", "permanent"]
    assert all({"tf-quiz-option", f"tf-quiz-option-{k}"} <= _classes(b) for k, b in enumerate(options.children, 1))
    assert "tf-quiz-feedback" in _classes(feedback) and feedback.value == ""
    assert "Self-check: lesson 1" in root.children[0].value
    assert "tf-quiz-score" in _classes(root.children[-1])


def test_clicking_wrong_then_right_shows_why_each_time():
    qz = quiz([question(), strategy_item()])
    shown = qz.click(0, "Nothing at all")
    assert shown == f"✗ Not quite. {WRONG.why} Try another answer."
    feedback = qz._feedback[0]
    buttons = qz._buttons[0]
    assert "tf-quiz-wrong" in _classes(feedback) and "tf-quiz-right" not in _classes(feedback)
    assert [b.button_style for b in buttons] == ["danger", "", ""]

    shown = qz.click(0, 1)
    assert shown == f"✓ Right. {RIGHT.why}"
    assert "tf-quiz-right" in _classes(feedback) and "tf-quiz-wrong" not in _classes(feedback)
    assert [b.button_style for b in buttons] == ["", "success", ""], "only the last pick is coloured"
    assert qz.feedback_text(1) == "", "another question's feedback is untouched"
    assert "1 of 2 right (0 at the first try)" in qz._score.value


def test_feedback_renders_code_and_escapes_html():
    q = Question("Is `a < b` safe?", [Choice("<b>yes</b>", "Yes, `<script>` stays text here.", correct=True),
                                      Choice("no", "No reason to think so at all.")])
    qz = quiz([q])
    qz.click(0, 0)
    assert "<code>&lt;script&gt;</code>" in qz._feedback[0].value
    assert "<script>" not in qz._feedback[0].value
    assert "<code>a &lt; b</code>" in qz.widget.children[1].children[0].value


def test_render_markdown_handles_fences_quotes_and_bold():
    out = render_markdown("Look:\n\n```python\nif x < 1:\n    raise ValueError\n```\n\n> `TimeoutError` **now**")
    assert out == ("<p>Look:</p><pre><code>if x &lt; 1:\n    raise ValueError</code></pre>"
                   '<blockquote class="tf-quiz-item"><code>TimeoutError</code> <strong>now</strong></blockquote>')


def test_a_reader_without_widgets_sees_every_question_and_option():
    qz = quiz([question(), strategy_item()])
    data, _ = qz._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in data, "in JupyterLab the widgets are shown"
    text = data["text/plain"]
    for q in qz.questions:
        assert all(o.text in text for o in q.options), text
    assert "1. The model calls `google_search`" in text and "2. Which strategy fits? HTTP 503" in text


def test_quiz_dataclass_is_the_public_entry():
    assert isinstance(quiz([question()]), Quiz)


def test_questions_are_read_from_a_cell_without_showing_anything():
    source = ('from toolfaults.quiz import Choice, Question, quiz\n\nQUESTIONS = [Question("Q?", [\n'
              '    Choice("a", "Because a is the one we want.", correct=True),\n'
              '    Choice("b", "Because b is not the one.")])]\nquiz(QUESTIONS)\n')
    assert is_quiz_cell(source) and not is_quiz_cell("print(quiz)\n")
    questions = questions_from_cell(source)
    assert [q.prompt for q in questions] == ["Q?"]
    with pytest.raises(ValueError, match="defines no QUESTIONS"):
        questions_from_cell("x = 1\nquiz(x)\n")


# --- transfer questions (issue 42) ---------------------------------------------------------------

def test_a_question_is_recall_unless_marked_transfer():
    """The transfer mark is additive: questions written before it keep working, as recall questions."""
    assert question().transfer is False and strategy_item().transfer is False
    marked = question(transfer=True)
    assert marked.transfer is True and marked.check(1).correct, "a transfer question checks answers like any other"
    item = classify("HTTP 503 from the payment gateway", ask="Which strategy?", answer="transient", transfer=True,
                    why={"transient": "The gateway is down for now; a later try may pass.",
                         "permanent": "A 503 says not now, it does not say never."})
    assert item.transfer is True and item.kind == "classify"
    assert Question(**{"prompt": "Which one?", "options": [RIGHT, WRONG], "transfer": True}).transfer


def test_transfer_must_be_a_bool():
    with pytest.raises(ValueError, match="transfer must be True or False"):
        question(transfer="yes")


def test_shows_code_finds_a_fenced_block_in_the_prompt():
    """A question about code the learner has not seen shows it in a fenced block; inline `code` does not count."""
    assert question(prompt="What does this print?\n\n```python\nprint(1 + 1)\n```").shows_code
    assert question(prompt="What does this print?\n\n```\nprint(1 + 1)\n```").shows_code
    assert not question(prompt="The model calls `google_search`. What goes back?").shows_code


def test_a_transfer_mark_survives_a_quiz_cell():
    cell = ("QUESTIONS = [Question('Which one?', [Choice('a', 'Because a is the one we want.', correct=True),\n"
            "                                     Choice('b', 'Because b is not what we want.')], transfer=True)]\n"
            "quiz(QUESTIONS)\n")
    (q,) = questions_from_cell("from toolfaults.quiz import Choice, Question, quiz\n" + cell)
    assert q.transfer is True
