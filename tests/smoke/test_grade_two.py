"""Smoke test of `make grade`: the grade command grades two submissions of the sample class.

The fast tier's one real grading run (``make test-fast``): the command instructors run
(``python -m autograder.grade``), for one assignment and two students, a solution and a
partly wrong answer, with the SQLite gradebook and the sandbox when it can run here. It
grades one at a time (``--workers 1``): starting a Dask cluster would double the
tier's time, and the default path on a LocalCluster is what the slow tests check,
with the full sample class, every broken submission and the engines' equivalence
(tests/grading, tests/cluster). This test proves the pieces are wired together:
generate, autograde, gradebook, grades.csv, feedback and the class report.
"""

from __future__ import annotations

import csv
import html
import json
import re
import subprocess
import sys

import pytest

from autograder.course import ROOT
from autograder.sandbox import sandbox_available
from coursetools import sample_class
from tests.conftest import SAMPLE_CLASS_LIMITS

ASSIGNMENT = "04_validate_then_execute"


def _pick(expect: str) -> str:
    """The first student whose submission of ASSIGNMENT should score ``expect`` ("full", "partial")."""
    for student, plan in sorted(sample_class.CLASS.items()):
        if ASSIGNMENT in plan and sample_class.EXPECT[sample_class.kind(plan[ASSIGNMENT])] == expect:
            return student
    raise AssertionError(f"no sample student whose {ASSIGNMENT} should score {expect!r}")


@pytest.mark.timeout(300)  # one grading run: generate, two kernels, the report
def test_the_grade_command_grades_two_submissions(tmp_path):
    full, partial = _pick("full"), _pick("partial")
    cmd = [sys.executable, "-m", "autograder.grade", "--workers", "1", "--out", str(tmp_path), "--assignment", ASSIGNMENT,
           "--student", full, "--student", partial, "--verbose", *SAMPLE_CLASS_LIMITS]
    if not sandbox_available():
        cmd.append("--unsandboxed")
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=280)
    assert run.returncode == 0, f"the grade command failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    # --verbose: the command's own debug lines reach stderr, with where its time went
    assert re.search(r"^Seconds: generate [\d.]+, grade [\d.]+, write [\d.]+\.$", run.stderr, re.M), run.stderr[-3000:]

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
    # one assignment: its score distribution and its tests' fail rates, then every student's scores
    assert "What the class got wrong" in report and report.count('<table class="chart">') == 2
    assert all(f'<th scope="row">{student}</th>' in report for student in (full, partial))
