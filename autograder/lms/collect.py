"""An LMS download into ``autograder/submitted/`` (what `make collect` runs), on nbgrader's ``zip_collect``.

    python -m autograder.lms.collect ASSIGNMENT DOWNLOAD.zip [--roster roster.csv]

Canvas ("Download Submissions") and Moodle ("Download all submissions") both hand the
instructor one zip, with file names of their own:

    Canvas   <login>_<user id>_<attachment id>_<file name>            e.g. silvaana_1001_5551_hw.ipynb
             <login>_LATE_<user id>_<attachment id>_<file name>       handed in after the due date
    Moodle   <Full Name>_<participant id>_assignsubmission_file_/<file name>
             (Moodle 4.1 and later leave out the last underscore of the folder name)

nbgrader's :class:`~nbgrader.apps.zipcollectapp.ZipCollectApp` does the work: its
extractor unpacks the download, a file-name collector (a
:class:`~nbgrader.plugins.zipcollect.FileNameCollectorPlugin` with the named-group
regular expressions above) says whose each file is, and nbgrader copies the newest file
of each student to ``submitted/<student_id>/<assignment>/<assignment>.ipynb`` with
nbgrader's ``timestamp.txt`` next to it. Around that:

- the extractor checks every entry of the zip: a corrupt one, or one whose name would
  leave the folder, is set aside instead of stopping the collection;
- the roster maps the LMS's ids to the course's student ids (by full name for Moodle,
  whose participant ids change with each assignment);
- a file that is not a notebook, an unknown student's file, and a notebook of another
  assignment (told apart by the ids nbgrader gave its cells) are set aside, with the
  reason, in ``collected/<assignment>/rejected/``, never dropped silently;
- when a student submitted several times, the newest file wins (the zip entry's time;
  for Canvas, the larger attachment id when the times are equal);
- ``collected/<assignment>/manifest.json`` records, per student, where the notebook came
  from, whether it was late, what it replaced and the LMS's name prefix (the feedback
  upload needs it), and every file set aside. :mod:`autograder.lms.export` reads it.

Collecting the same download twice gives the same files and manifest.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import logging
import os
import re
import shutil
import sys
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import Any

from nbgrader.apps.zipcollectapp import ZipCollectApp
from nbgrader.coursedir import CourseDirectory
from nbgrader.plugins import ExtractorPlugin, FileNameCollectorPlugin
from traitlets.config import Config

from ..course import COLLECTED, EXERCISES, SOLUTIONS, SUBMITTED, assignments
from .roster import Roster

log = logging.getLogger(__name__)

# The two file-name collectors, as nbgrader's named groups (student_id = the LMS's id here;
# the roster turns it into the course's id). Matched against the path inside the zip.
CANVAS = re.compile(r"^(?:.*/)?(?P<prefix>(?P<login>[^/_]+)_(?:(?P<late>LATE)_)?(?P<student_id>\d+)_"
                    r"(?P<attachment_id>\d+)_)(?P<file_id>[^/]+)$")
MOODLE = re.compile(r"^(?:.*/)?(?P<prefix>(?P<name>[^/]+)_(?P<student_id>\d+)_assignsubmission_file_?)/"
                    r"(?:.*/)?(?P<file_id>[^/]+)$")


class CollectError(RuntimeError):
    """The download cannot be collected at all (not a zip, an unknown assignment)."""


def cell_ids(notebook: dict) -> set[str]:
    """The nbgrader ids of a notebook's cells."""
    return {c.get("metadata", {}).get("nbgrader", {}).get("grade_id") for c in notebook.get("cells", [])} - {None}


def assignment_ids(solutions: Path = SOLUTIONS) -> dict[str, set[str]]:
    """assignment -> the nbgrader ids of its source notebook's cells."""
    ids = {}
    for name in assignments(solutions):
        found: set[str] = set()
        for path in (solutions / name).glob("*.ipynb"):
            found |= cell_ids(json.loads(path.read_text(encoding="utf-8")))
        ids[name] = found
    return ids


def which_assignment(path: Path, known: dict[str, set[str]]) -> tuple[str | None, str]:
    """(the assignment a notebook belongs to, or None, why) from the ids of its cells."""
    try:
        notebook = json.loads(Path(path).read_text(encoding="utf-8"))
        ids = cell_ids(notebook) if isinstance(notebook, dict) else set()
    except (ValueError, UnicodeDecodeError):
        return "", "not a readable notebook (collected as it is; grading gives it 0 with the reason)"
    overlap = {name: len(ids & cells) for name, cells in known.items()}
    best = max(overlap, key=lambda n: overlap[n], default=None)
    if not best or not overlap[best]:
        return None, "a notebook with none of the assignments' cells"
    return best, ""


class CheckedExtractor(ExtractorPlugin):
    """nbgrader's extractor, entry by entry: a corrupt or unsafe entry is set aside, the rest unpacked.

    Each file keeps the zip entry's time, so the collector can tell the newest submission.
    """

    def extract(self, archive_path: str, extracted_path: str) -> None:
        for archive in sorted(Path(archive_path).iterdir()):
            if not zipfile.is_zipfile(archive):
                raise CollectError(f"{archive.name} is not a zip file")
            with zipfile.ZipFile(archive) as zf:
                for info in zf.infolist():
                    if info.is_dir():
                        continue
                    name = PurePosixPath(info.filename)
                    if name.is_absolute() or ".." in name.parts:
                        self.parent.set_aside(info.filename, "a path that leaves the download's folder")
                        continue
                    try:
                        data = zf.read(info)
                    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as err:
                        self.parent.set_aside(info.filename, f"corrupt in the zip ({err})")
                        continue
                    target = Path(extracted_path, *name.parts)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
                    when = dt.datetime(*info.date_time).timestamp()
                    os.utime(target, (when, when))


class LmsCollector(FileNameCollectorPlugin):
    """nbgrader's file-name collector for Canvas's and Moodle's names, checked against the roster."""

    def collect(self, submitted_file: str) -> dict | None:
        app: LmsZipCollect = self.parent
        rel = Path(submitted_file).relative_to(app.extracted).as_posix()
        if Path(rel).suffix != ".ipynb":
            return app.set_aside(rel, "not a notebook", submitted_file)
        for lms, pattern in (("canvas", CANVAS), ("moodle", MOODLE)):
            self.named_regexp = pattern.pattern
            info = self._match(rel)
            if info:
                break
        else:
            return app.set_aside(rel, "a file name that is neither Canvas's nor Moodle's", submitted_file)
        lms_id, name = info["student_id"], (info.get("name") or "").replace("_", " ")
        if app.roster:
            student = app.roster.find(lms_id, name if lms == "moodle" else None)
            if not student:
                who = f"LMS id {lms_id}" + (f", {name}" if name else "")
                return app.set_aside(rel, f"a student who is not in the roster ({who})", submitted_file)
            student_id = student.student_id
        else:
            student_id = info.get("login") or re.sub(r"\W+", "_", name.lower()).strip("_")
        belongs, why = which_assignment(Path(submitted_file), app.known)
        if belongs is None:
            return app.set_aside(rel, why, submitted_file)
        if belongs and belongs != app.assignment:
            return app.set_aside(rel, f"a notebook of another assignment ({belongs})", submitted_file)
        mtime = dt.datetime.fromtimestamp(Path(submitted_file).stat().st_mtime)
        # Zip times have a 2-second grain; Canvas's attachment ids grow with each upload, so
        # they order submissions of the same time (as microseconds nobody else reads).
        stamp = mtime + dt.timedelta(microseconds=int(info.get("attachment_id") or 0) % 1_000_000)
        app.candidates.setdefault(student_id, []).append({
            "file": rel, "lms": lms, "lms_id": lms_id, "late": bool(info.get("late")),
            "prefix": info["prefix"], "original_name": info["file_id"], "timestamp": stamp.isoformat(" "),
            "sha256": hashlib.sha256(Path(submitted_file).read_bytes()).hexdigest(), "note": why,
        })
        return {"student_id": student_id, "file_id": f"{app.assignment}.ipynb", "timestamp": stamp.isoformat(" ")}


class LmsZipCollect(ZipCollectApp):
    """nbgrader's ``zip_collect``, with the set-aside files and the candidates it saw kept as data."""

    def setup(self, assignment: str, roster: Roster | None, workdir: Path, known: dict[str, set[str]]) -> None:
        self.assignment, self.roster, self.workdir, self.known = assignment, roster, workdir, known
        self.extracted = workdir / self.extracted_directory
        self.rejected: list[dict[str, str]] = []
        self.candidates: dict[str, list[dict[str, Any]]] = {}

    def set_aside(self, rel: str, reason: str, path: str | None = None) -> None:
        """Record a file that is not collected, and keep a copy of it under ``rejected/``."""
        self.rejected.append({"file": rel, "reason": reason})
        log.warning("set aside %s: %s", rel, reason)
        if path:
            dest = self.workdir / "rejected" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
        return None

    def fail(self, msg: str, *args: Any) -> None:
        raise CollectError(msg % args if args else msg)


def collect(assignment: str, download: Path, roster: Roster | None = None, submitted: Path = SUBMITTED,
            collected: Path = COLLECTED, release: Path = EXERCISES, solutions: Path = SOLUTIONS) -> dict[str, Any]:
    """Collect an LMS download of ``assignment`` into ``submitted``; returns the manifest (also written).

    Args:
        assignment: the assignment's id (a folder of ``solutions/``).
        download: the LMS's zip.
        roster: maps LMS ids to student ids; without one, Canvas logins and Moodle names are the ids.
    Raises:
        CollectError: an unknown assignment, or a download that is not a zip.
    """
    known = assignment_ids(solutions)
    if assignment not in known:
        raise CollectError(f"{assignment!r} is not an assignment of this course ({', '.join(sorted(known))})")
    download = Path(download).resolve()
    if not zipfile.is_zipfile(download):
        raise CollectError(f"{download} is not a zip file (download the submissions from the LMS as one zip)")
    workdir = Path(collected) / assignment
    archive = workdir / "download"
    shutil.rmtree(archive, ignore_errors=True)
    shutil.rmtree(workdir / "rejected", ignore_errors=True)
    archive.mkdir(parents=True)
    shutil.copy2(download, archive / download.name)

    config = Config()
    config.CourseDirectory.root = str(Path(collected).resolve())
    config.CourseDirectory.submitted_directory = str(Path(submitted).resolve())
    config.CourseDirectory.release_directory = str(Path(release).resolve())
    config.ZipCollectApp.collect_directory_structure = os.path.join("{assignment_id}", "{collect_step}")
    config.ZipCollectApp.archive_directory = "download"
    config.ZipCollectApp.extracted_directory = "extracted"
    config.ZipCollectApp.force = True  # a newer collection replaces a student's older one
    config.ZipCollectApp.extractor_plugin = CheckedExtractor
    config.ZipCollectApp.collector_plugin = LmsCollector
    # nbgrader logs every file it looks at; what was set aside is reported here instead.
    config.Application.log_level = "INFO" if log.isEnabledFor(logging.INFO) else "ERROR"
    app = LmsZipCollect(config=config)
    app.coursedir = CourseDirectory(config=config)
    app.coursedir.assignment_id = assignment
    app.setup(assignment, roster, workdir, known)
    app.init_plugins()
    app.extract_archive_files()
    app.process_extracted_files()
    shutil.rmtree(app.extracted, ignore_errors=True)
    return _write_manifest(app, download.name, Path(submitted))


def _write_manifest(app: LmsZipCollect, download: str, submitted: Path) -> dict[str, Any]:
    path = app.workdir / "manifest.json"
    previous = json.loads(path.read_text()) if path.exists() else {}
    students = previous.get("students", {})
    for student_id, candidates in sorted(app.candidates.items()):
        notebook = submitted / student_id / app.assignment / f"{app.assignment}.ipynb"
        digest = hashlib.sha256(notebook.read_bytes()).hexdigest() if notebook.exists() else None
        won = [c for c in candidates if c["sha256"] == digest]
        chosen = max(won or candidates, key=lambda c: c["timestamp"])
        others = sorted(c["file"] for c in candidates if c is not chosen)
        students[student_id] = {
            "download": download, "file": chosen["file"], "lms": chosen["lms"], "lms_id": chosen["lms_id"],
            "late": chosen["late"], "timestamp": chosen["timestamp"], "lms_prefix": chosen["prefix"],
            "original_name": chosen["original_name"], "replaced": others, "note": chosen["note"],
        }
    rejected = {r["file"]: r for r in previous.get("rejected", []) if r.get("download") != download}
    for r in app.rejected:
        rejected[r["file"]] = {**r, "download": download}
    manifest = {"assignment": app.assignment, "students": dict(sorted(students.items())),
                "rejected": sorted(rejected.values(), key=lambda r: r["file"])}
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


def load_manifest(assignment: str, collected: Path = COLLECTED) -> dict[str, Any]:
    """What :func:`collect` recorded for ``assignment`` (empty when it was not collected)."""
    path = Path(collected) / assignment / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else {"assignment": assignment, "students": {}, "rejected": []}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.lms.collect", description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", help="the assignment's id, e.g. 05_retry_with_backoff")
    parser.add_argument("download", type=Path, help="the zip downloaded from Canvas or Moodle")
    parser.add_argument("--roster", type=Path, default=None, help="roster CSV: student_id,lms_id,name,email")
    parser.add_argument("--submitted", type=Path, default=SUBMITTED, help="where submissions go (default: %(default)s)")
    parser.add_argument("--collected", type=Path, default=COLLECTED,
                        help="where the download, its manifest and the files set aside go (default: %(default)s)")
    parser.add_argument("--verbose", action="store_true", help="say what nbgrader does with every file")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    try:
        roster = Roster.load(args.roster) if args.roster else None
        manifest = collect(args.assignment, args.download, roster, args.submitted, args.collected)
    except (CollectError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    this = {s: v for s, v in manifest["students"].items() if v["download"] == args.download.name}
    late = sorted(s for s, v in this.items() if v["late"])
    print(f"Collected {len(this)} submission(s) of {args.assignment} into {args.submitted}/<student>/{args.assignment}/"
          + (f"; late: {', '.join(late)}" if late else ""))
    for s, v in sorted(this.items()):
        if v["replaced"]:
            print(f"  {s}: newest of {len(v['replaced']) + 1} files kept ({v['file']})")
    rejected = [r for r in manifest["rejected"] if r["download"] == args.download.name]
    if rejected:
        print(f"Set aside {len(rejected)} file(s), see {args.collected / args.assignment / 'rejected'}/:")
        for r in rejected:
            print(f"  {r['file']}: {r['reason']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
