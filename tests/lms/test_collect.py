"""`make collect`: Canvas and Moodle downloads into submitted/<student>/<assignment>/, nothing dropped silently."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.course import ROOT
from autograder.lms.collect import CANVAS, MOODLE, CollectError, collect, download_id
from autograder.lms.roster import Roster, RosterError

from tests.lms.downloads import A05, sample


def _tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(tmp_path, download, roster_csv):
    return collect(A05, download, Roster.load(roster_csv), tmp_path / "submitted", tmp_path / "collected")


def test_lms_file_names_match_nbgrader_named_groups():
    """The collectors' expressions give nbgrader's student_id and file_id groups for each LMS's names."""
    m = CANVAS.match("smithjane_LATE_4242_998877_hw 1-2.ipynb")
    assert m and m["student_id"] == "4242" and m["late"] and m["file_id"] == "hw 1-2.ipynb"
    assert CANVAS.match("smithjane_4242_998877_hw.ipynb")["late"] is None
    m = MOODLE.match("Jane van Smith_77_assignsubmission_file_/sub/hw.ipynb")
    assert m and m["student_id"] == "77" and m["name"] == "Jane van Smith" and m["file_id"] == "hw.ipynb"
    assert MOODLE.match("Jane Smith_77_assignsubmission_file/hw.ipynb"), "Moodle 4.1+ folder names (no last _)"
    assert not CANVAS.match("Jane Smith_77_assignsubmission_file_/hw.ipynb")


def test_canvas_download(tmp_path, canvas_zip, roster_csv):
    """Canvas: newest submission wins, LATE is marked, every other file is set aside with its reason."""
    manifest = _run(tmp_path, canvas_zip, roster_csv)
    sub = tmp_path / "submitted"
    assert sorted(p.name for p in sub.iterdir()) == ["ana", "bruno", "chen"]
    assert (sub / "ana" / A05 / f"{A05}.ipynb").read_bytes() == sample("ana"), "the newer file must win"
    assert (sub / "bruno" / A05 / f"{A05}.ipynb").read_bytes() == sample("bruno")
    assert sorted(p.name for p in (sub / "ana" / A05).iterdir()) == [f"{A05}.ipynb", "timestamp.txt"]
    assert (sub / "ana" / A05 / "timestamp.txt").read_text().startswith("2026-03-02 18:30:00")
    students = manifest["students"]
    assert students["bruno"]["late"] is True and students["ana"]["late"] is False
    assert students["ana"]["replaced"] == [f"silvaana_1001_5551_{A05}.ipynb"]
    assert students["ana"]["lms_prefix"] == "silvaana_1001_5560_"
    reasons = {r["file"]: r["reason"] for r in manifest["rejected"]}
    assert set(reasons) == {"silvaana_1001_5561_notes.txt", f"wongchen_1003_5581_05_retry_with_backoff.ipynb",
                            f"okafordara_1004_5590_{A05}.ipynb", f"nobodyknown_1999_5599_{A05}.ipynb"}
    assert "not a notebook" in reasons["silvaana_1001_5561_notes.txt"]
    assert "another assignment (05_retry_with_backoff)" in reasons["wongchen_1003_5581_05_retry_with_backoff.ipynb"]
    assert "corrupt" in reasons[f"okafordara_1004_5590_{A05}.ipynb"]
    assert "not in the roster" in reasons[f"nobodyknown_1999_5599_{A05}.ipynb"]
    rejected = tmp_path / "collected" / A05 / "rejected" / download_id(canvas_zip)
    assert (rejected / "silvaana_1001_5561_notes.txt").read_bytes() == b"my notes", "set aside, not dropped"
    assert (rejected / f"nobodyknown_1999_5599_{A05}.ipynb").is_file()
    assert (tmp_path / "collected" / A05 / "download" / download_id(canvas_zip) / canvas_zip.name).is_file(), \
        "the download is kept"


def test_moodle_download(tmp_path, moodle_zip, roster_csv):
    """Moodle: folders matched to the roster by full name, newest file wins, stray and unknown set aside."""
    manifest = _run(tmp_path, moodle_zip, roster_csv)
    sub = tmp_path / "submitted"
    assert sorted(p.name for p in sub.iterdir()) == ["ana", "bruno", "chen"]
    assert (sub / "ana" / A05 / f"{A05}.ipynb").read_bytes() == sample("ana")
    assert manifest["students"]["ana"]["lms_prefix"] == "Ana Silva_301_assignsubmission_file_"
    assert manifest["students"]["chen"]["lms"] == "moodle"
    reasons = {r["file"]: r["reason"] for r in manifest["rejected"]}
    assert set(reasons) == {"Chen Wong_303_assignsubmission_file_/readme.txt",
                            f"Zed Unknown_399_assignsubmission_file_/{A05}.ipynb"}
    assert "Zed Unknown" in reasons[f"Zed Unknown_399_assignsubmission_file_/{A05}.ipynb"]


def test_collecting_twice_changes_nothing(tmp_path, canvas_zip, roster_csv):
    """The same download collected again gives the same files, manifest and set-aside files."""
    _run(tmp_path, canvas_zip, roster_csv)
    first = {**_tree(tmp_path / "submitted"), **_tree(tmp_path / "collected")}
    _run(tmp_path, canvas_zip, roster_csv)
    assert {**_tree(tmp_path / "submitted"), **_tree(tmp_path / "collected")} == first


def test_an_older_download_does_not_replace_a_newer_collection_of_others(tmp_path, canvas_zip, moodle_zip, roster_csv):
    """A second download updates the students it holds; the manifest keeps the others' entries."""
    _run(tmp_path, canvas_zip, roster_csv)
    manifest = _run(tmp_path, moodle_zip, roster_csv)
    assert manifest["students"]["bruno"]["lms"] == "moodle"
    assert {r["download"] for r in manifest["rejected"]} == {canvas_zip.name, moodle_zip.name}


def test_without_roster_lms_names_are_the_ids(tmp_path, moodle_zip):
    """Without a roster, Canvas logins and Moodle full names become the student ids (nobody is unknown)."""
    collect(A05, moodle_zip, None, tmp_path / "submitted", tmp_path / "collected")
    assert sorted(p.name for p in (tmp_path / "submitted").iterdir()) == ["ana_silva", "bruno_pereira",
                                                                          "chen_wong", "zed_unknown"]


def test_refuses_what_it_cannot_collect(tmp_path, roster_csv):
    """Not a zip, an unknown assignment, a roster without the required columns: a clear error."""
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip")
    with pytest.raises(CollectError, match="not a zip"):
        collect(A05, junk, None, tmp_path / "s", tmp_path / "c")
    with pytest.raises(CollectError, match="not an assignment"):
        collect("99_nothing", junk, None, tmp_path / "s", tmp_path / "c")
    bad = tmp_path / "bad.csv"
    bad.write_text("student_id,name\nana,Ana\n")
    with pytest.raises(RosterError, match="lms_id"):
        Roster.load(bad)


def test_command_line_reports_what_was_set_aside(tmp_path, canvas_zip, roster_csv):
    """`python -m autograder.lms.collect` (what `make collect` runs) says what it collected and set aside."""
    done = subprocess.run([sys.executable, "-m", "autograder.lms.collect", A05, str(canvas_zip), "--roster",
                           str(roster_csv), "--submitted", str(tmp_path / "s"), "--collected", str(tmp_path / "c")],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Collected 3 submission(s)" in done.stdout and "late: bruno" in done.stdout
    assert "Set aside 4 file(s)" in done.stdout and "not in the roster" in done.stdout
