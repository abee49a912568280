"""Grades and feedback back to the LMS (what `make export` runs).

    python -m autograder.lms.export --roster roster.csv [--assignment ID ...] [--canvas-id ID=NUMBER ...]

Reads the gradebook (where an instructor's manual score exists, nbgrader's score of that
cell is the manual one: it wins), the grading results (which submissions need attention),
the feedback pages and the manifests of `make collect`, and writes into
``autograder/exports/``:

``canvas_grades.csv``
    Canvas's gradebook import (Grades > Import): the columns ``Student, ID, SIS User ID,
    SIS Login ID, Section`` identify the student (Canvas matches on ``ID``, the user id,
    which is the roster's ``lms_id``), then one column per assignment named
    ``<title> (<Canvas assignment id>)`` (``--canvas-id``; without one, Canvas matches the
    title or offers to create the assignment), and a ``Points Possible`` row.
``moodle_grades.csv``
    Moodle's grade import from CSV (Grades > Import > CSV file): map ``Email address`` to
    the user's email, each assignment's column to its grade item, and its
    ``Feedback: <assignment>`` column to that item's feedback.
``canvas_feedback_<assignment>.zip``
    for Canvas's "Re-upload submissions" on the assignment's page: one feedback page per
    student named with the prefix of the file Canvas gave (``<login>_<user id>_<attachment
    id>_``); Canvas attaches each to that student's submission as a comment.
``moodle_feedback_<assignment>.zip``
    for Moodle's "Upload multiple feedback files in a zip": one folder per student named as in
    Moodle's download (``<Full Name>_<participant id>_assignsubmission_file_/``).

Students without a score get an empty cell (the LMS keeps what it has); a student who
was not collected from that LMS gets no feedback file there, and the export says so.
"""

from __future__ import annotations

import argparse
import csv
import json
import logging
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nbgrader.api import Gradebook, MissingEntry
from toolfaults.language import language_of

from ..course import COLLECTED, EXPORTS, FEEDBACK, RESULTS, load_config
from .collect import load_manifest
from .roster import Roster

log = logging.getLogger(__name__)

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
# The Canvas zip entries keep a fixed time, so exporting twice gives the same bytes.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


@dataclass
class Score:
    """One student's result for one assignment, as the LMS gets it."""

    score: float | None  # None: nothing to import (not submitted)
    max_score: float
    status: str = ""
    notes: str = ""
    manual: bool = False


@dataclass
class Export:
    """What :func:`export` wrote, and what it could not."""

    files: list[Path] = field(default_factory=list)
    scores: dict[tuple[str, str], Score] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def gradebook_scores(db_url: str, course_id: str, wanted: list[str] | None = None) -> dict[tuple[str, str], Score]:
    """(student, assignment) -> score for every submission in the gradebook (manual scores win, as in nbgrader)."""
    out: dict[tuple[str, str], Score] = {}
    with Gradebook(db_url, course_id) as gb:
        for assignment in gb.assignments:
            if wanted and assignment.name not in wanted:
                continue
            for submission in assignment.submissions:
                manual = any(g.manual_score is not None for nb in submission.notebooks for g in nb.grades)
                out[(submission.student.id, assignment.name)] = Score(
                    float(submission.score), float(submission.max_score), manual=manual)
    return out


def _statuses(results: Path) -> dict[tuple[str, str], tuple[str, str]]:
    if not results.exists():
        return {}
    data = json.loads(results.read_text())
    return {(r["student"], r["assignment"]): (r.get("status", ""), "; ".join(p.get("text", "") for p in r.get("problems", [])))
            for r in data}


def _max_scores(db_url: str, course_id: str) -> dict[str, float]:
    with Gradebook(db_url, course_id) as gb:
        return {a.name: float(a.max_score) for a in gb.assignments}


def _fmt(x: float | None) -> str:
    return "" if x is None else f"{x:g}"


#: The Moodle feedback column's sentences, in the assignment's language (a Spanish one's name ends in _es).
SUMMARY = {
    "en": {"graded": "Auto-graded: {score} / {max_score}.", "manual": " Reviewed by your instructor.",
           "late": " Handed in late.", "attention": " Your instructor will look at this submission."},
    "es": {"graded": "Corregido automáticamente: {score} / {max_score}.", "manual": " Revisado por tu profesor.",
           "late": " Entregado tarde.", "attention": " Tu profesor revisará esta entrega."},
}


def _summary(s: Score, late: bool, assignment: str) -> str:
    if s.score is None:
        return ""
    words = SUMMARY[language_of(assignment)]
    text = words["graded"].format(score=f"{s.score:g}", max_score=f"{s.max_score:g}")
    if s.manual:
        text += words["manual"]
    if late:
        text += words["late"]
    if s.status == "needs attention":
        text += words["attention"]
    return text


def export(roster: Roster, out: Path = EXPORTS, db_url: str | None = None, course_id: str | None = None,
           results: Path | None = None, feedback: Path | None = None, collected: Path = COLLECTED,
           assignments: list[str] | None = None, canvas_ids: dict[str, str] | None = None) -> Export:
    """Write the LMS files (see the module's docstring) for the roster's students.

    Args:
        roster: the class; its order is the CSVs' order.
        db_url, course_id: the gradebook (default: the course's, from ``nbgrader_config.py``).
        results: ``results.json`` of `make grade` (statuses); feedback: its feedback folder.
        assignments: only these (default: every assignment of the gradebook).
        canvas_ids: assignment -> Canvas assignment id, for Canvas's column names.
    Returns:
        an :class:`Export` with the files written, the scores and what could not be exported.
    """
    config = load_config().CourseDirectory
    db_url = db_url or config.db_url
    course_id = course_id or config.course_id
    results = results or RESULTS
    feedback = feedback or FEEDBACK
    canvas_ids = canvas_ids or {}
    maxima = _max_scores(db_url, course_id)
    names = sorted(a for a in maxima if not assignments or a in assignments)
    graded = gradebook_scores(db_url, course_id, names)
    statuses = _statuses(Path(results))
    manifests = {a: load_manifest(a, collected) for a in names}
    done = Export()
    for (student_id, assignment), s in graded.items():
        s.status, s.notes = statuses.get((student_id, assignment), ("", ""))
    for student in roster.students:
        for a in names:
            done.scores[(student.student_id, a)] = graded.get((student.student_id, a), Score(None, maxima[a]))
    strangers = sorted({sid for sid, a in graded if not roster.get(sid) and a in names})
    if strangers:
        done.warnings.append(f"graded but not in the roster, so not exported: {', '.join(strangers)}")
    for (sid, a), s in sorted(done.scores.items()):
        if s.status == "needs attention":
            done.warnings.append(f"{sid}/{a} needs attention ({s.notes}); its score is exported as graded")

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    canvas = out / "canvas_grades.csv"
    with canvas.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(CANVAS_IDENTITY + [f"{a} ({canvas_ids[a]})" if a in canvas_ids else a for a in names])
        w.writerow(["Points Possible", "", "", "", ""] + [_fmt(maxima[a]) for a in names])
        for st in roster.students:
            w.writerow([st.name, st.lms_id, st.sis_user_id, st.sis_login_id, st.section]
                       + [_fmt(done.scores[(st.student_id, a)].score) for a in names])
    moodle = out / "moodle_grades.csv"
    with moodle.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["Email address", "Full name"] + [c for a in names for c in (a, f"Feedback: {a}")])
        for st in roster.students:
            cells = []
            for a in names:
                s = done.scores[(st.student_id, a)]
                late = manifests[a]["students"].get(st.student_id, {}).get("late", False)
                cells += [_fmt(s.score), _summary(s, late, a)]
            w.writerow([st.email, st.name] + cells)
    done.files += [canvas, moodle]

    for a in names:
        for lms in ("canvas", "moodle"):
            path = _feedback_zip(lms, a, roster, manifests[a], Path(feedback), out, done)
            if path:
                done.files.append(path)
    return done


def _feedback_zip(lms: str, assignment: str, roster: Roster, manifest: dict[str, Any], feedback: Path,
                  out: Path, done: Export) -> Path | None:
    """The feedback zip of one assignment for one LMS (None: nobody was collected from it)."""
    entries = {}
    for st in roster.students:
        got = manifest["students"].get(st.student_id)
        if not got or got["lms"] != lms:
            continue
        pages = sorted((feedback / st.student_id / assignment).glob("*.html"))
        if not pages:
            done.warnings.append(f"{st.student_id}/{assignment}: no feedback page to upload to {lms} (not graded yet?)")
            continue
        prefix = got["lms_prefix"]
        name = f"{prefix}{assignment}_feedback.html" if lms == "canvas" else f"{prefix}/{assignment}_feedback.html"
        entries[name] = pages[0].read_bytes()
    path = out / f"{lms}_feedback_{assignment}.zip"
    path.unlink(missing_ok=True)
    if not entries:
        return None
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in sorted(entries.items()):
            zf.writestr(zipfile.ZipInfo(name, ZIP_TIME), data)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.lms.export", description=__doc__.split("\n\n")[0])
    parser.add_argument("--roster", type=Path, required=True, help="roster CSV: student_id,lms_id,name,email[,...]")
    parser.add_argument("--assignment", action="append", help="export only this assignment (repeatable)")
    parser.add_argument("--canvas-id", action="append", default=[], metavar="ASSIGNMENT=ID",
                        help="the Canvas assignment id of an assignment (repeatable), for Canvas's column name")
    parser.add_argument("--out", type=Path, default=None,
                        help="the grading output folder of `make grade --out` (default: the course's own)")
    parser.add_argument("--exports", type=Path, default=EXPORTS, help="where the files go (default: %(default)s)")
    parser.add_argument("--collected", type=Path, default=COLLECTED, help="manifests of `make collect`")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        canvas_ids = dict(item.split("=", 1) for item in args.canvas_id)
    except ValueError:
        parser.error("--canvas-id takes ASSIGNMENT=ID")
    kwargs: dict[str, Any] = {}
    if args.out:
        out = args.out.resolve()
        kwargs = {"db_url": f"sqlite:///{out / 'gradebook.db'}", "results": out / "reports" / "results.json",
                  "feedback": out / "feedback"}
    try:
        roster = Roster.load(args.roster)
        done = export(roster, args.exports, collected=args.collected, assignments=args.assignment,
                      canvas_ids=canvas_ids, **kwargs)
    except (ValueError, MissingEntry) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    for path in done.files:
        print(f"wrote {path}")
    for warning in done.warnings:
        print(f"  ! {warning}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
