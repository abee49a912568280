"""A notebook whose answer does not parse: one problem that names the line, not a NameError per test.

When an answer cell has a syntax error, nothing in it is defined, and every test that calls the
answer fails with ``NameError: name 'resilient_invoke' is not defined`` (and, after the course's
hint, a sentence about what the function must do): fourteen rows that send the learner after the
wrong thing. :func:`explain` rewrites those tests' messages to point at the one real problem, and
takes IPython's name for the cell's file (``3996864638.py``, which means nothing to anyone) out of the
problem's text, keeping the line number. Scores do not change: only the words.
"""

from __future__ import annotations

import re

from toolfaults.language import language_of

from .results import SubmissionResult

SYNTAX = "syntax_error"
# IPython compiles each cell as a file named by a hash ("3996864638.py"; older: "<ipython-input-3-...>").
CELL_FILE = re.compile(r"\(\s*(?:<ipython-input-[^>]*>|<string>|[\w-]*\d+\.py)\s*,\s*line\s+(\d+)\s*\)")
LINE = re.compile(r"(?:line|línea) (\d+)")
# "NameError: name 'resilient_invoke' is not defined", or the tests' own "resilient_invoke raised NameError: ..."
NOT_DEFINED = re.compile(r"\bNameError\b.*\bis not defined")


def explain(result: SubmissionResult) -> None:
    """Tidy ``result`` in place when one of its problems is a syntax error (else leave it alone)."""
    problems = [p for p in result.problems if p.kind == SYNTAX]
    if not problems:
        return
    for p in problems:
        p.text = CELL_FILE.sub(r"(line \1 of that cell)", p.text)
        p.text_es = CELL_FILE.sub(r"(línea \1 de esa celda)", p.text_es)
    spanish = language_of(result.assignment) == "es"
    first = problems[0].text_es if spanish and problems[0].text_es else problems[0].text
    cell, _, rest = first.partition(" tiene un error de sintaxis" if spanish else " has a syntax error")
    line = LINE.search(rest)
    if spanish:
        where = f"{cell}, línea {line[1]}" if line else cell
        message = (f"no se ejecutó: la respuesta no se puede leer (un error de sintaxis en {where}), así que no se "
                   "definió nada de ella; corrige eso primero")
    else:
        where = f"{cell}, line {line[1]}" if line else cell
        message = (f"not run: the answer does not parse (a syntax error in {where}), so nothing in it was defined; "
                   "fix that first")
    for test in result.tests:
        if not test.passed and NOT_DEFINED.search(test.message or ""):
            test.message = message
