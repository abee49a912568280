"""`make grade` with a PostgreSQL gradebook gives the grades of the default path, for every kind of submission.

The default path of the grade command is a Dask LocalCluster with the SQLite gradebook
(the ``sample_class_graded`` fixture of ``tests/conftest.py`` grades the sample class
shipped in the repo that way). Here the grade command itself runs again, on a
LocalCluster of two workers with ``--db`` pointing at a throwaway PostgreSQL server on
loopback, for the fewest submissions that hold every kind of submission of the sample
class (solutions, right and wrong answers, stubs and every breakage) and every assignment
(:func:`covering_submissions`, copied into a folder of their own; the rest of the class
repeats those kinds and would grade the same way twice): each one's score, status and
every test's points must be the same. (``tests/cluster/test_cluster.py`` compares the
cluster path with a sequential SQLite run test by test;
``tests/grading/test_parallel_grading.py`` compares the Dask loop with a sequential
run, gradebook row by row; ``tests/cluster/test_real_cluster.py`` grades on a scheduler
and workers started as the guide says, ``--scheduler``, against the default path.)
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys

import pytest

from autograder.course import ROOT, SUBMITTED, graded_assignments
from coursetools import sample_class
from tests.sandbox.probe_assignment import sandboxed

pytestmark = pytest.mark.slow


def submission_kinds() -> dict[tuple[str, str], str]:
    """Every submission of the sample class: (student, assignment) -> its kind."""
    return {(student, assignment): sample_class.kind(recipe)
            for student, plan in sample_class.CLASS.items() for assignment, recipe in plan.items()}


def covering_submissions() -> list[tuple[str, str]]:
    """The fewest (student, assignment) submissions (greedy, ties by name) that hold every kind and every assignment."""
    kinds = submission_kinds()
    left = set(kinds.values()) | {assignment for _, assignment in kinds}
    chosen: list[tuple[str, str]] = []
    while left:
        best = max(sorted(kinds), key=lambda key: len({kinds[key], key[1]} & left))
        chosen.append(best)
        left -= {kinds[best], best[1]}
    return sorted(chosen)


def _tests(results: list[dict]) -> dict[tuple[str, str], list[tuple]]:
    return {(r["student"], r["assignment"]): [(t["grade_id"], t["points"], t["passed"]) for t in r["tests"]]
            for r in results}


def test_dask_and_postgresql_grade_the_sample_class_like_the_default(tmp_path, pg, sample_class_graded):
    """LocalCluster (2 workers) + PostgreSQL: the same grades.csv row for every kind of submission on every
    assignment, and the same points for every test."""
    chosen, kinds = covering_submissions(), submission_kinds()
    assert len(chosen) < len(kinds) and {a for _, a in chosen} == set(graded_assignments())
    assert {kinds[key] for key in chosen} == set(kinds.values())
    submissions = tmp_path / "submitted"
    for student, assignment in chosen:
        shutil.copytree(SUBMITTED / student / assignment, submissions / student / assignment)
    out = tmp_path / "pg"
    cmd = [sys.executable, "-m", "autograder.grade", "--submissions", str(submissions), "--out", str(out),
           "--workers", "2", "--db", pg.create_database("grade_command"), *sample_class_graded["limits"]]
    if not sandboxed():
        cmd.append("--unsandboxed")
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1500)
    assert run.returncode == 0, f"grade command failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    assert "on a Dask LocalCluster of 2 workers, PostgreSQL gradebook" in run.stdout, run.stdout[:500]

    with (out / "grades.csv").open(newline="") as fh:
        on_pg = {(r["student"], r["assignment"]): r for r in csv.DictReader(fh)}
    default = {(r["student"], r["assignment"]): r for r in sample_class_graded["grades"]}
    students = sorted(p.name for p in (SUBMITTED).iterdir() if p.is_dir())
    assert len(students) >= 12 and set(default) == {(s, a) for s in students for a in graded_assignments()}
    graded_students = {s for s, _ in chosen}
    assert set(on_pg) == {(s, a) for s in graded_students for a in graded_assignments()}
    # What was left out of the copy is "not submitted"; the rest grades as the default path graded it.
    assert {key for key, row in on_pg.items() if row["status"] == "not submitted"} >= set(on_pg) - set(chosen)
    columns = ("score", "max_score", "status")
    differ = {key: ([default[key][c] for c in columns], [on_pg[key][c] for c in columns])
              for key in chosen if any(default[key][c] != on_pg[key][c] for c in columns)}
    assert not differ, f"Dask + PostgreSQL graded differently (default, PostgreSQL): {differ}"

    pg_tests = {key: tests for key, tests in _tests(json.loads((out / "reports" / "results.json").read_text())).items()
                if key in chosen}
    default_tests = {key: tests for key, tests in _tests(sample_class_graded["results"].values()).items()
                     if key in chosen}
    assert pg_tests == default_tests and pg_tests
    scores = [(float(on_pg[k]["score"]), float(on_pg[k]["max_score"])) for k in chosen
              if on_pg[k]["status"] != "not submitted"]
    assert any(s == top for s, top in scores) and any(0 < s < top for s, top in scores) and any(s == 0 for s, _ in scores)


def test_a_scheduler_needs_postgresql():
    """A running cluster cannot share a SQLite file: the command refuses, saying what to add."""
    run = subprocess.run([sys.executable, "-m", "autograder.grade", "--scheduler", "tcp://127.0.0.1:9"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "--db postgresql://" in run.stderr, run.stderr
