"""`make export`: the gradebook into Canvas's and Moodle's CSV imports and feedback uploads."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from autograder.lms.export import Score, _summary, export
from autograder.lms.roster import Roster

A = "06_fallback_and_degradation"
# nbgrader's add_submission warns about its own session handling while the fixture builds the gradebook.
pytestmark = pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SAWarning")
COURSE = "toolcalling-errors"


@pytest.fixture
def graded(tmp_path, roster_csv):
    """A gradebook with two test cells (5 + 5 points): ana 8, chen 2 with a manual 4 on one cell, zoe (not in the roster)."""
    url = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(url, COURSE) as gb:
        gb.add_assignment(A)
        gb.add_notebook(A, A)
        for cell in ("t1", "t2"):
            gb.add_grade_cell(cell, A, A, max_score=5, cell_type="code")
        for student, (s1, s2) in {"ana": (5, 3), "chen": (1, 1), "zoe": (5, 5)}.items():
            gb.add_student(student)
            gb.add_submission(A, student)
            gb.find_grade("t1", A, A, student).auto_score = s1
            gb.find_grade("t2", A, A, student).auto_score = s2
        gb.find_grade("t2", A, A, "chen").manual_score = 4  # the instructor's review
        gb.db.commit()
    feedback = tmp_path / "feedback"
    for student in ("ana", "chen", "zoe"):
        (feedback / student / A).mkdir(parents=True)
        (feedback / student / A / f"{A}.html").write_text(f"<p>feedback for {student}</p>")
    collected = tmp_path / "collected"
    (collected / A).mkdir(parents=True)
    (collected / A / "manifest.json").write_text(json.dumps({"assignment": A, "rejected": [], "students": {
        "ana": {"lms": "canvas", "lms_prefix": "silvaana_1001_5560_", "late": False},
        "chen": {"lms": "moodle", "lms_prefix": "Chen Wong_303_assignsubmission_file_", "late": True},
    }}))
    results = tmp_path / "results.json"
    results.write_text(json.dumps([{"student": "chen", "assignment": A, "status": "needs attention",
                                    "problems": [{"kind": "timeout", "text": "the notebook ran out of time"}]}]))
    done = export(Roster.load(roster_csv), tmp_path / "exports", db_url=url, course_id=COURSE, results=results,
                  feedback=feedback, collected=collected, canvas_ids={A: "4321"})
    return tmp_path / "exports", done


def _rows(path: Path) -> list[list[str]]:
    with path.open(newline="") as fh:
        return list(csv.reader(fh))


def test_canvas_gradebook_csv(graded):
    """Canvas's import columns, a Points Possible row, the roster's order, manual scores win, blanks for no submission."""
    out, _ = graded
    rows = _rows(out / "canvas_grades.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", f"{A} (4321)"]
    assert rows[1] == ["Points Possible", "", "", "", "", "10"]
    assert rows[2:] == [["Ana Silva", "1001", "S-01", "asilva", "A", "8"],
                        ["Bruno Pereira", "1002", "S-02", "bpereira", "A", ""],
                        ["Chen Wong", "1003", "S-03", "cwong", "B", "5"],
                        ["Dara Okafor", "1004", "S-04", "dokafor", "B", ""]]


def test_moodle_grade_import_csv(graded):
    """Moodle's CSV import: email to match, a grade column and a feedback column per assignment."""
    out, _ = graded
    rows = _rows(out / "moodle_grades.csv")
    assert rows[0] == ["Email address", "Full name", A, f"Feedback: {A}"]
    by_email = {r[0]: r for r in rows[1:]}
    assert by_email["ana@uni.example"][2] == "8" and by_email["bruno@uni.example"][2] == ""
    chen = by_email["chen@uni.example"]
    assert chen[2] == "5" and "Reviewed by your instructor" in chen[3] and "late" in chen[3]


def test_feedback_zips_use_each_lms_names(graded):
    """Canvas: the downloaded file's prefix (user and attachment ids); Moodle: the download's folder."""
    out, done = graded
    with zipfile.ZipFile(out / f"canvas_feedback_{A}.zip") as zf:
        assert zf.namelist() == [f"silvaana_1001_5560_{A}_feedback.html"]
        assert zf.read(zf.namelist()[0]) == b"<p>feedback for ana</p>"
    with zipfile.ZipFile(out / f"moodle_feedback_{A}.zip") as zf:
        assert zf.namelist() == [f"Chen Wong_303_assignsubmission_file_/{A}_feedback.html"]
    assert any("zoe" in w and "not in the roster" in w for w in done.warnings)
    assert any("chen" in w and "needs attention" in w for w in done.warnings)


def test_export_twice_gives_the_same_bytes(graded, roster_csv, tmp_path):
    """Exporting again writes identical files (the zips' entry times are fixed)."""
    out, done = graded
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    export(Roster.load(roster_csv), out, db_url=f"sqlite:///{tmp_path / 'gradebook.db'}", course_id=COURSE,
           results=tmp_path / "results.json", feedback=tmp_path / "feedback", collected=tmp_path / "collected",
           canvas_ids={A: "4321"})
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_the_moodle_feedback_column_speaks_the_assignments_language():
    """A Spanish-edition assignment's feedback cell is in Spanish, the English one's in English."""
    attention = Score(3, 4, status="needs attention")
    assert _summary(attention, True, "05_retry_with_backoff_es") == (
        "Corregido automáticamente: 3 / 4. Entregado tarde. Tu profesor revisará esta entrega.")
    assert _summary(attention, True, "05_retry_with_backoff") == (
        "Auto-graded: 3 / 4. Handed in late. Your instructor will look at this submission.")
    assert _summary(Score(None, 4), False, "05_retry_with_backoff_es") == ""
