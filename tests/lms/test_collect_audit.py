"""`make collect` after the instructors' audit: Spanish editions, Moodle names before ids, downloads kept, messages."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from autograder.course import ROOT, SOLUTIONS
from autograder.lms.collect import CollectError, assignment_ids, collect, download_id, main, which_assignment
from autograder.lms.roster import Roster

from tests.lms.downloads import A04, A05, T_NEW, T_OLD, sample, write_zip

SPANISH = ["04_validate_then_execute_es", "05_retry_with_backoff_es", "06_fallback_and_degradation_es",
           "07_safe_agent_loop_es"]


def _args(tmp_path, assignment, download, roster=None):
    return [assignment, str(download), "--submitted", str(tmp_path / "submitted"),
            "--collected", str(tmp_path / "collected")] + (["--roster", str(roster)] if roster else [])


@pytest.mark.parametrize("assignment", SPANISH)
def test_a_spanish_notebook_is_collected_under_its_spanish_assignment(tmp_path, assignment):
    """The editions share their cell ids: the requested `_es` assignment wins the tie, nothing is set aside."""
    download = write_zip(tmp_path / "submissions.zip", [
        (f"garciasofia_1005_6001_{assignment}.ipynb", sample("sofia", assignment), T_NEW)])
    manifest = collect(assignment, download, None, tmp_path / "submitted", tmp_path / "collected")
    assert manifest["rejected"] == []
    assert (tmp_path / "submitted" / "garciasofia" / assignment / f"{assignment}.ipynb").read_bytes() == \
        sample("sofia", assignment)
    assert manifest["students"]["garciasofia"]["note"] == ""


def test_the_other_edition_is_set_aside_saying_how_to_collect_it(tmp_path, capsys):
    """An English notebook in a download collected for the Spanish assignment is set aside with the command that
    collects it (and the other way round): collected once per edition, the zip puts each notebook in its own."""
    a05_es = f"{A04}_es"
    download = write_zip(tmp_path / "submissions.zip", [
        (f"garciasofia_1005_6001_{a05_es}.ipynb", sample("sofia", a05_es), T_NEW),
        (f"silvaana_1001_6002_{A04}.ipynb", sample("ana", A04), T_NEW),                       # English edition
        ("garciasofia_1005_6003_04_validate_then_execute_es.ipynb",
         sample("sofia", "04_validate_then_execute_es"), T_NEW),                                # another assignment
    ])
    assert main(_args(tmp_path, a05_es, download)) == 0
    out = capsys.readouterr().out
    assert "Collected 1 submission(s)" in out
    assert f"silvaana_1001_6002_{A04}.ipynb: the English edition's notebook ({A04}): collect this download again " \
           f"with ASSIGNMENT={A04}" in out
    assert "garciasofia_1005_6003_04_validate_then_execute_es.ipynb: a notebook of another assignment " \
           "(04_validate_then_execute_es)" in out
    manifest = collect(A04, download, None, tmp_path / "submitted", tmp_path / "collected")
    assert sorted(manifest["students"]) == ["silvaana"]
    reasons = {r["file"]: r["reason"] for r in manifest["rejected"]}
    assert reasons[f"garciasofia_1005_6001_{a05_es}.ipynb"].startswith(
        f"the Spanish edition's notebook ({a05_es}): collect this download again with ASSIGNMENT={a05_es}")
    assert sorted(p.relative_to(tmp_path / "submitted").as_posix()
                  for p in (tmp_path / "submitted").glob("*/*/*.ipynb")) == [
        f"garciasofia/{a05_es}/{a05_es}.ipynb", f"silvaana/{A04}/{A04}.ipynb"]


def test_without_other_signs_the_file_name_tells_the_edition(tmp_path):
    """A notebook stripped of its translation metadata and use_language call: its `_es` file name decides."""
    notebook = json.loads(sample("sofia", "05_retry_with_backoff_es"))
    for cell in notebook["cells"]:
        cell["metadata"].pop("translation", None)
        if cell["cell_type"] == "code":
            cell["source"] = "".join(cell["source"]).replace('use_language("es")', "")
    known = assignment_ids(SOLUTIONS)
    for name, expected in (("hw_05_retry_with_backoff_es-1.ipynb", "05_retry_with_backoff_es"),
                           ("hw.ipynb", "05_retry_with_backoff")):
        (tmp_path / name).write_text(json.dumps(notebook))
        assert which_assignment(tmp_path / name, known, A05) == (expected, "")


def test_moodle_folder_is_matched_by_full_name_before_its_id(tmp_path, roster_csv):
    """A Moodle folder whose name is Ana's and whose id is Bruno's is set aside naming both, not given to Bruno;
    a name that is in no row of the roster falls back to the id, with a note."""
    folder = "{}_{}_assignsubmission_file_/"
    download = write_zip(tmp_path / "moodle.zip", [
        (folder.format("Ana Silva", 1002) + f"{A05}.ipynb", sample("ana"), T_NEW),
        (folder.format("Chen W", 1003) + f"{A05}.ipynb", sample("chen"), T_NEW),
        (folder.format("Dara Okafor", 1777) + f"{A05}.ipynb", sample("dara"), T_NEW),
    ])
    manifest = collect(A05, download, Roster.load(roster_csv), tmp_path / "submitted", tmp_path / "collected")
    assert sorted(manifest["students"]) == ["chen", "dara"]
    assert not (tmp_path / "submitted" / "bruno").exists()
    [rejected] = manifest["rejected"]
    assert rejected["file"] == f"Ana Silva_1002_assignsubmission_file_/{A05}.ipynb"
    assert "ana's (Ana Silva)" in rejected["reason"] and "bruno's (Bruno Pereira)" in rejected["reason"]
    assert "matched by its id 1003" in manifest["students"]["chen"]["note"]
    assert manifest["students"]["dara"]["note"] == ""


def test_every_download_keeps_its_files_and_the_manifest_lists_only_what_is_on_disk(
        tmp_path, canvas_zip, moodle_zip, roster_csv):
    """Canvas, a late Canvas download with the same name, then Moodle: each keeps its zip and its set-aside files."""
    (tmp_path / "late").mkdir()
    late = write_zip(tmp_path / "late" / "submissions.zip", [
        (f"okafordara_LATE_1004_5600_{A05}.ipynb", sample("dara"), T_NEW),
        ("okafordara_1004_5601_scratch.txt", b"scratch", T_OLD),
    ])
    roster = Roster.load(roster_csv)
    for download in (canvas_zip, late, moodle_zip):
        manifest = collect(A05, download, roster, tmp_path / "submitted", tmp_path / "collected")
    workdir = tmp_path / "collected" / A05
    ids = {download_id(d) for d in (canvas_zip, late, moodle_zip)}
    assert len(ids) == 3 and {p.name for p in (workdir / "download").iterdir()} == ids
    for download in (canvas_zip, late, moodle_zip):
        assert (workdir / "download" / download_id(download) / download.name).read_bytes() == download.read_bytes()
    assert {r["download_id"] for r in manifest["rejected"]} == ids
    assert (workdir / "rejected" / download_id(canvas_zip) / "silvaana_1001_5561_notes.txt").read_bytes() == b"my notes"
    copies = {r["copy"] for r in manifest["rejected"] if r["copy"]}
    assert copies == {p.relative_to(workdir).as_posix() for p in (workdir / "rejected").rglob("*") if p.is_file()}
    assert [r["file"] for r in manifest["rejected"] if not r["copy"]] == [f"okafordara_1004_5590_{A05}.ipynb"]
    assert manifest["students"]["dara"]["late"] and manifest["students"]["dara"]["download_id"] == download_id(late)


def test_a_missing_zip_is_named_as_missing(tmp_path, capsys):
    with pytest.raises(CollectError, match="no such file"):
        collect(A05, tmp_path / "nowhere.zip", None, tmp_path / "s", tmp_path / "c")
    assert main(_args(tmp_path, A05, tmp_path / "nowhere.zip")) == 1
    assert "no such file" in capsys.readouterr().err


def test_a_zip_of_plain_folders_says_which_naming_was_expected_and_fails(tmp_path, capsys):
    download = write_zip(tmp_path / "repacked.zip", [
        (f"ana/{A05}.ipynb", sample("ana"), T_NEW), (f"bruno/{A05}.ipynb", sample("bruno"), T_NEW)])
    assert main(_args(tmp_path, A05, download)) == 1
    captured = capsys.readouterr()
    assert "Collected 0" in captured.out and "Set aside 2 file(s)" in captured.out
    assert "nothing collected" in captured.err
    assert "Canvas's (<login>_<user id>_<attachment id>_<file>)" in captured.err
    assert "Moodle's (<Full Name>_<participant id>_assignsubmission_file_/<file>)" in captured.err


def test_command_line_prints_each_file_set_aside_once_and_counts_what_was_not_copied(tmp_path, canvas_zip, roster_csv):
    """`make collect`'s output: one line per file set aside, and the corrupt entry counted as not copied."""
    command = [sys.executable, "-m", "autograder.lms.collect", *_args(tmp_path, A05, canvas_zip, roster_csv)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    said = done.stdout + done.stderr
    manifest = json.loads((tmp_path / "collected" / A05 / "manifest.json").read_text())
    for r in manifest["rejected"]:
        assert said.count(f"{r['file']}: {r['reason']}") == 1, (r["file"], said)
    assert "Set aside 4 file(s) (1 not copied: corrupt), see " in done.stdout
