"""Diagnosis: what the autograded notebooks show went wrong, in words for the report.

:func:`diagnose` reads the error outputs that nbgrader and the grader's own
preprocessors left in a submission's autograded copy (a dead kernel, a timeout, a
stuck cell, a syntax error, ``sys.exit()``, a tampered helper package, huge output)
and adds one :class:`~autograder.results.Problem` per finding to the result. The
ones where the score may not reflect the work are marked "needs attention".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import problems
from .guard import TAMPERED
from .preprocessors import CELL_TIMEOUT, KERNEL_DIED, META, NOT_RUN
from .problems import SYNTAX, Words, words
from .readback import ANSI
from .results import SubmissionResult
from .testcells import is_test
from .unparsed import syntax_fields

if TYPE_CHECKING:
    from .pipeline import Submission

# The kinds of a cell that stopped the notebook: the cells after it were not run.
STOPPED = ("kernel_died", "stuck_kernel", "time_limit")


def diagnose(sub: Submission, result: SubmissionResult) -> None:
    """Add to ``result`` what the autograded notebooks of ``sub`` (:class:`autograder.pipeline.Submission`)
    show went wrong."""
    found: list[tuple[str, dict[str, Any]]] = []  # (kind, fields), once each, in the notebooks' order
    not_run = 0
    for name in sub.assignment.notebooks:
        nb = sub.graded(name)
        if nb is None:
            continue
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            meta = cell.metadata.get("nbgrader", {})
            label = _label(meta, sub.assignment.tests, index, cell.source)
            printed = cell.metadata.get(META, {}).get("output_chars")
            findings = [("huge_output", {"label": label, "chars": printed})] if printed else []
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    ename, evalue = out.get("ename", ""), ANSI.sub("", str(out.get("evalue", "")))
                    not_run += ename == NOT_RUN and is_test(meta)
                    findings.append(_finding(ename, evalue, label, is_test(meta)))
            for finding in findings:
                if finding is not None and finding not in found:
                    found.append(finding)
    first = next((i for i, (kind, _) in enumerate(found) if kind in STOPPED), None)
    for i, (kind, fields) in enumerate(found):
        if kind in STOPPED:  # the first to stop the notebook says how many tests that left unrun, once counted
            fields = {**fields, "after": words("tests_after", n=not_run) if i == first and not_run
                      else words("cells_after")}
        result.flag(kind, **fields)


def _label(meta: dict[str, Any], described: dict[str, tuple[str, float]], index: int, source: str) -> Words:
    """How a problem names a cell: a test by its description, an answer cell by its id, another by a quote."""
    gid = meta.get("grade_id")
    if is_test(meta):
        return words("label_test", test=described.get(gid, (gid, 0))[0] or gid)
    if meta.get("solution"):
        return words("label_answer", cell=gid)
    return words("label_cell", number=index + 1, quote=_snippet(source))


def _finding(ename: str, evalue: str, label: Words, test: bool) -> tuple[str, dict[str, Any]] | None:
    """The problem an error output of a cell shows, as ``(kind, fields)``; ``None`` for a test's own failure.

    A kind of :data:`STOPPED` still lacks its field ``after``: :func:`diagnose` adds it once it has
    counted the tests that were not run.
    """
    if ename == KERNEL_DIED:
        return "kernel_died", {"label": label}
    if ename == CELL_TIMEOUT:
        return "timeout", {"label": label}
    if ename == NOT_RUN:
        return ("stuck_kernel", {}) if "interrupted" in evalue else ("time_limit", {}) if "time limit" in evalue \
            else None
    if ename in ("SyntaxError", "IndentationError", "TabError") and not test:
        return SYNTAX, syntax_fields(label, ename, evalue)
    if ename == "SystemExit":
        return "sys_exit", {"label": label}
    if ename == "AssertionError" and evalue.startswith(TAMPERED):
        return problems.TAMPERED, {"detail": evalue[len(TAMPERED):].split(". The tests", 1)[0].lstrip(": ")}
    return None


def _snippet(source: str) -> str:
    """A short quote of a cell's first line of code that is not an import or a comment."""
    for line in source.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "import ", "from ")):
            return f" ({line[:40]}{'...' if len(line) > 40 else ''})"
    return ""
