"""Canvas's and Moodle's own gradebook exports are rosters, as downloaded (issue 46, trap 10)."""

from __future__ import annotations

import csv

import pytest

from autograder.lms.roster import Roster, RosterError


def _write(path, rows, encoding="utf-8"):
    with path.open("w", newline="", encoding=encoding) as fh:
        csv.writer(fh).writerows(rows)
    return path


def test_canvas_gradebook_export_is_a_roster(tmp_path):
    path = _write(tmp_path / "2026-03-09T1200_Grades-ERR101.csv", [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "05_retry_with_backoff (4321)",
         "Current Score", "Final Score"],
        ["    Points Possible", "", "", "", "", "20.00", "(read only)", "(read only)"],
        ["Silva, Ana", "1001", "S-01", "asilva@uni.example", "ERR101 A", "", "", ""],
        ["García López, Sofía", "1002", "", "", "ERR101 B", "12.00", "", ""],
        ["Student, Test", "1999", "", "", "ERR101 A", "", "", ""],
    ], encoding="utf-8-sig")
    roster = Roster.load(path)
    assert [s.student_id for s in roster.students] == ["asilva", "garcialopezsofia"]
    ana = roster.get("asilva")
    assert (ana.lms_id, ana.name, ana.email, ana.sis_user_id, ana.section) == (
        "1001", "Ana Silva", "asilva@uni.example", "S-01", "ERR101 A")
    assert ana.names() == ("Ana", "Silva")
    assert roster.get("garcialopezsofia").names() == ("Sofía", "García López")
    assert roster.find("1002").name == "Sofía García López"  # Canvas's download names files by user id


def test_moodle_grade_export_is_a_roster(tmp_path):
    path = _write(tmp_path / "ERR101 Grades.csv", [
        ["First name", "Last name", "ID number", "Institution", "Department", "Email address",
         "Assignment: 05_retry_with_backoff (Real)", "Last downloaded from this course"],
        ["Ana", "Silva", "S-01", "Uni", "CS", "ana@uni.example", "-", "1741520000"],
        ["Bruno", "Pereira", "", "Uni", "CS", "bruno.pereira@uni.example", "15.00", "1741520000"],
    ])
    roster = Roster.load(path)
    assert [s.student_id for s in roster.students] == ["S-01", "bruno.pereira"]
    bruno = roster.get("bruno.pereira")
    assert (bruno.lms_id, bruno.name, bruno.email) == ("", "Bruno Pereira", "bruno.pereira@uni.example")
    assert roster.find(None, "Ana Silva").student_id == "S-01"  # Moodle's folders are matched by full name


def test_anything_else_says_which_rosters_it_takes(tmp_path):
    path = _write(tmp_path / "people.csv", [["name", "mail"], ["Ana", "a@x"]])
    with pytest.raises(RosterError) as err:
        Roster.load(path)
    assert "Canvas's gradebook export" in str(err.value) and "Moodle's grade export" in str(err.value)


def test_export_takes_the_canvas_export_as_roster(tmp_path):
    """`make export ROSTER=<Canvas's export>`: the CSVs list the export's students, Canvas's ids kept."""
    from nbgrader.api import Gradebook

    from autograder.lms.export import export

    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    a = "06_fallback_and_degradation"
    with Gradebook(url, "toolcalling-errors") as gb:
        gb.add_assignment(a)
        gb.add_notebook(a, a)
        gb.add_grade_cell("t1", a, a, max_score=5, cell_type="code")
        gb.add_student("asilva")
        gb.add_submission(a, "asilva")
        gb.find_grade("t1", a, a, "asilva").auto_score = 5
        gb.db.commit()
    roster = _write(tmp_path / "grades.csv", [
        ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{a} (4321)"],
        ["    Points Possible", "", "", "", "", "5"],
        ["Silva, Ana", "1001", "S-01", "asilva", "A", ""],
    ])
    export(Roster.load(roster), tmp_path / "exports", db_url=url, course_id="toolcalling-errors",
           results=tmp_path / "none.json", feedback=tmp_path / "feedback", collected=tmp_path / "collected")
    with (tmp_path / "exports" / "canvas_grades.csv").open(newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[2][:2] == ["Ana Silva", "1001"] and rows[2][-1] == "5"
