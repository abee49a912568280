"""A notebook whose answer does not parse: one problem that names the line, not a NameError per test.

When an answer cell has a syntax error, nothing in it is defined, and every test that calls the
answer fails with ``NameError: name 'resilient_invoke' is not defined`` (and, after the course's
hint, a sentence about what the function must do): fourteen rows that send the learner after the
wrong thing. :func:`syntax_fields` gives the one real problem its words, with IPython's name for the
cell's file (``3996864638.py``, which means nothing to anyone) replaced by the line in that cell;
:func:`explain` rewrites the tests' messages to point at it. Scores do not change: only the words.
"""

from __future__ import annotations

import re

from toolfaults.language import language_of

from . import problems
from .problems import LANGUAGES, SYNTAX, Words, words
from .results import SubmissionResult

# IPython compiles each cell as a file named by a hash ("3996864638.py"; older: "<ipython-input-3-...>").
CELL_FILE = re.compile(r"\(\s*(?:<ipython-input-[^>]*>|<string>|[\w-]*\d+\.py)\s*,\s*line\s+(\d+)\s*\)")
LINE = re.compile(r"line (\d+)")  # in the English text, once CELL_FILE is replaced
# "NameError: name 'resilient_invoke' is not defined", or the tests' own "resilient_invoke raised NameError: ..."
NOT_DEFINED = re.compile(r"\bNameError\b.*\bis not defined")


def syntax_fields(label: Words | str, ename: str, evalue: str) -> dict[str, Words]:
    """The fields of the problem :data:`~autograder.problems.SYNTAX` of a cell (``label``, e.g. a phrase
    ``label_cell``) whose error output is ``ename: evalue``."""
    return {"label": _without_file(label), "error": _without_file(f"{ename}: {evalue.strip()[:160]}")}


def _without_file(text: Words | str) -> Words:
    """``text`` in each language, IPython's "(3996864638.py, line 3)" said as "(line 3 of that cell)"."""
    both = text if isinstance(text, Words) else Words(text, text)
    return Words(*(CELL_FILE.sub(lambda m, lang=lang: getattr(words("line_of_cell", line=m[1]), lang), said)
                   for lang, said in zip(LANGUAGES, both)))


def explain(result: SubmissionResult) -> None:
    """Point the tests that failed on a name the answer never defined at ``result``'s first syntax error, if any."""
    found = next((p for p in result.problems if p.kind == SYNTAX), None)
    if found is None:
        return
    language = "es" if language_of(result.assignment) == "es" else "en"
    said = problems.parse(SYNTAX, found.in_language(language), language)
    english = problems.parse(SYNTAX, found.text, "en")
    if said is None or english is None:  # not the registry's text (a result saved by an older grader)
        return
    line = LINE.search(english["error"])
    where = getattr(words("cell_line", cell=said["label"], line=line[1]), language) if line else said["label"]
    message = getattr(words("not_parsed", where=where), language)
    for test in result.tests:
        if not test.passed and NOT_DEFINED.search(test.message or ""):
            test.message = message
