"""Self-check quizzes for the end of a lesson: questions as data, instant feedback that says why.

A lesson writes its questions as data and shows them with :func:`quiz`::

    from toolfaults.quiz import Choice, Question, classify, quiz

    QUESTIONS = [
        Question(
            "The model calls `google_search`, but only `get_weather` is bound. What does your loop send back?",
            [
                Choice("Nothing: skip the call.",
                       "The next request is rejected (HTTP 400): every tool call needs exactly one result."),
                Choice("An error result that lists the tools that exist.",
                       "The call gets its one result, flagged, and the model learns what it can use.",
                       correct=True),
            ],
        ),
        classify(
            "A search API answers HTTP 503.",
            ask="Which strategy fits this error?",
            answer="transient",
            why={
                "transient": "The service is down for now; a later attempt may pass.",
                "bad arguments": "Nothing is wrong with the call itself; the server failed.",
                "permanent": "A 503 says 'not now', not 'never'.",
            },
        ),
    ]
    quiz(QUESTIONS)

Every option carries its own explanation, shown the moment the learner picks it,
whether it is right or wrong; a wrong pick says why it is wrong and lets the
learner try again. Questions are checked when they are built: exactly one right
option, an explanation for every option, no two options alike. A mistake in a
lesson's question data therefore fails when the cell runs::

    >>> Question("Which one?", [Choice("a", "Because a is the one we want."),
    ...                         Choice("b", "Because b is not what we want.")])
    Traceback (most recent call last):
    ...
    ValueError: question 'Which one?': exactly one option must be correct; found 0

The same check runs without a browser (tests, nbclient)::

    >>> q = classify("HTTP 404 from the orders API", ask="Which strategy?", answer="permanent",
    ...              why={"transient": "A 404 will not go away by waiting for it.",
    ...                   "permanent": "The order does not exist; retrying cannot create it."})
    >>> feedback = q.check("transient")
    >>> feedback.correct, feedback.why
    (False, 'A 404 will not go away by waiting for it.')
    >>> q.check(1).correct
    True

In the notebook, :class:`Quiz` renders the questions with ipywidgets (no network,
works on Binder). Its widgets carry stable CSS classes for browser tests:
``tf-quiz`` (the whole quiz), ``tf-quiz-question`` and ``tf-quiz-q<N>`` (question
``N``, from 1), ``tf-quiz-option`` and ``tf-quiz-option-<K>`` (option ``K`` of its
question, from 1), ``tf-quiz-feedback`` with ``tf-quiz-right`` or ``tf-quiz-wrong``
once answered, and ``tf-quiz-score``. :meth:`Quiz.click` presses an option's
button from Python, through the same handler the browser calls.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .language import say

__all__ = ["Choice", "Question", "Feedback", "Quiz", "classify", "quiz", "validate", "render_markdown",
           "is_quiz_cell", "questions_from_cell"]

Kind = Literal["choice", "classify"]

#: An explanation must say something: at least this many words ("Wrong." explains nothing).
MIN_WHY_WORDS = 4


@dataclass(frozen=True)
class Choice:
    """One option of a question.

    Args:
        text: what the learner picks (inline markdown: `code`, **bold**).
        why: why this option is right, or why it is wrong; shown as soon as it is picked.
        correct: True for the one right option of its question.
    """

    text: str
    why: str
    correct: bool = False


@dataclass(frozen=True)
class Feedback:
    """What the learner sees after picking an option.

    Attributes:
        correct: whether the picked option is the right one.
        choice: the picked option.
        why: its explanation.
    """

    correct: bool
    choice: Choice
    why: str

    @property
    def headline(self) -> str:
        """``"Right."`` or ``"Not quite."`` (in Spanish "Correcto." or "No exactamente."): the first words of the feedback."""
        return say("Right.", "Correcto.") if self.correct else say("Not quite.", "No exactamente.")

    @property
    def advice(self) -> str:
        """What follows the explanation: nothing after a right answer, " Try another answer." after a wrong one."""
        return "" if self.correct else say(" Try another answer.", " Prueba otra respuesta.")

    def text(self) -> str:
        """The whole feedback as plain text."""
        return f"{self.headline} {self.why}{self.advice}"


@dataclass(frozen=True)
class Question:
    """A multiple-choice question, or a classification item (``kind="classify"``).

    Args:
        prompt: the question (markdown: `code`, **bold**, fenced code blocks).
        options: the options, in the order shown; exactly one has ``correct=True``.
            :class:`Choice` objects, or dicts with the same keys.
        kind: ``"choice"`` (options listed one per line) or ``"classify"``
            (short category labels side by side); see :func:`classify`.
        id: a stable name for the question (optional; tests and CSS use the position).
        transfer: True for a question set on new ground: a situation the lesson never showed
            (a payment, a calendar booking, a CI job...) where the learner applies its idea.
            Every lesson's self-check has at least three (tests/lessons/test_transfer.py).

    Raises:
        ValueError: when the question breaks a rule (see :meth:`problems`).

    A transfer question may show code the learner has not seen (a fenced block in the
    prompt) and ask what it prints, where the bug is, or which fix is right::

        >>> q = Question("What does this print?\\n\\n```python\\nprint(503 in {429, 503})\\n```",
        ...              [Choice("True", "503 is one of the two statuses in the set.", correct=True),
        ...               Choice("False", "The set holds 503, so membership is true.")], transfer=True)
        >>> q.transfer, q.shows_code
        (True, True)
    """

    prompt: str
    options: Sequence[Choice]
    kind: Kind = "choice"
    id: str = ""
    transfer: bool = False

    def __post_init__(self) -> None:
        options = tuple(Choice(**o) if isinstance(o, Mapping) else o for o in self.options)
        object.__setattr__(self, "options", options)
        problems = self.problems()
        if problems:
            raise ValueError(f"question {_short(self.prompt)!r}: " + "; ".join(problems))

    def problems(self) -> list[str]:
        """Every rule the question breaks (an empty list when it is fine).

        The rules: a prompt; at least two options, each a :class:`Choice` with
        text and an explanation of at least :data:`MIN_WHY_WORDS` words; no two
        options with the same text or the same explanation; exactly one correct
        option; ``kind`` is ``"choice"`` or ``"classify"``.
        """
        found = []
        if not isinstance(self.prompt, str) or not self.prompt.strip():
            found.append("the prompt is empty")
        if self.kind not in ("choice", "classify"):
            found.append(f"kind must be 'choice' or 'classify'; got {self.kind!r}")
        if not isinstance(self.transfer, bool):
            found.append(f"transfer must be True or False; got {self.transfer!r}")
        if len(self.options) < 2:
            found.append(f"it needs at least two options; found {len(self.options)}")
        for i, option in enumerate(self.options, 1):
            if not isinstance(option, Choice):
                found.append(f"option {i} is a {type(option).__name__}, not a Choice")
                continue
            if not option.text.strip():
                found.append(f"option {i} has no text")
            if len(option.why.split()) < MIN_WHY_WORDS:
                found.append(f"option {i} ({_short(option.text)!r}) needs an explanation of why it is "
                             f"{'right' if option.correct else 'wrong'} (at least {MIN_WHY_WORDS} words)")
        choices = [o for o in self.options if isinstance(o, Choice)]
        for attr in ("text", "why"):
            values = [getattr(o, attr).strip().lower() for o in choices]
            twice = sorted({v for v in values if values.count(v) > 1 and v})
            if twice:
                found.append(f"two options have the same {attr}: {_short(twice[0])!r}")
        right = sum(1 for o in choices if o.correct)
        if right != 1:
            found.append(f"exactly one option must be correct; found {right}")
        return found

    @property
    def shows_code(self) -> bool:
        """Whether the prompt shows code in a fenced block (a question about code to read, predict or fix)."""
        return _FENCE.search(self.prompt) is not None

    @property
    def answer(self) -> Choice:
        """The right option."""
        return next(o for o in self.options if o.correct)

    @property
    def answer_index(self) -> int:
        """The position of the right option (from 0)."""
        return next(i for i, o in enumerate(self.options) if o.correct)

    def index(self, answer: int | str | Choice) -> int:
        """The position of an option given by position (from 0), by its text or as the Choice itself.

        Raises:
            ValueError: when no option matches.
        """
        if isinstance(answer, bool):
            raise ValueError(f"pick an option by position or text, not {answer!r}")
        if isinstance(answer, int):
            if 0 <= answer < len(self.options):
                return answer
            raise ValueError(f"option {answer} does not exist: positions are 0 to {len(self.options) - 1}")
        if isinstance(answer, Choice):
            for i, option in enumerate(self.options):
                if option == answer:
                    return i
        else:
            wanted = str(answer).strip().lower()
            for i, option in enumerate(self.options):
                if option.text.strip().lower() == wanted:
                    return i
        texts = ", ".join(repr(o.text) for o in self.options)
        raise ValueError(f"{answer!r} is not an option of {_short(self.prompt)!r}; the options are {texts}")

    def check(self, answer: int | str | Choice) -> Feedback:
        """The feedback for an answer: whether it is right, and why.

        Args:
            answer: the option's position (from 0), its text (case and surrounding
                spaces ignored) or the Choice itself.

        Raises:
            ValueError: when the answer is not one of the options.
        """
        choice = self.options[self.index(answer)]
        return Feedback(correct=choice.correct, choice=choice, why=choice.why)


def classify(item: str, *, ask: str, answer: str, why: Mapping[str, str], id: str = "",
             transfer: bool = False) -> Question:
    """A classification item: which category does ``item`` belong to?

    Args:
        item: the thing to classify, e.g. "`FileNotFoundError` while reading a report".
        ask: the question, e.g. "Which strategy fits?" or "Which layer should retry?".
        answer: the right category; one of the keys of ``why``.
        why: every category, in the order shown, with why ``item`` is (or is not) in it.
        id: optional stable name.
        transfer: True when ``item`` is new ground, not one of the lesson's own examples
            (see :class:`Question`).

    Raises:
        ValueError: when ``answer`` is not one of the categories, or the question breaks a rule.
    """
    if answer not in why:
        raise ValueError(f"classify {_short(item)!r}: the answer {answer!r} is not one of the categories "
                         f"{list(why)}")
    return Question(
        prompt=f"{ask}\n\n> {item}",
        options=[Choice(category, reason, correct=category == answer) for category, reason in why.items()],
        kind="classify",
        id=id,
        transfer=transfer,
    )


def validate(questions: Iterable[Question | Mapping[str, Any]]) -> list[Question]:
    """Check a lesson's questions as a set and return them as :class:`Question` objects.

    Each question is checked when it is built; on top of that a quiz needs at
    least one question, no question twice and no two questions with the same id.

    Raises:
        ValueError: listing every problem found.
    """
    built: list[Question] = []
    problems: list[str] = []
    for n, q in enumerate(questions, 1):
        try:
            built.append(Question(**q) if isinstance(q, Mapping) else q)
        except (TypeError, ValueError) as err:
            problems.append(f"question {n}: {err}")
            continue
        if not isinstance(built[-1], Question):
            problems.append(f"question {n} is a {type(q).__name__}, not a Question")
            built.pop()
    if not built and not problems:
        problems.append("a quiz needs at least one question")
    prompts = [q.prompt.strip().lower() for q in built]
    for p in sorted({p for p in prompts if prompts.count(p) > 1}):
        problems.append(f"the question {_short(p)!r} appears twice")
    ids = [q.id for q in built if q.id]
    for i in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(f"two questions have the id {i!r}")
    if problems:
        raise ValueError("invalid quiz: " + " | ".join(problems))
    return built


# --- markdown, as far as a question needs it ------------------------------------------------

_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\n(.*?)```", re.S)
_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def render_markdown(text: str) -> str:
    """The little markdown a question uses, as safe HTML.

    Fenced code blocks, `inline code`, **bold**, ``> quoted`` lines and paragraphs;
    everything else is escaped::

        >>> render_markdown("Is `x < 1` **true**?")
        '<p>Is <code>x &lt; 1</code> <strong>true</strong>?</p>'
    """
    parts: list[str] = []
    pos = 0
    for m in _FENCE.finditer(text):
        parts += _paragraphs(text[pos:m.start()])
        parts.append(f"<pre><code>{html.escape(m.group(1).rstrip())}</code></pre>")
        pos = m.end()
    parts += _paragraphs(text[pos:])
    return "".join(parts)


def _inline(text: str) -> str:
    out = html.escape(text, quote=False)
    out = _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", out)
    return _BOLD.sub(lambda m: f"<strong>{m.group(1)}</strong>", out)


def _paragraphs(text: str) -> list[str]:
    out = []
    for block in re.split(r"\n\s*\n", text.strip()):
        if not block.strip():
            continue
        lines = block.splitlines()
        if all(line.lstrip().startswith(">") for line in lines):
            inner = " ".join(line.lstrip()[1:].strip() for line in lines)
            out.append(f'<blockquote class="tf-quiz-item">{_inline(inner)}</blockquote>')
        else:
            out.append(f"<p>{_inline(' '.join(line.strip() for line in lines))}</p>")
    return out


def _short(text: str, width: int = 60) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


# --- the widget -----------------------------------------------------------------------------

# Long options wrap instead of being cut off; feedback is coloured. Scoped to the quiz's classes.
_STYLE = """<style>
.tf-quiz .tf-quiz-option { white-space: normal; height: auto; min-height: var(--jp-widgets-inline-height);
  text-align: left; line-height: 1.4; padding: 4px 10px; }
.tf-quiz .tf-quiz-option code, .tf-quiz .tf-quiz-prompt code { font-size: 0.95em; }
.tf-quiz .tf-quiz-options { gap: 6px; }
.tf-quiz .widget-html-content { line-height: 1.5; }
.tf-quiz .tf-quiz-question { border-left: 3px solid var(--jp-border-color2, #ccc); padding-left: 10px; margin: 6px 0 12px 0; }
.tf-quiz .tf-quiz-feedback.tf-quiz-right { color: var(--jp-success-color1, #388e3c); }
.tf-quiz .tf-quiz-feedback.tf-quiz-wrong { color: var(--jp-error-color1, #d32f2f); }
.tf-quiz blockquote.tf-quiz-item { margin: 4px 0 4px 0; padding-left: 8px; border-left: 2px solid #999; }
</style>"""


@dataclass
class Quiz:
    """A lesson's self-check: the questions, their widgets and the learner's answers.

    Build it with :func:`quiz` in a notebook; the last expression of a cell
    displays it. Nothing is graded or saved: it is for the learner.

    Args:
        questions: :class:`Question` objects (or dicts with their fields).
        title: the heading above the questions (default: "Self-check", in Spanish "Autoevaluación").

    Raises:
        ValueError: when the questions break a rule (see :func:`validate`).
    """

    questions: Sequence[Question | Mapping[str, Any]]
    title: str | None = None
    answers: dict[int, int] = field(default_factory=dict)     # question -> last option picked
    first_try: dict[int, bool] = field(default_factory=dict)  # question -> right at the first pick?
    _widget: Any = field(default=None, repr=False)
    _buttons: list[list[Any]] = field(default_factory=list, repr=False)
    _feedback: list[Any] = field(default_factory=list, repr=False)
    _score: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.questions = validate(self.questions)
        if self.title is None:
            self.title = say("Self-check", "Autoevaluación")

    # checking, without widgets ----------------------------------------------------------------
    def check(self, question: int, answer: int | str | Choice) -> Feedback:
        """Record an answer to question ``question`` (from 0) and return its feedback.

        Raises:
            IndexError: when the question does not exist.
            ValueError: when the answer is not one of its options.
        """
        q = self._question(question)
        feedback = q.check(answer)
        self.answers[question] = q.index(answer)
        self.first_try.setdefault(question, feedback.correct)
        return feedback

    @property
    def score(self) -> int:
        """How many questions are answered right now (their last pick is the right one)."""
        return sum(1 for i, k in self.answers.items() if self.questions[i].options[k].correct)

    def score_text(self) -> str:
        """One line: how many are right, of how many, and how many at the first try."""
        n = len(self.questions)
        if not self.answers:
            return say(f"{n} questions: pick an answer to see whether it is right, and why.",
                       f"{n} preguntas: elige una respuesta para ver si es correcta y por qué.")
        first = sum(self.first_try.values())
        return say(f"{self.score} of {n} right ({first} at the first try).",
                   f"{self.score} de {n} correctas ({first} a la primera).")

    def text(self) -> str:
        """The quiz as plain text (what a reader without widgets sees)."""
        lines = [say(f"{self.title} ({len(self.questions)} questions; run the cell to answer them)",
                     f"{self.title} ({len(self.questions)} preguntas; ejecuta la celda para responderlas)")]
        for n, q in enumerate(self.questions, 1):
            prompt = " ".join(q.prompt.replace("> ", "").split())
            lines.append(f"{n}. {prompt}")
            lines += [f"   {chr(97 + k)}) {o.text}" for k, o in enumerate(q.options)]
        return "\n".join(lines)

    def _question(self, question: int) -> Question:
        if not 0 <= question < len(self.questions):
            raise IndexError(f"question {question} does not exist: the quiz has {len(self.questions)} (from 0)")
        return self.questions[question]

    # the widgets --------------------------------------------------------------------------------
    @property
    def widget(self):
        """The ipywidgets tree (built on first use)."""
        if self._widget is None:
            self._widget = self._build()
        return self._widget

    def click(self, question: int, answer: int | str | Choice) -> str:
        """Press an option's button from Python, as a learner would; return the feedback shown.

        The button's own click handler runs, so this tests the widget path under
        nbclient or pytest without a browser.
        """
        q = self._question(question)
        self.widget  # noqa: B018 (builds the buttons)
        self._buttons[question][q.index(answer)].click()
        return self.feedback_text(question)

    def feedback_text(self, question: int) -> str:
        """The feedback currently shown under a question, as plain text ("" before any pick)."""
        self.widget  # noqa: B018
        return html.unescape(re.sub(r"<[^>]+>", "", self._feedback[question].value)).strip()

    def _build(self):
        import ipywidgets as widgets

        rows = [widgets.HTML(_STYLE + f"<h3>{html.escape(self.title)}</h3>")]
        for n, q in enumerate(self.questions):
            prompt = widgets.HTML(render_markdown(f"**{n + 1}.** {q.prompt}"))
            prompt.add_class("tf-quiz-prompt")
            buttons = []
            for k, option in enumerate(q.options):
                button = widgets.Button(
                    description=option.text.replace("`", ""),
                    tooltip=option.text.replace("`", ""),
                    layout=widgets.Layout(width="auto" if q.kind == "classify" else "100%",
                                          max_width="100%"),
                )
                button.add_class("tf-quiz-option")
                button.add_class(f"tf-quiz-option-{k + 1}")
                button.on_click(self._on_click(n, k))
                buttons.append(button)
            box = (widgets.HBox(buttons, layout=widgets.Layout(flex_flow="row wrap"))
                   if q.kind == "classify" else widgets.VBox(buttons))
            box.add_class("tf-quiz-options")
            feedback = widgets.HTML("")
            feedback.add_class("tf-quiz-feedback")
            question_box = widgets.VBox([prompt, box, feedback])
            question_box.add_class("tf-quiz-question")
            question_box.add_class(f"tf-quiz-q{n + 1}")
            if q.id:
                question_box.add_class(f"tf-quiz-id-{re.sub(r'[^A-Za-z0-9_-]+', '-', q.id)}")
            self._buttons.append(buttons)
            self._feedback.append(feedback)
            rows.append(question_box)
        self._score = widgets.HTML(f"<p>{html.escape(self.score_text())}</p>")
        self._score.add_class("tf-quiz-score")
        rows.append(self._score)
        root = widgets.VBox(rows, layout=widgets.Layout(max_width="52em"))
        root.add_class("tf-quiz")
        return root

    def _on_click(self, question: int, option: int):
        def handler(_button) -> None:
            feedback = self.check(question, option)
            for k, button in enumerate(self._buttons[question]):
                button.button_style = ("success" if feedback.correct else "danger") if k == option else ""
            box = self._feedback[question]
            box.remove_class("tf-quiz-right")
            box.remove_class("tf-quiz-wrong")
            box.add_class("tf-quiz-right" if feedback.correct else "tf-quiz-wrong")
            box.value = (f"<p><strong>{'✓' if feedback.correct else '✗'} {feedback.headline}</strong> "
                         f"{_inline(feedback.why)}{html.escape(feedback.advice)}</p>")
            self._score.value = f"<p>{html.escape(self.score_text())}</p>"

        return handler

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        if isinstance(bundle, tuple):  # (data, metadata)
            data, metadata = bundle
        else:
            data, metadata = bundle, {}
        data = dict(data or {})
        data["text/plain"] = self.text()
        return data, metadata


def is_quiz_cell(source: str) -> bool:
    """True for a notebook cell that shows a quiz: a line that starts with ``quiz(``."""
    return re.search(r"^quiz\(", source, re.M) is not None


def questions_from_cell(source: str) -> list[Question]:
    """The questions of a quiz cell, without a kernel and without showing anything.

    Runs the cell's statements except the bare calls (``quiz(QUESTIONS)``), then
    validates ``QUESTIONS``. For tests and tools that check a lesson's questions.

    Raises:
        ValueError: when the cell defines no ``QUESTIONS`` or they break a rule.
    """
    import ast

    tree = ast.parse(source)
    tree.body = [s for s in tree.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call))]
    namespace: dict[str, Any] = {}
    exec(compile(tree, "<quiz cell>", "exec"), namespace)  # noqa: S102 (the course's own cells)
    if "QUESTIONS" not in namespace:
        raise ValueError("the quiz cell defines no QUESTIONS")
    return validate(namespace["QUESTIONS"])


def quiz(questions: Sequence[Question | Mapping[str, Any]], title: str | None = None) -> Quiz:
    """Build a lesson's self-check; as a cell's last expression it shows the questions.

    Args:
        questions: the lesson's questions (see :class:`Question` and :func:`classify`).
        title: the heading above them (default: "Self-check", in Spanish "Autoevaluación").

    Returns:
        The :class:`Quiz` (``.check(i, answer)`` answers without widgets).

    Raises:
        ValueError: when a question breaks a rule.
    """
    return Quiz(questions, title=title)
