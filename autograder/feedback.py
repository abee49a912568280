"""Per-student feedback: every test's description, points, pass/fail and message; never test source.

nbgrader's own ``generate_feedback`` renders the autograded notebook, hidden tests
and tracebacks included. This feedback is built from a
:class:`~autograder.engine.SubmissionResult` alone, which holds for each test only
its description (the first line of its docstring), its points, whether it passed
and its message (the exception's type and text, with any hidden test line
removed by the engine). No cell source and no traceback ever reaches it.

    feedback/<student>/<assignment>/<notebook>.html   what the learner opens
    feedback/<student>/<assignment>/feedback.json     the same, as data
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from .engine import ATTENTION, SubmissionResult

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 60rem;
       color: #1f2328; line-height: 1.45; padding: 0 1rem; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.score { font-size: 2rem; font-weight: 600; margin: .6rem 0; }
.muted { color: #656d76; }
.box { border-radius: 6px; padding: .7rem 1rem; margin: 1rem 0; }
.attention { background: #fff8c5; border: 1px solid #d4a72c; }
.note { background: #ddf4ff; border: 1px solid #54aeff; }
table { border-collapse: collapse; width: 100%; margin-top: 1rem; }
th, td { text-align: left; vertical-align: top; padding: .5rem .6rem; border-bottom: 1px solid #d0d7de; }
th { background: #f6f8fa; }
td.mark { font-size: 1.2rem; width: 1.5rem; }
td.pts { white-space: nowrap; width: 5rem; }
.pass { color: #1a7f37; } .fail { color: #cf222e; }
.msg { white-space: pre-wrap; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem;
       color: #57606a; margin-top: .3rem; }
"""


def render_html(result: SubmissionResult) -> str:
    """The feedback page of one submission."""
    e = html.escape
    passed = sum(t.passed for t in result.tests)
    rows = []
    for t in result.tests:
        mark = '<span class="pass">&#10003;</span>' if t.passed else '<span class="fail">&#10007;</span>'
        message = f'<div class="msg">{e(t.message)}</div>' if t.message and not t.passed else ""
        rows.append(f"<tr><td class=\"mark\">{mark}</td><td>{e(t.description)}{message}</td>"
                    f"<td class=\"pts\">{t.points:g} / {t.max_points:g}</td></tr>")
    notes = ""
    if result.problems:
        cls = "attention" if result.status == ATTENTION else "note"
        heading = ("Your instructor will look at this submission." if result.status == ATTENTION
                   else "What the grader noticed:")
        items = "".join(f"<li>{e(p.text[:1].upper() + p.text[1:])}</li>" for p in result.problems)
        notes = f'<div class="box {cls}"><strong>{heading}</strong><ul>{items}</ul></div>'
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Feedback: {e(result.assignment)}</title>
<style>{STYLE}</style></head><body>
<h1>Feedback: {e(result.assignment)}</h1>
<div class="muted">{e(result.student)}</div>
<div class="score">{result.score:g} / {result.max_score:g}</div>
<div class="muted">{passed} of {len(result.tests)} tests passed. Each test checks one behaviour of the contract;
a failing test's message says what went wrong and hints at the fix.</div>
{notes}
<table><thead><tr><th></th><th>Test</th><th>Points</th></tr></thead><tbody>
{''.join(rows)}
</tbody></table>
</body></html>
"""


def as_data(result: SubmissionResult) -> dict:
    """The feedback as data: the same fields the page shows."""
    return {
        "student": result.student,
        "assignment": result.assignment,
        "score": result.score,
        "max_score": result.max_score,
        "status": result.status,
        "problems": [p.text for p in result.problems],
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
