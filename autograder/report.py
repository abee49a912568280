"""The class report: one HTML page an instructor reads after grading.

    python -m autograder.report [results.json] [out_dir]   # rebuild it from saved results

What it shows, from the graded :class:`~autograder.results.SubmissionResult` s:

- per assignment: how many submitted, mean and median score, full marks, zeros;
- the score distribution of every assignment (histograms);
- the pass rate of every test, sorted so the behaviours most of the class got
  wrong come first ("retries permanent errors: 41% fail");
- every submission that needs attention, with the reason; every other note;
- a student x assignment overview.

The page embeds its figures (SVG, also written next to it) so it can be mailed
or opened anywhere. The SVGs keep their text as text: sharp at any zoom, about a fifth
of the size of PNGs, and drawn in about 60% of the time (no glyph is rasterised).
"""

from __future__ import annotations

import base64
import io
import json
import statistics
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

from toolfaults.language import english_name

from . import pages
from .results import ATTENTION, SubmissionResult

GREEN, RED, AMBER, GREY = "#2da44e", "#cf222e", "#d4a72c", "#8c959f"


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# Text stays text (the browser draws it, in the same font family); fixed ids and no date, so
# the same results give the same file.
SVG = {"svg.fonttype": "none", "svg.hashsalt": "class-report"}


def _svg(fig, path: Path) -> str:
    """Save ``fig`` as SVG to ``path`` and return it base64-encoded for embedding."""
    buf = io.BytesIO()
    with _plt().rc_context(SVG):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    data = buf.getvalue()
    path.write_bytes(data)
    _plt().close(fig)
    return base64.b64encode(data).decode()


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


# -- figures ----------------------------------------------------------------------------------
def figure_scores(results: list[SubmissionResult], path: Path) -> str:
    plt = _plt()
    assignments = sorted({r.assignment for r in results})
    cols = min(2, len(assignments)) or 1
    rows = (len(assignments) + cols - 1) // cols or 1
    fig, axes = plt.subplots(rows, cols, figsize=(6.2 * cols, 3.0 * rows), squeeze=False)
    bins = [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100.001]
    for ax, assignment in zip(axes.flat, assignments):
        rs = [r for r in results if r.assignment == assignment]
        ok = [percent(r) for r in rs if r.status != ATTENTION]
        bad = [percent(r) for r in rs if r.status == ATTENTION]
        ax.hist([ok, bad], bins=bins, stacked=True, color=[GREEN, AMBER], edgecolor="white",
                label=["graded", "needs attention"])
        median = statistics.median([percent(r) for r in rs])
        ax.axvline(median, color="#1f2328", linestyle="--", linewidth=1)
        ax.text(median, ax.get_ylim()[1] * 0.92, f" median {median:.0f}%", fontsize=8, va="top")
        ax.set_title(f"{assignment}  (n={len(rs)}, max {rs[0].max_score:g} pts)", fontsize=10)
        ax.set_xlim(0, 100)
        ax.set_xlabel("score (% of max)")
        ax.set_ylabel("submissions")
        ax.yaxis.get_major_locator().set_params(integer=True)
        ax.spines[["top", "right"]].set_visible(False)
    for ax in list(axes.flat)[len(assignments):]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8, frameon=False, loc="upper left")
    fig.suptitle("Score distribution per assignment", fontsize=12, x=0.01, ha="left")
    fig.tight_layout()
    return _svg(fig, path)


def figure_tests(assignment: str, rows: list[dict], path: Path) -> str:
    plt = _plt()
    height = 0.42 * len(rows) + 1.2
    fig, ax = plt.subplots(figsize=(10, height))
    labels = ["\n".join(textwrap.wrap(f"{r['description']} ({r['points']:g} pt)", 70)[:2]) for r in rows]
    rates = [100 * r["fail_rate"] for r in rows]
    colors = [RED if x >= 50 else AMBER if x >= 20 else GREEN for x in rates]
    y = list(range(len(rows)))[::-1]
    ax.barh(y, [100] * len(rows), color="#eaeef2", height=0.7)
    ax.barh(y, rates, color=colors, height=0.7)
    for yi, r, rate in zip(y, rows, rates):
        ax.text(min(rate + 1.5, 88), yi, f"{rate:.0f}% fail ({r['failed']}/{r['graded']})", va="center", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"% of submissions that fail the test (of {rows[0]['graded'] if rows else 0} that pass at least one)")
    ax.set_title(f"{assignment}: which behaviours the class got wrong", fontsize=11, loc="left")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return _svg(fig, path)


def figure_overview(results: list[SubmissionResult], path: Path) -> str:
    plt = _plt()
    students = sorted({r.student for r in results})
    assignments = sorted({r.assignment for r in results})
    grid = [[float("nan")] * len(assignments) for _ in students]
    marks: list[tuple[int, int, str]] = []
    for r in results:
        i, j = students.index(r.student), assignments.index(r.assignment)
        grid[i][j] = percent(r)
        marks.append((i, j, f"{r.score:g}" + (" !" if r.status == ATTENTION else "")))
    fig, ax = plt.subplots(figsize=(1.6 * len(assignments) + 2.5, 0.32 * len(students) + 1.4))
    from matplotlib.colors import LinearSegmentedColormap

    cmap = LinearSegmentedColormap.from_list("score", [RED, "#f6e05e", GREEN]).with_extremes(bad="#eaeef2")
    image = ax.imshow(grid, cmap=cmap, vmin=0, vmax=100, aspect="auto")
    for i, j, text in marks:
        ax.text(j, i, text, ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(assignments)))
    ax.set_xticklabels(assignments, rotation=20, ha="right", fontsize=8)
    ax.set_yticks(range(len(students)))
    ax.set_yticklabels(students, fontsize=8)
    ax.set_title("Every student's score (grey: not submitted, !: needs attention)", fontsize=10, loc="left")
    fig.colorbar(image, ax=ax, label="% of max", shrink=0.8)
    fig.tight_layout()
    return _svg(fig, path)


# -- page -------------------------------------------------------------------------------------
def render(results: list[SubmissionResult], out_dir: Path, title: str = "Class report") -> Path:
    """Write ``class_report.html`` (template ``templates/class_report.html``) and its figures into
    ``out_dir``; returns the page."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rates = test_rates(results)
    figures: dict[str, str] = {}
    if results:
        figures["scores"] = figure_scores(results, out_dir / "scores.svg")
        for assignment, rows in rates.items():
            figures[f"tests_{assignment}"] = figure_tests(assignment, rows, out_dir / f"tests_{assignment}.svg")
        figures["overview"] = figure_overview(results, out_dir / "overview.svg")
    worst = sorted(((a, r) for a, rs in rates.items() for r in rs if r["failed"]),
                   key=lambda ar: -ar[1]["fail_rate"])[:8]
    page = out_dir / "class_report.html"
    page.write_text(pages.render(
        "class_report.html", title=title, results=results, students=len({r.student for r in results}),
        summary=summary(results), figures=figures, rates=rates, worst=worst, editions=editions(results),
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
    from .course import RESULTS

    import argparse

    parser = argparse.ArgumentParser(prog="python -m autograder.report", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="?", type=Path, default=RESULTS, help="saved results (default: %(default)s)")
    parser.add_argument("out_dir", nargs="?", type=Path, help="where the page goes (default: next to the results)")
    args = parser.parse_args(argv)
    results_path = args.results
    out_dir = args.out_dir or results_path.parent
    page = render(load_results(results_path), out_dir)
    print(f"Class report: {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
