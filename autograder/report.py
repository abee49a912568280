"""The class report: one HTML page an instructor reads after grading.

    python -m autograder.report [results.json] [out_dir]   # rebuild it from saved results

What it shows, from the graded :class:`~autograder.results.SubmissionResult` s:

- per assignment: how many submitted, mean and median score, full marks, zeros;
- the score distribution of every assignment (histograms);
- the pass rate of every test, sorted so the behaviours most of the class got
  wrong come first ("retries permanent errors: 41% fail");
- every submission that needs attention, with the reason; every other note;
- a student x assignment overview.

The page is one file, so it can be mailed or opened anywhere. Its charts are HTML
tables drawn with CSS (templates/class_report.html), from the numbers computed here: the
browser lays out their text, a screen reader reads them as tables, and they cost nothing
to draw (matplotlib's SVG figures took about 1.2 s of CPU on every `make grade`).
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

from toolfaults.language import english_name

from . import pages
from .results import ATTENTION, SubmissionResult

#: The overview's colour scale: 0 %, 50 % and 100 % of the maximum; grey where nothing was submitted.
SCALE = ((0.0, (0xcf, 0x22, 0x2e)), (50.0, (0xf6, 0xe0, 0x5e)), (100.0, (0x2d, 0xa4, 0x4e)))
NOTHING = "#eaeef2"


def percent(r: SubmissionResult) -> float:
    return 100.0 * r.score / r.max_score if r.max_score else 0.0


def test_rates(results: list[SubmissionResult]) -> dict[str, list[dict]]:
    """assignment -> one row per test: description, points, graded, failed, fail rate.

    Only submissions that tell something about single behaviours count: those that need
    attention (their tests may not have run) and those that pass no test at all (the
    stub, a syntax error) are left out.
    """
    out: dict[str, list[dict]] = {}
    by_assignment: dict[str, list[SubmissionResult]] = defaultdict(list)
    for r in results:
        if counted(r):
            by_assignment[r.assignment].append(r)
    for assignment, rs in sorted(by_assignment.items()):
        rows: dict[str, dict] = {}
        for r in rs:
            for t in r.tests:
                row = rows.setdefault(t.grade_id, {"grade_id": t.grade_id, "description": t.description,
                                                   "points": t.max_points, "graded": 0, "failed": 0})
                row["graded"] += 1
                row["failed"] += not t.passed
        for row in rows.values():
            row["fail_rate"] = row["failed"] / row["graded"] if row["graded"] else 0.0
        out[assignment] = sorted(rows.values(), key=lambda x: (-x["fail_rate"], x["grade_id"]))
    return out


def counted(r: SubmissionResult) -> bool:
    """Whether a submission counts in the tests' fail rates."""
    return r.status != ATTENTION and any(t.passed for t in r.tests)


def summary(results: list[SubmissionResult]) -> list[dict]:
    by_assignment: dict[str, list[SubmissionResult]] = defaultdict(list)
    for r in results:
        by_assignment[r.assignment].append(r)
    rows = []
    for assignment, rs in sorted(by_assignment.items()):
        pcts = [percent(r) for r in rs]
        rows.append({
            "assignment": assignment, "submissions": len(rs), "max_score": rs[0].max_score,
            "mean": statistics.mean(pcts), "median": statistics.median(pcts),
            "full": sum(r.score == r.max_score for r in rs), "zero": sum(r.score == 0 for r in rs),
            "attention": sum(r.status == ATTENTION for r in rs),
        })
    return rows


def editions(results: list[SubmissionResult]) -> list[dict]:
    """Both editions of an assignment side by side, for each assignment graded in English and Spanish.

    One entry per assignment: the summary row of each edition and, test by test (the two
    editions share grade ids and points), the fail rate in each.
    """
    rows = {s["assignment"]: s for s in summary(results)}
    rates = test_rates(results)
    out = []
    for assignment in sorted(rows):
        english = english_name(assignment)
        if english == assignment or english not in rows:
            continue
        en_tests = {t["grade_id"]: t for t in rates.get(english, [])}
        es_tests = {t["grade_id"]: t for t in rates.get(assignment, [])}
        tests = [{"grade_id": g, "description": (en_tests.get(g) or es_tests[g])["description"],
                  "en": en_tests.get(g), "es": es_tests.get(g)}
                 for g in sorted({*en_tests, *es_tests})]
        out.append({"english": english, "spanish": assignment, "en": rows[english], "es": rows[assignment],
                    "tests": tests})
    return out


# -- charts -----------------------------------------------------------------------------------
def histograms(results: list[SubmissionResult]) -> list[dict]:
    """Per assignment, how many submissions scored in each tenth of the maximum, highest first.

    Each bin counts the graded submissions and those that need attention apart; 100 % falls in
    the 90-100 % bin. ``most`` is the largest bin, which the bars are drawn against.
    """
    by_assignment: dict[str, list[SubmissionResult]] = defaultdict(list)
    for r in results:
        by_assignment[r.assignment].append(r)
    out = []
    for assignment, rs in sorted(by_assignment.items()):
        bins = [{"low": 10 * i, "high": 10 * (i + 1), "graded": 0, "attention": 0} for i in range(10)]
        for r in rs:
            bins[min(int(percent(r) // 10), 9)]["attention" if r.status == ATTENTION else "graded"] += 1
        out.append({"assignment": assignment, "submissions": len(rs), "max_score": rs[0].max_score,
                    "median": statistics.median(percent(r) for r in rs), "bins": bins[::-1],
                    "most": max(b["graded"] + b["attention"] for b in bins)})
    return out


def colour(score_percent: float) -> str:
    """The overview's colour for a score in % of the maximum (``NOTHING`` is for no submission)."""
    x = min(max(score_percent, 0.0), 100.0)
    (x0, low), (x1, high) = (SCALE[0], SCALE[1]) if x <= SCALE[1][0] else (SCALE[1], SCALE[2])
    t = (x - x0) / (x1 - x0)
    return "#" + "".join(f"{round(a + t * (b - a)):02x}" for a, b in zip(low, high))


def ink(background: str) -> str:
    """The text colour that reads on ``background`` (``#rrggbb``): white on a dark colour, else near-black."""
    red, green, blue = (int(background[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * red + 0.587 * green + 0.114 * blue < 140 else "#1f2328"


def overview(results: list[SubmissionResult]) -> dict:
    """Every student's score in every assignment: ``assignments``, and ``rows`` of cells
    (``None`` where nothing was submitted), each with its score, % and colour."""
    assignments = sorted({r.assignment for r in results})
    found = {(r.student, r.assignment): r for r in results}
    rows = []
    for student in sorted({r.student for r in results}):
        cells = []
        for assignment in assignments:
            r = found.get((student, assignment))
            if r is None:
                cells.append(None)
                continue
            background = colour(percent(r))
            cells.append({"score": r.score, "max_score": r.max_score, "percent": percent(r),
                          "attention": r.status == ATTENTION, "colour": background, "ink": ink(background)})
        rows.append({"student": student, "cells": cells})
    return {"assignments": assignments, "rows": rows, "nothing": NOTHING}


def headline(results: list[SubmissionResult]) -> str:
    """The report's first sentence, from the same results its tables show (a test compares them)."""
    if not results:
        return "Nothing has been graded yet."
    n = len(results)
    full = sum(r.score >= r.max_score and r.status != ATTENTION for r in results)
    if full == n:
        return f"Every test passed in every graded submission ({n})."
    zero = [r for r in results if r.score == 0]
    none_passed = sum(bool(r.tests) and not any(t.passed for t in r.tests) for r in results)
    attention = sum(r.status == ATTENTION for r in results)
    words = [f"{full} of {n} submissions have full marks"]
    if zero:
        words.append(f"{len(zero)} score 0" + (f" ({none_passed} pass{'es' if none_passed == 1 else ''} no test at all: "
                                               "a stub left as it was, or a notebook that does not run)"
                                               if none_passed else ""))
    if attention:
        words.append(f"{attention} need{'s' if attention == 1 else ''} attention")
    return "; ".join(words) + "."


def wrong_note(results: list[SubmissionResult]) -> str:
    """What "What the class got wrong" says when no counted submission failed a test."""
    if all(not r.failed and r.status != ATTENTION for r in results):
        return "Every test passed in every graded submission."
    left_out = sum(not counted(r) for r in results)
    return (f"No test failed in the submissions that pass at least one test and do not need attention; the other "
            f"{left_out} (no test passed, or they need attention) are not counted here: see the summary, the score "
            "distribution and Needs attention.")


# -- page -------------------------------------------------------------------------------------
def render(results: list[SubmissionResult], out_dir: Path, title: str = "Class report",
           collection: list[dict] | None = None) -> Path:
    """Write ``class_report.html`` (template ``templates/class_report.html``) into ``out_dir``;
    returns the page. ``collection``: what `make collect` recorded that grading does not see (late work,
    files set aside), one dict (student, assignment, what) per line."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rates = test_rates(results)
    worst = sorted(((a, r) for a, rs in rates.items() for r in rs if r["failed"]),
                   key=lambda ar: -ar[1]["fail_rate"])[:8]
    page = out_dir / "class_report.html"
    page.write_text(pages.render(
        "class_report.html", title=title, results=results, students=len({r.student for r in results}),
        summary=summary(results), histograms=histograms(results), overview=overview(results), rates=rates, worst=worst, editions=editions(results),
        headline=headline(results), wrong_note=wrong_note(results), collection=collection or [],
        attention=[r for r in results if r.status == ATTENTION],
        notes=[(r, p) for r in results for p in r.problems if not p.attention],
    ), encoding="utf-8")
    return page


def save_results(results: list[SubmissionResult], path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([r.to_dict() for r in results], indent=1), encoding="utf-8")
    return path


def load_results(path: Path) -> list[SubmissionResult]:
    return [SubmissionResult.from_dict(d) for d in json.loads(Path(path).read_text())]


def main(argv: list[str] | None = None) -> int:
    import argparse

    from .course import ClassFolder

    parser = argparse.ArgumentParser(prog="python -m autograder.report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="?", type=Path, default=None,
                        help="saved results (default: the class's output/reports/results.json)")
    parser.add_argument("out_dir", nargs="?", type=Path, help="where the page goes (default: next to the results)")
    args = parser.parse_args(argv)
    results_path = args.results or ClassFolder.current().results
    out_dir = args.out_dir or results_path.parent
    page = render(load_results(results_path), out_dir)
    print(f"Class report: {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
