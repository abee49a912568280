"""An LMS download into the class's ``submitted/`` (:mod:`autograder.classes`) (what `make collect` runs), on nbgrader's ``zip_collect``.

    python -m autograder.lms.collect ASSIGNMENT DOWNLOAD.zip [--roster roster.csv] [--class DIR]

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
- the roster maps the LMS's ids to the course's student ids. Canvas's files by user id;
  Moodle's folders by full name first, since its participant ids change with each
  assignment: its id decides only between students of the same name, or when the name
  is in no row of the roster (collected with a note). A folder whose name is one
  student's and whose id is another's is set aside, naming both;
- a file that is not a notebook, an unknown student's file, and a notebook of another
  assignment (told apart by the ids nbgrader gave its cells) are set aside, with the
  reason, in ``collected/<assignment>/rejected/<download>/``, never dropped silently;
- the English and Spanish editions of an assignment (``05_retry_with_backoff`` and
  ``05_retry_with_backoff_es``) have the same cell ids: the notebook's language
  (:func:`notebook_language`) tells which edition it is. A notebook of the *other*
  edition of the requested assignment is set aside with what to do: collect the same
  download again with the other edition's name. It is not collected under the requested
  one: the editions grade the same functions with the same tests and points, but their
  read-only and test cells differ in their text, so the grader would report every test
  of it as edited. A bilingual class that hands both editions into one LMS assignment
  collects the download once per edition, and each notebook lands in its own;
- when a student submitted several times, the newest file wins (the zip entry's time;
  for Canvas, the larger attachment id when the times are equal);
- ``collected/<assignment>/manifest.json`` records, per student, where the notebook came
  from, whether it was late, what it replaced, the LMS's name prefix (the feedback
  upload needs it) and a note when one was printed; and every file set aside, with its
  copy's path (none for an entry that was corrupt or unsafe in the zip).
  :mod:`autograder.lms.export` reads it.
- the command exits non-zero when it collected nothing from the download, and says which
  file names it expected when the files had neither LMS's.

Each download is kept: the zip in ``collected/<assignment>/download/<download>/`` and the
files it set aside in ``collected/<assignment>/rejected/<download>/``, where ``<download>``
is the zip's name and the start of its SHA-256 (:func:`download_id`). A later download
(late submissions, the other LMS) adds its own folders and leaves the earlier ones as they
are; in the manifest it replaces the students it holds and adds the files it set aside,
and the earlier downloads' files set aside stay listed. Collecting the same download
twice gives the same files and manifest.
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

from toolfaults.language import english_name, fold, language_of

from ..course import COLLECTED, EXERCISES, SOLUTIONS, SUBMITTED, ClassFolder, assignments
from ..translations import KEY as TRANSLATION
from .roster import Roster, Student

log = logging.getLogger(__name__)

# The two file-name collectors, as nbgrader's named groups (student_id = the LMS's id here;
# the roster turns it into the course's id). Matched against the path inside the zip.
CANVAS = re.compile(r"^(?:.*/)?(?P<prefix>(?P<login>[^/_]+)_(?:(?P<late>LATE)_)?(?P<student_id>\d+)_"
                    r"(?P<attachment_id>\d+)_)(?P<file_id>[^/]+)$")
MOODLE = re.compile(r"^(?:.*/)?(?P<prefix>(?P<name>[^/]+)_(?P<student_id>\d+)_assignsubmission_file_?)/"
                    r"(?:.*/)?(?P<file_id>[^/]+)$")
NAMING = ("neither Canvas's (<login>_<user id>_<attachment id>_<file>) nor Moodle's "
          "(<Full Name>_<participant id>_assignsubmission_file_/<file>)")
LANGUAGE_NAMES = {"en": "English", "es": "Spanish"}


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


def notebook_language(notebook: dict, file_name: str = "") -> str | None:
    """"es" or "en": the edition a notebook was made from, None when nothing tells.

    The Spanish edition's cells record the English source they translate
    (``metadata.translation``, see :mod:`autograder.translations`); each edition's first
    code cell calls ``use_language("es")`` or ``use_language("en")``. Failing both, a file
    name with ``_es`` before its extension (or a copy's "-1", " (1)") is Spanish.
    """
    cells = [c for c in notebook.get("cells", []) if isinstance(c, dict)]
    if any(TRANSLATION in c.get("metadata", {}) for c in cells):
        return "es"
    for cell in cells:
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        found = re.search(r"""use_language\(\s*["'](en|es)["']""", source)
        if cell.get("cell_type") == "code" and found:
            return found[1]
    return "es" if re.search(r"_es\b", Path(file_name).stem) else None


def which_assignment(path: Path, known: dict[str, set[str]], requested: str | None = None) -> tuple[str | None, str]:
    """(the assignment a notebook belongs to, or None, a note or why not) from the ids of its cells.

    The assignments with most of the notebook's cells tie when they are the two editions
    of one: then the edition in the notebook's language wins, and the ``requested``
    assignment when the language does not decide.
    """
    try:
        notebook = json.loads(Path(path).read_text(encoding="utf-8"))
        if not isinstance(notebook, dict):
            notebook = {}
    except (ValueError, UnicodeDecodeError):
        return "", "not a readable notebook (collected as it is; grading gives it 0 with the reason)"
    ids = cell_ids(notebook)
    overlap = {name: len(ids & cells) for name, cells in known.items()}
    top = max(overlap.values(), default=0)
    if not top:
        return None, "a notebook with none of the assignments' cells"
    tied = sorted(name for name, count in overlap.items() if count == top)
    language = notebook_language(notebook, Path(path).name)
    tied = [name for name in tied if language_of(name) == language] or tied
    return (requested if requested in tied else tied[0]), ""


def moodle_student(roster: Roster, lms_id: str, name: str) -> tuple[Student | None, str]:
    """(the student of a Moodle folder, a note) or (None, why it is set aside): by full name first, then by id."""
    by_name, by_id = roster.find(None, name), roster.find(lms_id)
    if by_name and by_id and by_name != by_id:
        return None, (f"a folder whose name is {by_name.student_id}'s ({by_name.name}) but whose id {lms_id} is "
                      f"{by_id.student_id}'s ({by_id.name}) in the roster: correct the roster's name or lms_id "
                      "(Moodle's participant ids change with each assignment; lms_id may be left empty)")
    if by_name or not by_id or fold(by_id.name) == fold(name):
        return by_name or by_id, ""
    return by_id, f"matched by its id {lms_id} to {by_id.name}: the folder's name ({name}) is not in the roster"


class CheckedExtractor(ExtractorPlugin):
    """nbgrader's extractor, entry by entry: a corrupt or unsafe entry is set aside, the rest unpacked.

    Each file keeps the zip entry's time, so the collector can tell the newest submission.
    """

    def extract(self, archive_path: str, extracted_path: str) -> None:
        for archive in sorted(p for p in Path(archive_path).iterdir() if p.is_file()):
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
            return app.set_aside(rel, f"a file name that is {NAMING}", submitted_file)
        lms_id, name = info["student_id"], (info.get("name") or "").replace("_", " ")
        matched = ""
        if app.roster:
            if lms == "moodle":
                student, matched = moodle_student(app.roster, lms_id, name)
                if not student and matched:
                    return app.set_aside(rel, matched, submitted_file)
            else:
                student = app.roster.find(lms_id)
            if not student:
                who = f"LMS id {lms_id}" + (f", {name}" if name else "")
                return app.set_aside(rel, f"a student who is not in the roster ({who})", submitted_file)
            student_id = student.student_id
        else:
            student_id = info.get("login") or re.sub(r"\W+", "_", name.lower()).strip("_")
        belongs, why = which_assignment(Path(submitted_file), app.known, app.assignment)
        if belongs is None:
            return app.set_aside(rel, why, submitted_file, student_id)
        if belongs and english_name(belongs) == english_name(app.assignment) and belongs != app.assignment:
            return app.set_aside(rel, f"the {LANGUAGE_NAMES[language_of(belongs)]} edition's notebook ({belongs}): "
                                      f"collect this download again with ASSIGNMENT={belongs} (the same tests and "
                                      f"points; graded as {app.assignment}, its tests would read as edited)",
                                 submitted_file, student_id)
        if belongs and belongs != app.assignment:
            return app.set_aside(rel, f"a notebook of another assignment ({belongs})", submitted_file, student_id)
        mtime = dt.datetime.fromtimestamp(Path(submitted_file).stat().st_mtime)
        # Zip times have a 2-second grain; Canvas's attachment ids grow with each upload, so
        # they order submissions of the same time (as microseconds nobody else reads).
        stamp = mtime + dt.timedelta(microseconds=int(info.get("attachment_id") or 0) % 1_000_000)
        app.candidates.setdefault(student_id, []).append({
            "file": rel, "lms": lms, "lms_id": lms_id, "late": bool(info.get("late")),
            "prefix": info["prefix"], "original_name": info["file_id"], "timestamp": stamp.isoformat(" "),
            "sha256": hashlib.sha256(Path(submitted_file).read_bytes()).hexdigest(),
            "note": "; ".join(n for n in (matched, why) if n),
        })
        return {"student_id": student_id, "file_id": f"{app.assignment}.ipynb", "timestamp": stamp.isoformat(" ")}


class LmsZipCollect(ZipCollectApp):
    """nbgrader's ``zip_collect``, with the set-aside files and the candidates it saw kept as data."""

    def setup(self, assignment: str, roster: Roster | None, workdir: Path, known: dict[str, set[str]],
              download_id: str) -> None:
        self.assignment, self.roster, self.workdir, self.known = assignment, roster, workdir, known
        self.download_id = download_id
        self.extracted = workdir / self.extracted_directory
        self.rejected: list[dict[str, str]] = []
        self.candidates: dict[str, list[dict[str, Any]]] = {}

    def set_aside(self, rel: str, reason: str, path: str | None = None, student: str | None = None) -> None:
        """Record a file that is not collected; keep a copy of it (when there is one) in ``rejected/<download>/``."""
        copy = None
        if path:
            copy = PurePosixPath("rejected", self.download_id, rel).as_posix()
            dest = self.workdir / copy
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
        entry = {"file": rel, "reason": reason, "copy": copy}
        if student:  # whose it is, when the roster says (grades.csv and the report show it as theirs)
            entry["student"] = student
        self.rejected.append(entry)
        log.debug("set aside %s: %s", rel, reason)  # main() prints the list once, at the end
        return None

    def fail(self, msg: str, *args: Any) -> None:
        raise CollectError(msg % args if args else msg)


def download_id(download: Path) -> str:
    """The name of a download's folders under ``download/`` and ``rejected/``: the zip's name and its SHA-256's start.

    The same zip collected again gets the same folders; another zip, even one of the same
    name (Canvas calls every download ``submissions.zip``), gets its own.
    """
    return f"{Path(download).stem}_{hashlib.sha256(Path(download).read_bytes()).hexdigest()[:8]}"


def collect(assignment: str, download: Path, roster: Roster | None = None, submitted: Path = SUBMITTED,
            collected: Path = COLLECTED, release: Path = EXERCISES, solutions: Path = SOLUTIONS) -> dict[str, Any]:
    """Collect an LMS download of ``assignment`` into ``submitted``; returns the manifest (also written).

    Args:
        assignment: the assignment's id (a folder of ``solutions/``).
        download: the LMS's zip.
        roster: maps LMS ids to student ids; without one, Canvas logins and Moodle names are the ids.
    Raises:
        CollectError: an unknown assignment, or a download that is missing or not a zip.
    """
    known = assignment_ids(solutions)
    if assignment not in known:
        raise CollectError(f"{assignment!r} is not an assignment of this course ({', '.join(sorted(known))})")
    download = Path(download).resolve()
    if not download.is_file():
        raise CollectError(f"no such file: {download} (the zip downloaded from the LMS)")
    if not zipfile.is_zipfile(download):
        raise CollectError(f"{download} is not a zip file (download the submissions from the LMS as one zip)")
    workdir, this = Path(collected) / assignment, download_id(download)
    archive = workdir / "download" / this
    # Only this download's own folders are redone; the other downloads' stay as they are.
    shutil.rmtree(archive, ignore_errors=True)
    shutil.rmtree(workdir / "rejected" / this, ignore_errors=True)
    archive.mkdir(parents=True)
    shutil.copy2(download, archive / download.name)

    config = Config()
    config.CourseDirectory.root = str(Path(collected).resolve())
    config.CourseDirectory.submitted_directory = str(Path(submitted).resolve())
    config.CourseDirectory.release_directory = str(Path(release).resolve())
    config.ZipCollectApp.collect_directory_structure = os.path.join("{assignment_id}", "{collect_step}")
    config.ZipCollectApp.archive_directory = os.path.join("download", this)
    config.ZipCollectApp.extracted_directory = "extracted"
    config.ZipCollectApp.force = True  # a newer collection replaces a student's older one
    config.ZipCollectApp.extractor_plugin = CheckedExtractor
    config.ZipCollectApp.collector_plugin = LmsCollector
    # nbgrader logs every file it looks at; what was set aside is reported here instead.
    config.Application.log_level = "INFO" if log.isEnabledFor(logging.INFO) else "ERROR"
    app = LmsZipCollect(config=config)
    app.coursedir = CourseDirectory(config=config)
    app.coursedir.assignment_id = assignment
    app.setup(assignment, roster, workdir, known, this)
    app.init_plugins()
    app.extract_archive_files()
    app.process_extracted_files()
    shutil.rmtree(app.extracted, ignore_errors=True)
    return _write_manifest(app, download.name, Path(submitted))


def _write_manifest(app: LmsZipCollect, download: str, submitted: Path) -> dict[str, Any]:
    """Add this download's students and files set aside to the manifest; other downloads' entries stay."""
    path = app.workdir / "manifest.json"
    previous = json.loads(path.read_text()) if path.exists() else {}
    students = previous.get("students", {})
    for student_id, candidates in sorted(app.candidates.items()):
        notebook = submitted / student_id / app.assignment / f"{app.assignment}.ipynb"
        digest = hashlib.sha256(notebook.read_bytes()).hexdigest() if notebook.exists() else None
        won = [c for c in candidates if c["sha256"] == digest]
        chosen = max(won or candidates, key=lambda c: c["timestamp"])
        others = sorted(c["file"] for c in candidates if c is not chosen)
        earlier = students.get(student_id, {})
        timestamp, changed = chosen["timestamp"], True
        if earlier.get("download_id") == app.download_id and earlier.get("sha256") == chosen["sha256"]:
            # the same download collected again: nothing changes, in the manifest either
            timestamp, changed = earlier["timestamp"], earlier.get("changed", True)
            from nbgrader.utils import parse_utc

            (notebook.parent / "timestamp.txt").write_text(parse_utc(timestamp).isoformat(" "))
        elif earlier.get("sha256") == chosen["sha256"] and earlier.get("timestamp"):
            # The same notebook downloaded again (Canvas and Moodle hand out everyone's each time): it keeps
            # the time it was first collected with, in the manifest and in nbgrader's timestamp.txt, so its
            # grade stands and the export does not ask for it to be graded again.
            timestamp, changed = earlier["timestamp"], False
            from nbgrader.utils import parse_utc

            (notebook.parent / "timestamp.txt").write_text(parse_utc(timestamp).isoformat(" "))  # as nbgrader writes it
        students[student_id] = {
            "download": download, "download_id": app.download_id, "file": chosen["file"], "lms": chosen["lms"],
            "lms_id": chosen["lms_id"], "late": chosen["late"], "timestamp": timestamp,
            "lms_prefix": chosen["prefix"], "original_name": chosen["original_name"], "replaced": others,
            "note": chosen["note"], "sha256": chosen["sha256"], "changed": changed,
        }
    rejected = [r for r in previous.get("rejected", []) if r.get("download_id") != app.download_id]
    rejected += [{**r, "download": download, "download_id": app.download_id} for r in app.rejected]
    manifest = {"assignment": app.assignment, "students": dict(sorted(students.items())),
                "rejected": sorted(rejected, key=lambda r: (r["file"], r.get("download_id") or ""))}
    path.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    return manifest


def load_manifest(assignment: str, collected: Path = COLLECTED) -> dict[str, Any]:
    """What :func:`collect` recorded for ``assignment`` (empty when it was not collected)."""
    path = Path(collected) / assignment / "manifest.json"
    return json.loads(path.read_text()) if path.exists() else {"assignment": assignment, "students": {}, "rejected": []}


def collection_notes(collected: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """(student, assignment) -> what `make collect` recorded that grading does not see: ``late`` (bool) and
    ``set_aside`` (one sentence per file of that student set aside from that assignment's downloads)."""
    notes: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(Path(collected).glob("*/manifest.json")) if Path(collected).is_dir() else []:
        try:
            manifest = json.loads(path.read_text())
        except ValueError:
            continue
        assignment = manifest.get("assignment") or path.parent.name
        for student, entry in manifest.get("students", {}).items():
            notes.setdefault((student, assignment), {"late": False, "set_aside": []})["late"] = bool(entry.get("late"))
        for entry in manifest.get("rejected", []):
            if entry.get("student"):
                where = f" (copy: {path.parent.name}/{entry['copy']})" if entry.get("copy") else ""
                notes.setdefault((entry["student"], assignment), {"late": False, "set_aside": []})["set_aside"].append(
                    f"{PurePosixPath(entry['file']).name} set aside: {entry['reason']}{where}")
    return notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.lms.collect", description=__doc__.split("\n\n")[0])
    parser.add_argument("assignment", help="the assignment's id, e.g. 05_retry_with_backoff")
    parser.add_argument("download", type=Path, help="the zip downloaded from Canvas or Moodle")
    parser.add_argument("--roster", type=Path, default=None,
                        help="roster CSV (ours: student_id,lms_id,name,email; or Canvas's or Moodle's gradebook "
                             "export); default: the class's roster.csv when there is one")
    parser.add_argument("--class", dest="klass", type=Path, default=None, metavar="DIR",
                        help="the class folder (default: make's CLASS=, else class.local, else classes/sample)")
    parser.add_argument("--submitted", type=Path, default=None, help="where submissions go (default: the class's submitted/)")
    parser.add_argument("--collected", type=Path, default=None,
                        help="where the download, its manifest and the files set aside go (default: the class's collected/)")
    parser.add_argument("--verbose", action="store_true", help="say what nbgrader does with every file")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(message)s")
    klass = ClassFolder.current(args.klass)
    if not args.roster and not args.submitted and klass.roster.is_file():
        args.roster = klass.roster  # the class's own roster, when collecting into the class
    args.submitted = args.submitted or klass.submitted
    args.collected = args.collected or klass.collected
    try:
        roster = Roster.load(args.roster) if args.roster else None
        manifest = collect(args.assignment, args.download, roster, args.submitted, args.collected)
    except (CollectError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    this_id = download_id(args.download)
    this = {s: v for s, v in manifest["students"].items() if v.get("download_id") == this_id}
    late = sorted(s for s, v in this.items() if v["late"])
    print(f"Collected {len(this)} submission(s) of {args.assignment} into {args.submitted}/<student>/{args.assignment}/"
          + (f"; late: {', '.join(late)}" if late else ""))
    same = sorted(s for s, v in this.items() if not v.get("changed", True))
    new = sorted(s for s, v in this.items() if v.get("changed", True))
    if same:
        print(f"Unchanged since an earlier download: {len(same)} ({', '.join(same)}): their grades stand."
              + (f" New or changed: {', '.join(new)}." if new else " Nothing new or changed."))
    if new:
        students = " ".join(f"--student {s}" for s in new) if same else ""
        print("Grade " + ("them" if same else "the download") + ": "
              + klass.make("grade", GRADE_ARGS=f"{students} --assignment {args.assignment}".strip()))
    for s, v in sorted(this.items()):
        if v["replaced"]:
            print(f"  {s}: newest of {len(v['replaced']) + 1} files kept ({v['file']})")
        if v["note"]:
            print(f"  {s}: note: {v['note']}")
    rejected = [r for r in manifest["rejected"] if r.get("download_id") == this_id]
    if rejected:
        missing = [r for r in rejected if not r["copy"]]
        kinds = sorted({"corrupt" if r["reason"].startswith("corrupt") else "unsafe path" for r in missing})
        uncopied = f" ({len(missing)} not copied: {', '.join(kinds)})" if missing else ""
        folder = args.collected / args.assignment / "rejected" / this_id
        print(f"Set aside {len(rejected)} file(s){uncopied}, see {folder}/:")
        for r in rejected:
            print(f"  {r['file']}: {r['reason']}")
    if not this:
        naming = any(r["reason"].endswith(NAMING) for r in rejected)
        print(f"error: nothing collected from {args.download}" + (
            f": its files are named {NAMING}. Give the zip exactly as the LMS made it (Canvas: Download "
            "Submissions; Moodle: Download all submissions), not unpacked and zipped again" if naming else ""),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
