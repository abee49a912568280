"""A semester without traps (issue 46), as a new instructor meets it: a class is its own folder.

The flow of the issue, on two classes that share a student id: collect a Canvas download into the
spring class with Canvas's own gradebook export as the roster, grade it, grade another class with a
student of the same id, download again from Canvas (everyone, one notebook changed), run the grade
command the tool printed exactly as printed, export. Neither class ever sees the other's students;
only the notebook that changed is flagged; late and misfiled work reach grades.csv.
"""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys

import pytest

from autograder import grade
from autograder.classes import ClassFolder
from autograder.course import ROOT
from autograder.gradebook import dump
from autograder.lms import collect as collect_cmd
from autograder.lms import export as export_cmd
from autograder.sandbox import sandbox_available
from tests.conftest import SAMPLE_CLASS_LIMITS
from tests.lms.downloads import A04, A05, T_NEW, T_OLD, sample, write_zip

COURSE = "toolcalling-errors"
# Canvas's gradebook export, as downloaded (Grades > Export): its own columns, a "Points Possible" row
# and Canvas's test student; the instructor saves it as the class's roster.csv.
CANVAS_EXPORT = [
    ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{A05} (4321)", "Current Score"],
    ["    Points Possible", "", "", "", "", "20", "(read only)"],
    ["Silva, Ana", "1001", "S-01", "asilva", "Section A", "", ""],
    ["Lee, Chloe", "1005", "S-05", "clee", "Section A", "", ""],
    ["Novak, Dan", "1006", "S-06", "dnovak", "Section B", "", ""],
    ["Student, Test", "1999", "", "", "Section A", "", ""],
]


def _rows(path) -> dict[tuple[str, str], dict[str, str]]:
    with open(path, newline="") as fh:
        return {(r["student"], r["assignment"]): r for r in csv.DictReader(fh)}


def _run(main, argv, capsys) -> tuple[int, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _grade_args(klass) -> list[str]:
    return ["--class", str(klass), "--workers", "1", *SAMPLE_CLASS_LIMITS] + (
        [] if sandbox_available() else ["--unsandboxed"])


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_a_semester_of_two_classes(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("AUTOGRADER_CLASS", raising=False)
    spring, autumn = ClassFolder(tmp_path / "spring-class"), ClassFolder(tmp_path / "autumn-class")
    spring.root.mkdir()
    with spring.roster.open("w", newline="") as fh:
        csv.writer(fh).writerows(CANVAS_EXPORT)

    # 1. The first Canvas download: Ana's solution, Chloe's mistake, and Dan's notebook of another assignment.
    first = write_zip(tmp_path / "submissions.zip", [
        (f"silvaana_1001_5001_{A05}.ipynb", sample("ana"), T_OLD),
        (f"leechloe_1005_5002_{A05}.ipynb", sample("chen"), T_OLD),
        (f"novakdan_LATE_1006_5003_{A05}.ipynb", sample("chen", A04), T_OLD),
    ])
    code, out = _run(collect_cmd.main, [A05, str(first), "--class", str(spring.root)], capsys)
    assert code == 0, out
    assert sorted(p.name for p in spring.submitted.iterdir()) == ["asilva", "clee"], out
    assert "novakdan_LATE_1006_5003" in out and "another assignment" in out

    # 2. Grade the spring class; then another class whose student has the same id.
    assert grade.main(_grade_args(spring.root)) == 0
    (autumn.submitted / "asilva" / A05).mkdir(parents=True)
    (autumn.submitted / "asilva" / A05 / f"{A05}.ipynb").write_bytes(sample("emil"))  # the stub
    spring_book = dump(spring.db_url, COURSE)
    assert grade.main(_grade_args(autumn.root)) == 0
    assert dump(spring.db_url, COURSE) == spring_book, "grading the autumn class changed the spring gradebook"
    spring_rows, autumn_rows = _rows(spring.grades_csv), _rows(autumn.grades_csv)
    assert set(autumn_rows) == {("asilva", A05)} and autumn_rows[("asilva", A05)]["score"] == "0"
    assert spring_rows[("asilva", A05)]["score"] == spring_rows[("asilva", A05)]["max_score"]
    assert 0 < float(spring_rows[("clee", A05)]["score"]) < float(spring_rows[("clee", A05)]["max_score"])
    # Dan handed in the wrong notebook, late: grades.csv says so, not a plain "not submitted".
    dan = spring_rows[("dnovak", A05)]
    assert dan["status"] == "not submitted" and "another assignment" in dan["set_aside"], dan
    # The formgrader reads names from the gradebook: the roster gave them.
    from nbgrader.api import Gradebook

    with Gradebook(spring.db_url, COURSE) as gb:
        ana = gb.find_student("asilva")
        assert (ana.first_name, ana.last_name) == ("Ana", "Silva")

    # 3. Canvas downloads everyone again; only Chloe's notebook changed (now the solution, handed in late).
    second = write_zip(tmp_path / "submissions (1).zip", [
        (f"silvaana_1001_5001_{A05}.ipynb", sample("ana"), T_NEW),
        (f"leechloe_LATE_1005_5010_{A05}.ipynb", sample("ana"), T_NEW),
    ])
    code, out = _run(collect_cmd.main, [A05, str(second), "--class", str(spring.root)], capsys)
    assert code == 0, out
    assert "Unchanged since an earlier download: 1 (asilva)" in out and "New or changed: clee." in out, out
    printed = re.search(r"^Grade them: (make grade .*)$", out, re.M)
    assert printed, out

    # 4. The export flags Chloe only, and prints the command to grade her, for this class.
    code, out = _run(export_cmd.main, ["--class", str(spring.root)], capsys)
    assert code == 0, out
    flagged = [line for line in out.splitlines() if "collected again" in line]
    assert len(flagged) == 1 and f"clee/{A05}" in flagged[0], out
    suggested = flagged[0].split("grade it first: ", 1)[1]
    assert suggested == printed[1] == (
        f'make grade CLASS={spring.shown} GRADE_ARGS="--student clee --assignment {A05}"')

    # 5. The printed command, run exactly as printed, grades Chloe of the spring class, nobody else.
    if not sandbox_available():
        pytest.skip("the printed `make grade` runs in the sandbox, which cannot run here")
    autumn_book = dump(autumn.db_url, COURSE)
    env = {k: v for k, v in os.environ.items() if k != "AUTOGRADER_CLASS"}
    run = subprocess.run(["bash", "-c", suggested], cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "[  1/1] clee" in run.stdout, run.stdout
    assert dump(autumn.db_url, COURSE) == autumn_book
    rows = _rows(spring.grades_csv)
    assert rows[("clee", A05)]["score"] == rows[("clee", A05)]["max_score"] and rows[("clee", A05)]["late"] == "late"
    assert rows[("asilva", A05)]["score"] == rows[("asilva", A05)]["max_score"]
    code, out = _run(export_cmd.main, ["--class", str(spring.root)], capsys)
    assert code == 0 and "collected again" not in out, out
    report = (spring.reports / "class_report.html").read_text()
    assert "Late and set aside at collection" in report and "handed in late" in report


def test_grading_another_class_folder_into_this_one_is_refused(tmp_path, monkeypatch):
    """`--submissions` of another folder without `--out` would write its students into this class's gradebook."""
    monkeypatch.delenv("AUTOGRADER_CLASS", raising=False)
    other = tmp_path / "other" / "submitted"
    (other / "ana" / A05).mkdir(parents=True)
    run = subprocess.run([sys.executable, "-m", "autograder.grade", "--class", str(tmp_path / "mine"),
                          "--submissions", str(other), "--unsandboxed"],
                         cwd=ROOT, capture_output=True, text=True, timeout=100)
    assert run.returncode == 2 and "is not the submissions folder of the class" in run.stderr, run.stderr
    assert not (tmp_path / "mine").exists()


def test_make_clean_keeps_grades_and_clean_grades_says_what_it_removes(tmp_path, monkeypatch):
    monkeypatch.delenv("AUTOGRADER_CLASS", raising=False)
    recipe = subprocess.run(["make", "-n", "clean"], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert "gradebook" not in recipe and "output" not in recipe and "classes" not in recipe, recipe
    klass = ClassFolder(tmp_path / "spring")
    klass.output.mkdir(parents=True)
    klass.gradebook.write_text("scores")
    (klass.submitted / "ana").mkdir(parents=True)
    said = subprocess.run([sys.executable, "-m", "autograder.classes", "clean-grades", "--class", str(klass.root)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    assert "MANUAL SCORES" in said and "Nothing removed" in said and klass.gradebook.exists(), said
    confirm = said.rsplit("To remove them: ", 1)[1].strip()
    assert confirm == f"make clean-grades CLASS={klass.shown} CONFIRM=yes"
    env = {k: v for k, v in os.environ.items() if k != "AUTOGRADER_CLASS"}
    run = subprocess.run(["bash", "-c", confirm], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "Removed." in run.stdout, run.stdout + run.stderr  # run exactly as printed
    assert not klass.gradebook.exists() and not klass.output.exists() and (klass.submitted / "ana").is_dir()


def test_use_class_names_the_class_once(tmp_path, monkeypatch):
    """`make use-class CLASS=DIR` writes class.local; every command, nbgrader's config included, then uses it."""
    from autograder import classes

    monkeypatch.delenv("AUTOGRADER_CLASS", raising=False)
    monkeypatch.setattr(classes, "SETTING", tmp_path / "class.local")
    assert classes.main(["use", str(tmp_path / "spring")]) == 0
    assert ClassFolder.current().root == (tmp_path / "spring").resolve()
    assert (tmp_path / "spring" / "submitted").is_dir()
    monkeypatch.setenv("AUTOGRADER_CLASS", str(tmp_path / "autumn"))  # make's CLASS= wins for one command
    assert ClassFolder.current().root == (tmp_path / "autumn").resolve()


@pytest.mark.timeout(300)
def test_nbgrader_own_commands_work_in_a_fresh_clone(tmp_path):
    """In a fresh clone, `nbgrader generate_assignment` (and the formgrader's gradebook) find a class folder
    to keep the gradebook in: no "unable to open database file"."""
    clone = tmp_path / "course"
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{ROOT}", str(clone)], check=True, timeout=120)
    env = {k: v for k, v in os.environ.items() if k != "AUTOGRADER_CLASS"}
    env["PATH"] = f"{os.path.dirname(sys.executable)}{os.pathsep}{env.get('PATH', '')}"
    run = subprocess.run(["nbgrader", "generate_assignment", A05, "--CourseDirectory.release_directory=" +
                          str(tmp_path / "release")], cwd=clone, env=env, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "unable to open database file" not in run.stderr
    assert (clone / "classes" / "sample" / "gradebook.db").is_file()
    shutil.rmtree(clone)
