"""The class report and the feedback pages, rendered from a synthetic ``results.json``.

Golden files: ``expected/`` holds what the grade command writes for
``fixtures/results.json`` (the report, charts included, every feedback page and
feedback.json). After an intended change to a
template, rewrite them and review the diff:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/reporting

The fixture's messages hold HTML-special characters (``<script>``, ``&``, quotes) and a
message already redacted by the engine (``[hidden test]``); a passed test carries a
message that must not be shown.
"""

from __future__ import annotations

import html
import json
import os
import re
import tempfile
from pathlib import Path

import pytest

from autograder import feedback, pages, report
from autograder.problems import words
from autograder.results import ATTENTION, SubmissionResult

HERE = Path(__file__).parent
RESULTS = HERE / "fixtures" / "results.json"
EXPECTED = HERE / "expected"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
BAR = re.compile(r'<span class="fill (\w+)" style="width: ([0-9.]+)rem"></span>')


def _golden(actual: str, path: Path) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"no golden file {path}: run with UPDATE_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, (f"{path.relative_to(HERE)} differs from the golden file; if the change is "
                                "intended, rerun with UPDATE_GOLDEN=1 and review the diff")


@pytest.fixture(scope="module")
def results() -> list[SubmissionResult]:
    return report.load_results(RESULTS)


@pytest.fixture(scope="module")
def report_dir(results, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("reports")
    report.render(results, out)
    return out


@pytest.fixture(scope="module")
def feedback_dir(results, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("feedback")
    for r in results:
        feedback.write(r, out)
    return out


# -- golden files -------------------------------------------------------------------------
def test_the_class_report_matches_its_golden_file(report_dir):
    page = (report_dir / "class_report.html").read_text()
    _golden(page, EXPECTED / "class_report.html")
    assert sorted(p.name for p in report_dir.iterdir()) == ["class_report.html"], "the page is one file"


def test_the_charts_are_tables_with_their_numbers_as_text(results, report_dir):
    """Score distributions, fail rates and the overview are HTML tables: every number is text on the page,
    and each bar's length follows its number (the longest bar of a chart is its largest number)."""
    page = (report_dir / "class_report.html").read_text()
    assert "<img" not in page and "data:image" not in page and "<svg" not in page
    histograms, rates = report.histograms(results), report.test_rates(results)
    assert page.count('<table class="chart">') == len(histograms) + len(rates)
    for h in histograms:
        assert sum(b["graded"] + b["attention"] for b in h["bins"]) == h["submissions"] == sum(
            r.assignment == h["assignment"] for r in results)
    for assignment, rows in rates.items():
        for t in rows:
            assert f"{100 * t['fail_rate']:.0f}% fail ({t['failed']}/{t['graded']})" in page, (assignment, t)
    for h in histograms:  # the largest bin of each histogram has the full 12rem, the others their share
        start = page.index(f"<caption>{html.escape(h['assignment'])} ")
        bars = BAR.findall(page[start:page.index("</table>", start)])
        assert max(float(w) for _, w in bars) == 12.0, h["assignment"]
    fail_bars = re.findall(BAR.pattern + r'<span class="count">(\d+)% fail', page)
    assert len(fail_bars) == sum(len(rows) for rows in rates.values())
    for kind, width, rate in fail_bars:  # 12rem is 100 % of the class failing; red from 50 %, amber from 20 %
        assert abs(float(width) - 0.12 * int(rate)) <= 0.07, (kind, width, rate)
        assert kind == ("high" if int(rate) > 50 else "mid" if 20 < int(rate) < 50 else "low" if int(rate) < 20
                        else kind), (kind, rate)
    table = page[page.index('<table class="overview">'):]
    for r in results:
        assert f"<th scope=\"row\">{html.escape(r.student)}</th>" in table, r.student
    ana = next(r for r in results if r.status != ATTENTION and r.score == r.max_score)
    assert report.colour(report.percent(ana)) == "#2da44e" and report.colour(0) == "#cf222e"
    assert report.colour(50) == "#f6e05e" and f"background: {report.NOTHING}" in table
    assert report.ink(report.colour(0)) == "#ffffff" and report.ink(report.colour(50)) == "#1f2328"


def test_the_same_results_give_the_same_page(results, tmp_path):
    first, second = report.render(results, tmp_path / "a"), report.render(results, tmp_path / "b")
    assert first.read_bytes() == second.read_bytes()


def test_every_feedback_page_matches_its_golden_file(results, feedback_dir):
    written = sorted(p.relative_to(feedback_dir) for p in feedback_dir.rglob("*") if p.is_file())
    assert len(written) == 2 * len(results), written
    if UPDATE:
        for old in (EXPECTED / "feedback").rglob("*"):
            if old.is_file():
                old.unlink()
    for rel in written:
        _golden((feedback_dir / rel).read_text(), EXPECTED / "feedback" / rel)
    kept = sorted(p.relative_to(EXPECTED / "feedback") for p in (EXPECTED / "feedback").rglob("*") if p.is_file())
    assert kept == written, "a golden feedback file is no longer written"


# -- escaping -----------------------------------------------------------------------------
def _pages(report_dir: Path, feedback_dir: Path) -> dict[str, str]:
    found = {"report": (report_dir / "class_report.html").read_text()}
    found.update({str(p): p.read_text() for p in feedback_dir.rglob("*.html")})
    return found


def test_what_students_and_tests_wrote_is_escaped(report_dir, feedback_dir):
    """A message holding markup shows as text: no page carries a tag a student's code wrote."""
    ben = (feedback_dir / "ben" / "04_validate_then_execute" / "04_validate_then_execute.html").read_text()
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in ben
    assert "executing &amp; &#34;fail closed&#34;" in ben
    for name, page in _pages(report_dir, feedback_dir).items():
        assert "<script" not in page and "<SyntaxError>" not in page, name
    assert "cell 4 has a &lt;SyntaxError&gt; &amp; did not run" in (report_dir / "class_report.html").read_text()


def test_a_student_name_with_markup_is_escaped_everywhere(tmp_path):
    r = SubmissionResult.from_dict({
        "student": "<b>o'brien</b>", "assignment": "04_validate_then_execute", "score": 1, "max_score": 2,
        "tests": [{"grade_id": "t1", "description": "Retries <twice>", "points": 1, "max_points": 2,
                   "passed": False, "message": "AssertionError: x < y"}]})
    r.flag("kernel_died", label="<i>stopped</i>", after=words("cells_after"))  # needs attention: both lists
    page = feedback.render_html(r)
    report_page = report.render([r], tmp_path).read_text()
    for text in (page, report_page):
        assert "<b>" not in text and "<i>" not in text and "<twice>" not in text
        assert "&lt;b&gt;o&#39;brien&lt;/b&gt;" in text
    assert "AssertionError: x &lt; y" in page


# -- what each page shows -----------------------------------------------------------------
def test_feedback_shows_only_a_failing_tests_message(results):
    """A passed test's message stays hidden; a failing test's message (redacted by the engine) is shown."""
    ben = next(r for r in results if r.student == "ben")
    page = html.unescape(feedback.render_html(ben))
    assert "passed tests show no message" not in page
    assert "assert 'city' in msg\n[hidden test]" in page
    assert "1 of 3 tests passed" in page and "2 / 6" in page


def test_feedback_tells_attention_from_a_note(results):
    cleo = next(r for r in results if r.student == "cleo")
    dev = next(r for r in results if r.student == "dev")
    assert cleo.status == ATTENTION
    attention = feedback.render_html(cleo)
    assert 'class="box attention"' in attention and "Your instructor will look at this submission." in attention
    assert "<li>A cell ran longer than 10 s" in attention, "problems start with a capital in the feedback"
    note = feedback.render_html(dev)
    assert 'class="box note"' in note and "What the grader noticed:" in note
    full = next(r for r in results if r.student == "ana" and r.score == r.max_score)
    assert 'class="box' not in feedback.render_html(full)


def test_fail_rates_leave_out_attention_and_all_failing_submissions(results):
    rates = report.test_rates(results)
    first = {row["grade_id"]: row for row in rates["04_validate_then_execute"]}
    # cleo needs attention: only ana and ben count; ben failed two of three tests.
    assert first["test_bad_arguments_never_run"]["graded"] == 2
    assert first["test_bad_arguments_never_run"]["fail_rate"] == 0.5
    assert first["test_valid_call_runs"]["fail_rate"] == 0.0
    assert [row["grade_id"] for row in rates["04_validate_then_execute"]][-1] == "test_valid_call_runs", \
        "rows are sorted by fail rate, worst first"


def test_summary_counts_every_submission(results):
    rows = {s["assignment"]: s for s in report.summary(results)}
    first = rows["04_validate_then_execute"]
    assert (first["submissions"], first["full"], first["zero"], first["attention"]) == (3, 1, 1, 1)
    assert round(first["mean"], 1) == 44.4 and round(first["median"], 1) == 33.3


def test_the_report_shows_both_editions_side_by_side(results):
    """04_validate_then_execute and its Spanish edition: summary and fail rate of each test, in two columns."""
    (both,) = report.editions(results)
    assert (both["english"], both["spanish"]) == ("04_validate_then_execute", "04_validate_then_execute_es")
    assert (both["en"]["submissions"], both["es"]["submissions"]) == (3, 2)
    named = {t["grade_id"]: t for t in both["tests"]}
    assert named["test_error_names_the_field"]["es"]["fail_rate"] == 0.5   # eva failed it, gael passed
    assert named["test_error_names_the_field"]["en"]["failed"] == 1        # ben (cleo needs attention)
    page = report.render(results, Path(tempfile.mkdtemp())).read_text()
    assert "<h2>English and Spanish editions side by side</h2>" in page
    assert "<h3>04_validate_then_execute / 04_validate_then_execute_es</h3>" in page
    assert ">50% fail (1/2)<" in page


def test_feedback_speaks_the_submissions_language(results):
    """A Spanish assignment's feedback page is in Spanish (html lang, headings, counts); an English one in English."""
    spanish = next(r for r in results if r.assignment.endswith("_es") and r.failed)
    english = next(r for r in results if not r.assignment.endswith("_es") and r.failed)
    page = feedback.render_html(spanish)
    assert '<html lang="es">' in page and "<h1>Comentarios: 04_validate_then_execute_es</h1>" in page
    assert "2 de 3 tests superados" in page and "<th>Puntos</th>" in page and "tests passed" not in page
    assert feedback.as_data(spanish)["language"] == "es"
    page = feedback.render_html(english)
    assert '<html lang="en">' in page and "tests passed" in page and "Comentarios" not in page


def test_both_pages_embed_the_one_stylesheet(report_dir, feedback_dir):
    style = (pages.TEMPLATES / "style.css").read_text()
    for name, page in _pages(report_dir, feedback_dir).items():
        assert page.count("<style>") == 1 and style in page, name


def test_an_empty_class_gets_a_report_without_charts(tmp_path):
    page = report.render([], tmp_path).read_text()
    assert "0 students, 0 graded submissions" in page and 'class="chart"' not in page and 'class="overview"' not in page
    assert "<h2>Needs attention (0)</h2>\n<p>None.</p>" in page


def test_the_report_is_rebuilt_from_saved_results(results, tmp_path, capsys, monkeypatch):
    """`python -m autograder.report results.json out` gives the page the grade command wrote."""
    saved = report.save_results(results, tmp_path / "results.json")
    assert report.load_results(saved) == results
    assert report.main([str(saved), str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "class_report.html").read_text()
    assert page == (EXPECTED / "class_report.html").read_text()
    assert "Class report:" in capsys.readouterr().out


def test_feedback_json_holds_what_the_page_shows(results):
    ben = next(r for r in results if r.student == "ben")
    data = json.loads(json.dumps(feedback.as_data(ben)))
    assert data["problems"] == [p.text for p in ben.problems]
    assert [t["message"] for t in data["tests"]] == [t.message for t in ben.tests]
