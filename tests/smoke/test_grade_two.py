"""Smoke test of `make grade`: the grade command grades two submissions of the sample class.

The fast tier's one real grading run (``make test-fast``): the command instructors run
(``python -m autograder.grade``), on its default path (Dask LocalCluster, SQLite, the
sandbox when it can run here), for one assignment and two students, a solution and a
partly wrong answer. It proves the pieces are wired together; the full sample class,
every broken submission and the engines' equivalence are in tests/grading (slow).
"""

from __future__ import annotations

import csv
import html
import json
import subprocess
import sys

import pytest

from autograder import sample_class
from autograder.course import ROOT
from autograder.sandbox import sandbox_available
from tests.conftest import SAMPLE_CLASS_LIMITS

ASSIGNMENT = "03_validate_then_execute"


def _pick(expect: str) -> str:
    """The first student whose submission of ASSIGNMENT should score ``expect`` ("full", "partial")."""
    for student, plan in sorted(sample_class.CLASS.items()):
        if ASSIGNMENT in plan and sample_class.EXPECT[sample_class.kind(plan[ASSIGNMENT])] == expect:
            return student
    raise AssertionError(f"no sample student whose {ASSIGNMENT} should score {expect!r}")


@pytest.mark.timeout(300)  # one grading run: a Dask cluster, two kernels, the report's figures
def test_the_grade_command_grades_two_submissions(tmp_path):
    full, partial = _pick("full"), _pick("partial")
    cmd = [sys.executable, "-m", "autograder.grade", "--out", str(tmp_path), "--assignment", ASSIGNMENT,
           "--student", full, "--student", partial, *SAMPLE_CLASS_LIMITS]
    if not sandbox_available():
        cmd.append("--unsandboxed")
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, f"the grade command failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"

    results = {r["student"]: r for r in json.loads((tmp_path / "reports" / "results.json").read_text())}
    assert sorted(results) == sorted([full, partial]), results.keys()
    top = results[full]["max_score"]
    assert top > 0 and results[full]["score"] == top and results[full]["status"] == "graded", results[full]
    assert 0 < results[partial]["score"] < top, results[partial]
    assert any(not t["passed"] and t["message"] for t in results[partial]["tests"]), \
        "a failing test should carry its message"

    with (tmp_path / "grades.csv").open(newline="") as fh:
        rows = {(r["student"], r["assignment"]): r for r in csv.DictReader(fh)}
    for student in (full, partial):
        assert float(rows[(student, ASSIGNMENT)]["score"]) == results[student]["score"], student
        page = tmp_path / "feedback" / student / ASSIGNMENT / f"{ASSIGNMENT}.html"
        text = html.unescape(page.read_text())
        assert f"{results[student]['score']:g} / {top:g}" in text, student
    report = (tmp_path / "reports" / "class_report.html").read_text()
    assert "What the class got wrong" in report and report.count("data:image/png;base64,") == 3
