"""`make grade` on the sample class: grades, feedback without hidden tests, and the class report.

The grade command (``python -m autograder.grade``, what `make grade` runs) grades the
sample class shipped in ``classes/sample/submitted`` once, into a scratch folder, on its
default path (a Dask LocalCluster, SQLite), with shorter time limits than the
course's (so the endless loops cost seconds, not minutes) and in the sandbox when it
can run here (the ``sample_class_graded`` fixture of ``tests/conftest.py``). The tests
then check what an instructor and the students get.
"""

from __future__ import annotations

import csv
import html
import json
import re

import pytest

from autograder import grade
from autograder.course import SOLUTIONS, SUBMITTED, graded_assignments
from autograder.testcells import hidden_lines
from autograder.sandbox import sandbox_available
from coursetools import sample_class

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def graded(sample_class_graded):
    return sample_class_graded


def test_sample_class_is_big_and_varied():
    """At least 12 students; full marks, partial credit, the untouched stub and broken submissions."""
    assert len(sample_class.CLASS) >= 12
    recipes = {sample_class.kind(r) for plan in sample_class.CLASS.values() for r in plan.values()}
    assert {"solution", "right", "wrong", "stub"} <= recipes
    assert {"syntax", "loop", "stuck", "exit_cell", "os_exit", "chatty", "no_test", "edited_test", "no_answer",
            "renamed", "missing", "tamper"} <= recipes
    for student, plan in sample_class.CLASS.items():
        for assignment in plan:
            assert (SUBMITTED / student / assignment).is_dir(), f"{student}/{assignment} is not in classes/sample/submitted"


def test_sample_class_is_built_from_the_current_exercises():
    """classes/sample/submitted is what `python -m coursetools.sample_class` builds from today's exercises."""
    stale = sample_class.stale()
    assert not stale, "classes/sample/submitted is stale; run `python -m coursetools.sample_class` and commit:\n" + \
        "\n".join(stale[:20])


def test_every_submission_is_graded(graded):
    expected = {(s, a) for s, plan in sample_class.CLASS.items() for a in plan}
    assert set(graded["results"]) == expected


def test_each_student_scores_as_their_submission_deserves(graded):
    """Full marks for solutions and correct alternatives, zero for stubs, partial credit for mistakes,
    and every broken submission named by what happened."""
    wrong = []
    for (student, assignment), r in graded["results"].items():
        recipe = sample_class.CLASS[student][assignment]
        expect = sample_class.EXPECT[sample_class.kind(recipe)]
        kinds = [p["kind"] for p in r["problems"]]
        ok = {
            "full": r["score"] == r["max_score"] and r["status"] == "graded",
            "zero": r["score"] == 0 and r["status"] == "graded",
            "partial": 0 < r["score"] < r["max_score"],
            "endless": "stuck_kernel" in kinds or "timeout" in kinds,
        }.get(expect, expect in kinds)
        if not ok:
            wrong.append(f"{student}/{assignment} ({recipe}): {r['score']}/{r['max_score']} {r['status']} {kinds}")
    assert not wrong, "\n".join(wrong)


def test_grades_csv(graded):
    """grades.csv: student, assignment, score, max_score (+ status, notes), one row per student and assignment."""
    with (graded["out"] / "grades.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0])[:4] == ["student", "assignment", "score", "max_score"]
    table = {(r["student"], r["assignment"]): r for r in rows}
    students = set(sample_class.CLASS)
    assert set(table) == {(s, a) for s in students for a in graded_assignments()}
    for key, r in graded["results"].items():
        assert float(table[key]["score"]) == r["score"] and table[key]["status"] == r["status"], key
    assert table[("ivan", "04_validate_then_execute")]["status"] == "not submitted"


def _hidden_code() -> dict[str, list[str]]:
    """Per assignment: the lines of its hidden tests that are code (messages are meant to be shown)."""
    out = {}
    for assignment in graded_assignments():
        import nbformat

        nb = nbformat.read(SOLUTIONS / assignment / f"{assignment}.ipynb", as_version=4)
        lines = [line for c in nb.cells for line in hidden_lines(c.source)]
        out[assignment] = [x for x in lines if len(x) >= 12 and not re.match(r"^[rbfu]*[\"']", x, re.I)
                           and not x.startswith("#")]
    return out


def test_feedback_never_shows_hidden_tests(graded):
    """For every graded notebook, the feedback has each test's description, points, pass/fail and message,
    and no line of a hidden test nor any traceback."""
    hidden = _hidden_code()
    assert all(hidden.values()), "every graded assignment has hidden tests"
    feedback = graded["out"] / "feedback"
    checked = 0
    for (student, assignment), r in graded["results"].items():
        page = feedback / student / assignment / f"{assignment}.html"
        data = feedback / student / assignment / "feedback.json"
        assert page.exists() and data.exists(), f"no feedback for {student}/{assignment}"
        text = html.unescape(page.read_text()) + "\n" + data.read_text()
        leaked = [line for line in hidden[assignment] if line in text]
        assert not leaked, f"{student}/{assignment}: hidden test source in the feedback: {leaked[:3]}"
        for marker in ("BEGIN HIDDEN", "autograder: helper package check"):
            assert marker not in text, f"{student}/{assignment}: {marker!r} in the feedback"
        for t in r["tests"]:
            assert t["description"] in html.unescape(page.read_text()), (student, assignment, t["grade_id"])
            assert f"{t['points']:g} / {t['max_points']:g}" in page.read_text()
        checked += 1
    assert checked == len(graded["results"])


def test_failing_tests_explain_themselves(graded):
    """A partial-credit student's failing test carries the test's own message."""
    r = graded["results"][("chen", "05_retry_with_backoff")]
    failed = [t for t in r["tests"] if not t["passed"]]
    assert failed and all(t["message"] for t in failed)
    assert any("FileNotFoundError" in t["message"] or "OSError" in t["message"] for t in failed), failed


def test_class_report(graded):
    """The report has the score distribution, every test's fail rate and who needs attention."""
    reports = graded["out"] / "reports"
    page = (reports / "class_report.html").read_text()
    # a score distribution and a fail-rate chart per assignment, and every student's scores
    assert all(f"<caption>{a} " in page for a in graded_assignments())
    assert all(f'<th scope="row">{student}</th>' in page for student, _ in graded["results"])
    assert re.search(r"\d+% fail|\d+%</span>", page)
    attention = [k for k, r in graded["results"].items() if r["status"] == "needs attention"]
    assert attention
    for student, assignment in attention:
        assert student in html.unescape(page)
    assert "Score distribution" in page and "What the class got wrong" in page


def test_the_spanish_edition_is_graded_like_the_english_one(graded):
    """sofia and tomas hand in the Spanish edition: each submission scores what the same answer scores in
    English, test by test; their feedback is in Spanish; the report sets the two editions side by side."""
    by_recipe = {(a, recipe): s for s, plan in sample_class.CLASS.items() for a, recipe in plan.items()
                 if not a.endswith("_es")}
    compared = 0
    for (student, assignment), r in graded["results"].items():
        if not assignment.endswith("_es"):
            continue
        recipe = sample_class.CLASS[student][assignment]
        twin = by_recipe.get((assignment[:-3], recipe))
        if twin is None:
            continue
        en = graded["results"][(twin, assignment[:-3])]
        assert (r["score"], sorted(t["grade_id"] for t in r["tests"] if not t["passed"])) == \
            (en["score"], sorted(t["grade_id"] for t in en["tests"] if not t["passed"])), (student, assignment, twin)
        compared += 1
    assert compared >= 3, "the sample class pairs at least three Spanish submissions with an English twin"
    page = (graded["out"] / "feedback" / "sofia" / "05_retry_with_backoff_es" / "05_retry_with_backoff_es.html").read_text()
    assert '<html lang="es">' in page and "tests superados" in page
    failed = [t for t in graded["results"][("sofia", "05_retry_with_backoff_es")]["tests"] if not t["passed"]]
    assert failed and all(re.search(r"\b(debe|espera|esperas|varían|reintento)\b", t["message"]) for t in failed), failed
    report = (graded["out"] / "reports" / "class_report.html").read_text()
    assert "English and Spanish editions side by side" in report
    assert "<h3>05_retry_with_backoff / 05_retry_with_backoff_es</h3>" in report


def test_a_partial_regrade_updates_the_class_without_losing_it(graded):
    """Regrading one submission (--student/--assignment) keeps everyone else's results, statuses and report."""
    out = graded["out"]
    args = ["--out", str(out), "--timeout", "10", "--student", "ana", "--assignment", "06_fallback_and_degradation"]
    if not sandbox_available():
        args.append("--unsandboxed")
    assert grade.main(args) == 0
    results = json.loads((out / "reports" / "results.json").read_text())
    assert len(results) == len(graded["results"])
    with (out / "grades.csv").open() as fh:
        statuses = [row["status"] for row in csv.DictReader(fh)]
    expected = sum(r["status"] == "needs attention" for r in graded["results"].values())
    assert statuses.count("needs attention") == expected
