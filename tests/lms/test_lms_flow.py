"""collect -> grade -> export, end to end: a Canvas download and a Moodle download of the same class."""

from __future__ import annotations

import csv
import zipfile

import pytest

from autograder import grade
from autograder.lms.collect import collect
from autograder.lms.export import export
from autograder.lms.roster import Roster
from autograder.sandbox import sandbox_available
from tests.conftest import SAMPLE_CLASS_LIMITS
from tests.lms.downloads import A05, sample, write_zip

T_LATER = (2026, 3, 9, 9, 0, 0)


def _column(path, key_col: int, value_col: int, skip: int = 1) -> dict[str, str]:
    with path.open(newline="") as fh:
        return {row[key_col]: row[value_col] for row in list(csv.reader(fh))[skip:]}


@pytest.mark.slow
def test_canvas_and_moodle_downloads_are_graded_and_exported(tmp_path, canvas_zip, moodle_zip, roster_csv):
    """Late, resubmitted, unknown, stray and corrupt files in; the right students and scores out, in both CSVs."""
    roster = Roster.load(roster_csv)
    for lms, download in (("canvas", canvas_zip), ("moodle", moodle_zip)):
        collect(A05, download, roster, tmp_path / lms / "submitted", tmp_path / lms / "collected")
    notebooks = {lms: {p.parent.parent.name: p.read_bytes()
                       for p in sorted((tmp_path / lms / "submitted").glob(f"*/{A05}/{A05}.ipynb"))}
                 for lms in ("canvas", "moodle")}
    assert sorted(notebooks["canvas"]) == ["ana", "bruno", "chen"]
    assert notebooks["canvas"] == notebooks["moodle"], "both downloads must give the same submissions"

    # Grading depends only on the notebooks, which are the same: grade them once.
    out = tmp_path / "graded"
    args = ["--submissions", str(tmp_path / "canvas" / "submitted"), "--out", str(out), "--assignment", A05,
            "--workers", "1", *SAMPLE_CLASS_LIMITS] + ([] if sandbox_available() else ["--unsandboxed"])
    assert grade.main(args) == 0
    graded = {"db_url": f"sqlite:///{out / 'gradebook.db'}", "results": out / "reports" / "results.json",
              "feedback": out / "feedback"}

    for lms in ("canvas", "moodle"):
        exports = tmp_path / lms / "exports"
        export(roster, exports, collected=tmp_path / lms / "collected", canvas_ids={A05: "4321"}, **graded)
        canvas = _column(exports / "canvas_grades.csv", 1, 5, skip=2)
        moodle = _column(exports / "moodle_grades.csv", 0, 2)
        points = _column(exports / "canvas_grades.csv", 0, 5, skip=1)["Points Possible"]
        # ana: her resubmission (the solution) counts, not her first stub; bruno: a correct alternative.
        assert canvas["1001"] == canvas["1002"] == points, (lms, canvas)
        # chen: a typical mistake loses points; dara: her only file was corrupt, so nothing to import.
        assert 0 < float(canvas["1003"]) < float(points) and canvas["1004"] == "", (lms, canvas)
        assert moodle == {"ana@uni.example": canvas["1001"], "bruno@uni.example": canvas["1002"],
                          "chen@uni.example": canvas["1003"], "dara@uni.example": ""}, (lms, moodle)
        with zipfile.ZipFile(exports / f"{lms}_feedback_{A05}.zip") as zf:
            names = sorted(zf.namelist())
        if lms == "canvas":
            assert names == [f"pereirabruno_LATE_1002_5570_{A05}_feedback.html",
                             f"silvaana_1001_5560_{A05}_feedback.html", f"wongchen_1003_5580_{A05}_feedback.html"]
            feedback = _column(exports / "moodle_grades.csv", 0, 3)
            assert "late" in feedback["bruno@uni.example"] and "late" not in feedback["ana@uni.example"]
        else:
            assert [n.split("/")[0] for n in names] == [f"{n}_assignsubmission_file_" for n in
                                                        ("Ana Silva_301", "Bruno Pereira_302", "Chen Wong_303")]

    # A week later, a late download replaces chen's notebook; exporting before grading it again
    # would send the earlier notebook's score: the export says so, for chen only.
    late = write_zip(tmp_path / "late.zip", [(f"wongchen_LATE_1003_5590_{A05}.ipynb", sample("ana"), T_LATER)])
    collect(A05, late, roster, tmp_path / "canvas" / "submitted", tmp_path / "canvas" / "collected")
    done = export(roster, tmp_path / "canvas" / "exports", collected=tmp_path / "canvas" / "collected", **graded)
    stale = [w for w in done.warnings if "collected again" in w]
    assert len(stale) == 1 and stale[0].startswith(f"chen/{A05}") and "--student chen" in stale[0], done.warnings
