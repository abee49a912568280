"""`make export`: the gradebook into Canvas's and Moodle's CSV imports and feedback uploads."""

from __future__ import annotations

import csv
import json
import zipfile
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from autograder.gradebook import gradebook_url
from autograder.lms.export import Score, _summary, export
from autograder.lms.export import main as export_main
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


# -- the command: which gradebook it reads, and the mistakes it refuses -----------------------------------------
def _gradebook(url: str, scores: dict[str, tuple[int, int]]) -> str:
    """A gradebook at ``url`` with assignment A (two test cells of 5 points) and these students' two scores."""
    with Gradebook(url, COURSE) as gb:
        gb.add_assignment(A)
        gb.add_notebook(A, A)
        for cell in ("t1", "t2"):
            gb.add_grade_cell(cell, A, A, max_score=5, cell_type="code")
        for student, (s1, s2) in scores.items():
            gb.add_student(student)
            gb.add_submission(A, student)
            gb.find_grade("t1", A, A, student).auto_score = s1
            gb.find_grade("t2", A, A, student).auto_score = s2
        gb.db.commit()
    return url


def _main(capsys, *args) -> tuple[int, str, str]:
    code = export_main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_db_url_is_read_as_make_grade_reads_it(monkeypatch, tmp_path, roster_csv):
    """--db takes the URL `make grade --db` takes, through the same gradebook_url; it wins over --out's SQLite file."""
    from autograder.lms import export as export_module

    seen = {}
    monkeypatch.setattr(export_module, "export", lambda roster, out, **kw: seen.update(kw) or export_module.Export())
    for given in ("postgresql://grader:secret@db.example:5432/gradebook", "postgres://grader@db.example/gradebook"):
        assert export_main(["--roster", str(roster_csv), "--out", str(tmp_path), "--db", given]) == 0
        assert seen["db_url"] == gradebook_url(given) and seen["db_url"].startswith("postgresql+psycopg2://")
        assert seen["feedback"] == tmp_path / "feedback"  # --out still names the results and feedback


@pytest.mark.slow
def test_export_reads_a_postgresql_gradebook(pg, tmp_path, roster_csv, capsys):
    """`make export EXPORT_ARGS="--db postgresql://..."` exports the grades `make grade --db` wrote there."""
    url = _gradebook(pg.create_database("graded"), {"ana": (5, 3), "chen": (1, 1)})
    plain = url.replace("postgresql+psycopg2://", "postgresql://")  # as the instructor types it
    code, out, err = _main(capsys, "--roster", roster_csv, "--db", plain, "--out", tmp_path / "output",
                           "--exports", tmp_path / "exports", "--collected", tmp_path / "collected")
    assert code == 0, err
    rows = _rows(tmp_path / "exports" / "canvas_grades.csv")
    assert [(r[0], r[5]) for r in rows[1:]] == [("Points Possible", "10"), ("Ana Silva", "8"), ("Bruno Pereira", ""),
                                                ("Chen Wong", "2"), ("Dara Okafor", "")]
    # A database that `make grade` never wrote into is no gradebook: the export says so and leaves it empty.
    empty = pg.create_database("empty")
    code, _, err = _main(capsys, "--roster", roster_csv, "--db", empty, "--exports", tmp_path / "again")
    assert code == 2 and "make grade" in err and "not an nbgrader gradebook" in err, err
    assert not (tmp_path / "again").exists()
    from sqlalchemy import create_engine, inspect

    engine = create_engine(empty)
    assert inspect(engine).get_table_names() == [], "reading must not create the gradebook's tables"
    engine.dispose()


def test_export_before_grading_fails_and_creates_no_gradebook(tmp_path, roster_csv, capsys):
    """An --out folder that was never graded: exit 2, say to grade first, write nothing (no empty gradebook.db)."""
    output = tmp_path / "output"
    output.mkdir()
    code, out, err = _main(capsys, "--roster", roster_csv, "--out", output, "--exports", tmp_path / "exports",
                           "--collected", tmp_path / "collected")
    assert code == 2, (out, err)
    assert "no gradebook" in err and "make grade" in err, err
    assert not (output / "gradebook.db").exists(), "reading must never create a gradebook"
    assert not (tmp_path / "exports").exists(), "nothing is exported"
    # A gradebook with nothing graded (the empty one an earlier export created) is refused the same way.
    Gradebook(f"sqlite:///{output / 'gradebook.db'}", COURSE).close()
    code, _, err = _main(capsys, "--roster", roster_csv, "--out", output, "--exports", tmp_path / "exports")
    assert code == 2 and "no graded assignment" in err and "make grade" in err, err
    assert not (tmp_path / "exports").exists()


def test_unknown_assignment_and_canvas_id_are_refused(graded, tmp_path, roster_csv, capsys):
    """A typo in --assignment or --canvas-id: exit 2 naming the graded assignments, nothing written."""
    common = ["--roster", roster_csv, "--out", tmp_path, "--exports", tmp_path / "again",
              "--collected", tmp_path / "collected"]
    code, _, err = _main(capsys, *common, "--assignment", "05_retry")
    assert code == 2 and "05_retry" in err and A in err, err
    code, _, err = _main(capsys, *common, "--assignment", "05_retry_with_backoff")  # in the course, not graded
    assert code == 2 and "not graded yet" in err and 'GRADE_ARGS="--assignment 05_retry_with_backoff"' in err, err
    code, _, err = _main(capsys, *common, "--canvas-id", "05_retry=1")
    assert code == 2 and "--canvas-id 05_retry=1" in err and A in err, err
    assert not (tmp_path / "again").exists()
    code, out, err = _main(capsys, *common, "--assignment", A, "--canvas-id", f"{A}=4321")
    assert code == 0, err
    assert _rows(tmp_path / "again" / "canvas_grades.csv")[0][-1] == f"{A} (4321)"


def test_graded_but_not_collected_is_listed_to_send_by_hand(tmp_path, roster_csv):
    """dara is in the roster and graded, but did not come through `make collect`: the export names her."""
    url = _gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}", {"ana": (5, 5), "chen": (5, 0), "dara": (2, 2)})
    collected = tmp_path / "collected"
    (collected / A).mkdir(parents=True)
    (collected / A / "manifest.json").write_text(json.dumps({"assignment": A, "rejected": [], "students": {
        "ana": {"lms": "canvas", "lms_prefix": "silvaana_1001_5560_", "late": False},
        "chen": {"lms": "moodle", "lms_prefix": "Chen Wong_303_assignsubmission_file_", "late": False}}}))
    feedback = tmp_path / "feedback"
    for student in ("ana", "chen", "dara"):
        (feedback / student / A).mkdir(parents=True)
        (feedback / student / A / f"{A}.html").write_text(f"<p>{student}</p>")
    done = export(Roster.load(roster_csv), tmp_path / "exports", db_url=url, course_id=COURSE,
                  results=tmp_path / "results.json", feedback=feedback, collected=collected)
    by_hand = [w for w in done.warnings if "not collected" in w]
    assert len(by_hand) == 1 and "dara" in by_hand[0] and "by hand" in by_hand[0], done.warnings
    assert not any(name in by_hand[0] for name in ("ana", "chen", "bruno")), by_hand  # collected, or not graded
    assert str(feedback) in by_hand[0]


def test_csvs_keep_the_roster_files_order(graded, tmp_path, capsys):
    """The roster file's order, not sorted by student id: the instructor's list, as the docs say."""
    roster = tmp_path / "by_section.csv"
    with roster.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["student_id", "lms_id", "name", "email"])
        w.writerows([("dara", "1004", "Dara Okafor", "dara@uni.example"),
                     ("chen", "1003", "Chen Wong", "chen@uni.example"),
                     ("ana", "1001", "Ana Silva", "ana@uni.example"),
                     ("bruno", "1002", "Bruno Pereira", "bruno@uni.example")])
    code, _, err = _main(capsys, "--roster", roster, "--out", tmp_path, "--exports", tmp_path / "ordered",
                         "--collected", tmp_path / "collected")
    assert code == 0, err
    order = ["Dara Okafor", "Chen Wong", "Ana Silva", "Bruno Pereira"]
    assert [r[0] for r in _rows(tmp_path / "ordered" / "canvas_grades.csv")[2:]] == order
    assert [r[1] for r in _rows(tmp_path / "ordered" / "moodle_grades.csv")[1:]] == order
