"""Grades and feedback back to the LMS (what `make export` runs).

    python -m autograder.lms.export --roster roster.csv [--assignment ID ...] [--canvas-id ID=NUMBER ...]
                                    [--out GRADING_OUTPUT] [--db URL]

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

The CSVs list the roster's students in the roster file's order. Students without a score
get an empty cell (the LMS keeps what it has); a student who was not collected from that
LMS gets no feedback file there, and the export says so: a graded student whose
submission did not come through `make collect` is listed, to be sent by hand, and so is
one collected again after it was graded (the manifest's time is not the graded notebook's).

The export only reads the gradebook (SQLite file or ``--db`` URL, as `make grade` wrote
it) and never creates one. Nothing is written, and the command exits with status 2, when
there is nothing to export as asked: no gradebook yet (grade first), an ``--assignment``
or ``--canvas-id`` that names no graded assignment.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import logging
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nbgrader.api import Assignment, Gradebook, MissingEntry
from sqlalchemy import create_engine, inspect, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session
from toolfaults.language import language_of

from ..course import COLLECTED, EXPORTS, FEEDBACK, RESULTS, ClassFolder, assignments as course_assignments, load_config
from ..gradebook import gradebook_url, sqlite_path
from .collect import load_manifest
from .roster import Roster

log = logging.getLogger(__name__)

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
# The Canvas zip entries keep a fixed time, so exporting twice gives the same bytes.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


class ExportError(ValueError):
    """Nothing can be exported as asked (no gradebook yet, an unknown assignment): `make export` exits with 2."""


@dataclass
class Score:
    """One student's result for one assignment, as the LMS gets it."""

    score: float | None  # None: nothing to import (not submitted)
    max_score: float
    status: str = ""
    notes: str = ""
    manual: bool = False
    submitted_at: dt.datetime | None = None  # the graded notebook's time (its timestamp.txt), as the gradebook has it


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
                    float(submission.score), float(submission.max_score), manual=manual,
                    submitted_at=submission.timestamp)
    return out


def _statuses(results: Path) -> dict[tuple[str, str], tuple[str, str]]:
    if not results.exists():
        return {}
    data = json.loads(results.read_text())
    return {(r["student"], r["assignment"]): (r.get("status", ""), "; ".join(p.get("text", "") for p in r.get("problems", [])))
            for r in data}


def _shown(db_url: str) -> str:
    """The gradebook's URL as messages show it: no password."""
    try:
        return make_url(db_url).render_as_string(hide_password=True)
    except (SQLAlchemyError, ValueError):
        return db_url.split("@")[-1]


GRADE_FIRST = ("run `make grade` first, then export again (if you graded with GRADE_ARGS=\"--out FOLDER\" or "
               "GRADE_ARGS=\"--db URL\", export with the same: EXPORT_ARGS=\"--out FOLDER\" or "
               "EXPORT_ARGS=\"--db URL\")")


def graded_assignments(db_url: str, course_id: str) -> list[str]:
    """The assignments of ``course_id`` that the gradebook at ``db_url`` holds, read without writing anything.

    Unlike opening nbgrader's ``Gradebook`` (which creates a missing SQLite file, its tables
    and the course), this never creates a gradebook. Raises :class:`ExportError` when there
    is none, or when it holds nothing of this course, saying what to do.
    """
    if db_url.startswith("sqlite:///"):
        path = sqlite_path(db_url)
        if not path.is_file():
            raise ExportError(f"there is no gradebook at {path}: nothing has been graded there yet; {GRADE_FIRST}")
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            if "assignment" not in inspect(conn).get_table_names():
                raise ExportError(f"{_shown(db_url)} is not an nbgrader gradebook (it has no assignment table); "
                                  f"{GRADE_FIRST}")
            with Session(bind=conn) as session:
                names = sorted(session.scalars(select(Assignment.name).where(Assignment.course_id == course_id)))
    except SQLAlchemyError as err:
        reason = str(getattr(err, "orig", None) or err).strip().splitlines()[0]
        raise ExportError(f"cannot read the gradebook {_shown(db_url)}: {reason}") from err
    finally:
        engine.dispose()
    if not names:
        raise ExportError(f"the gradebook {_shown(db_url)} holds no graded assignment of the course "
                          f"{course_id!r}; {GRADE_FIRST}")
    return names


def _max_scores(db_url: str, course_id: str) -> dict[str, float]:
    with Gradebook(db_url, course_id) as gb:
        return {a.name: float(a.max_score) for a in gb.assignments}


def _check_selection(known: list[str], wanted: list[str] | None, canvas_ids: dict[str, str],
                     klass: ClassFolder | None = None) -> list[str]:
    """The assignments to export; :class:`ExportError` for a name (``--assignment``, ``--canvas-id``) not graded."""
    unknown = sorted({a for a in wanted or [] if a not in known})
    if unknown:
        in_course = [a for a in unknown if a in course_assignments()]
        if in_course:
            first = " ".join(f"--assignment {a}" for a in in_course)
            command = (klass or ClassFolder.current()).make("grade", GRADE_ARGS=first)
            raise ExportError(f"{', '.join(in_course)} {'is' if len(in_course) == 1 else 'are'} not graded yet: "
                              f"run {command} first (graded: {', '.join(known)})")
        raise ExportError(f"--assignment {', '.join(unknown)}: no such assignment in the gradebook; "
                          f"the graded assignments are: {', '.join(known)}")
    names = sorted(a for a in known if not wanted or a in wanted)
    stray = sorted(a for a in canvas_ids if a not in names)
    if stray:
        raise ExportError(f"--canvas-id {', '.join(f'{a}={canvas_ids[a]}' for a in stray)}: not an exported "
                          f"assignment; the assignments exported are: {', '.join(names)}")
    return names


def _same_time(collected: str | None, graded: dt.datetime | None) -> bool:
    """Whether the notebook `make collect` kept (its manifest time) is the one graded (the gradebook's time).

    A manifest without a time (written before collect recorded it) says nothing: the same.
    """
    if not collected:
        return True
    from nbgrader.utils import parse_utc

    try:
        return graded is not None and parse_utc(collected) == parse_utc(graded)
    except (ValueError, OverflowError, TypeError):
        return True


def _feedback_in_step(db_url: str, course_id: str, graded: dict[tuple[str, str], Score], results: Path,
                      feedback: Path, klass: ClassFolder, done: Export) -> None:
    """Make every exported student's feedback page say the score the LMS gets: a score an instructor set in
    the formgrader after the last `make grade` is written into that student's feedback (and into
    ``results.json`` and the class report). Raises :class:`ExportError` (nothing exported) for a page that
    still disagrees with the gradebook and cannot be brought in step here (graded again elsewhere, say).
    """

    from .. import feedback as pages
    from .. import readback, report
    from ..gradebook import Book

    if not results.exists():
        return
    try:
        saved = report.load_results(results)
    except (ValueError, TypeError, KeyError):
        return  # not results `make grade` wrote: nothing to compare with
    stale = [r for r in saved if (r.student, r.assignment) in graded
             and abs(graded[(r.student, r.assignment)].score - r.score) > 1e-9]
    if not stale:
        return
    by_hand = Book(db_url, course_id).instructor_scores([(r.student, r.assignment) for r in stale])
    wrong = []
    for r in stale:
        gradebook_score = graded[(r.student, r.assignment)].score
        before = r.score
        readback.set_instructor_score(r, by_hand.get((r.student, r.assignment)))
        if abs(r.score - gradebook_score) > 1e-9:
            wrong.append(f"{r.student}/{r.assignment} (feedback {before:g}, gradebook {gradebook_score:g})")
            continue
        page = next(iter(sorted((feedback / r.student / r.assignment).glob("*.html"))), None)
        pages.write(r, feedback, page.stem if page else None)
        done.warnings.append(f"{r.student}/{r.assignment}: the feedback now says {r.score:g}/{r.max_score:g}, the score "
                             f"set in the formgrader (it said {before:g}/{r.max_score:g})")
    if wrong:
        raise ExportError("the feedback of " + ", ".join(wrong) + " does not say the score in the gradebook, which "
                          "the LMS would get: grade them again first: "
                          + klass.make("grade", GRADE_ARGS=" ".join(
                              [f"--student {s}" for s in sorted({w.split('/')[0] for w in wrong})]
                              + [f"--assignment {a}" for a in sorted({w.split('/')[1].split(' ')[0] for w in wrong})])))
    report.save_results(saved, results)
    report.render(saved, results.parent)
    _grades_csv_in_step(results.parent.parent / "grades.csv", {(r.student, r.assignment): r for r in stale})


def _grades_csv_in_step(path: Path, updated: dict[tuple[str, str], Any]) -> None:
    """grades.csv (next to ``reports/``) says the same scores and notes as the feedback pages just rewritten."""
    if not path.is_file() or not updated:
        return
    with path.open(newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames or [], list(reader)
    for row in rows:
        r = updated.get((row.get("student"), row.get("assignment")))
        if r is not None and "score" in row:
            row["score"] = f"{r.score:g}"
            if "notes" in row:
                row["notes"] = " | ".join(p.text for p in r.problems)
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fields)
        writer.writeheader()
        writer.writerows(rows)


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
           assignments: list[str] | None = None, canvas_ids: dict[str, str] | None = None,
           klass: ClassFolder | None = None) -> Export:
    """Write the LMS files (see the module's docstring) for the roster's students.

    Args:
        roster: the class; the order of ``roster.students`` (the roster file's) is the CSVs' order.
        db_url, course_id: the gradebook (default: the course's, from ``nbgrader_config.py``); it is
            only read, never created.
        results: ``results.json`` of `make grade` (statuses); feedback: its feedback folder.
        assignments: only these (default: every assignment of the gradebook).
        canvas_ids: assignment -> Canvas assignment id, for Canvas's column names.
        klass: the class, named in the commands the warnings print (default: the current one).
    Returns:
        an :class:`Export` with the files written, the scores and what could not be exported.
    Raises:
        ExportError: no gradebook, or none of this course; an assignment or Canvas id that names no
            graded assignment. Nothing is written then.
    """
    config = load_config().CourseDirectory
    klass = klass or ClassFolder.current()
    db_url = db_url or config.db_url
    course_id = course_id or config.course_id
    results = results or RESULTS
    feedback = feedback or FEEDBACK
    canvas_ids = canvas_ids or {}
    names = _check_selection(graded_assignments(db_url, course_id), assignments, canvas_ids, klass)
    maxima = _max_scores(db_url, course_id)
    graded = gradebook_scores(db_url, course_id, names)
    statuses = _statuses(Path(results))
    manifests = {a: load_manifest(a, collected) for a in names}
    done = Export()
    _feedback_in_step(db_url, course_id, graded, Path(results), Path(feedback), klass, done)
    for (student_id, assignment), s in graded.items():
        s.status, s.notes = statuses.get((student_id, assignment), ("", ""))
    for student in roster.students:
        for a in names:
            done.scores[(student.student_id, a)] = graded.get((student.student_id, a), Score(None, maxima[a]))
    _warn(done, roster, names, graded, manifests, klass, Path(feedback))

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    done.files += [_write_canvas(out / "canvas_grades.csv", roster, names, maxima, canvas_ids, done),
                   _write_moodle(out / "moodle_grades.csv", roster, names, manifests, done)]

    for a in names:
        for lms in ("canvas", "moodle"):
            path = _feedback_zip(lms, a, roster, manifests[a], Path(feedback), out, done)
            if path:
                done.files.append(path)
    return done


def _warn(done: Export, roster: Roster, names: list[str], graded: dict, manifests: dict[str, dict[str, Any]],
          klass: ClassFolder, feedback: Path) -> None:
    """Add to ``done.warnings`` what the instructor must know before uploading: students graded but not in the
    roster, scores that need attention, notebooks collected again after grading, gradings never collected."""
    strangers = sorted({sid for sid, a in graded if not roster.get(sid) and a in names})
    if strangers:
        done.warnings.append(f"graded but not in the roster, so not exported: {', '.join(strangers)}")
    for (sid, a), s in sorted(done.scores.items()):
        if s.status == "needs attention":
            done.warnings.append(f"{sid}/{a} needs attention ({s.notes}); its score is exported as graded")
    for a in names:
        for sid, entry in sorted(manifests[a]["students"].items()):
            if (sid, a) in graded and not _same_time(entry.get("timestamp"), graded[(sid, a)].submitted_at):
                done.warnings.append(
                    f"{sid}/{a}: collected again (from {entry.get('download') or 'a later download'}) after it was "
                    "graded: the score and feedback exported are the earlier notebook's; grade it first: "
                    + klass.make("grade", GRADE_ARGS=f"--student {sid} --assignment {a}"))
        by_hand = [st.student_id for st in roster.students
                   if (st.student_id, a) in graded and st.student_id not in manifests[a]["students"]]
        if by_hand:
            done.warnings.append(f"{a}: graded but not collected with `make collect`, so in no feedback zip: "
                                 f"{', '.join(by_hand)}; send each one's page from {feedback}/<student>/{a}/ "
                                 "by hand")


def _write_canvas(path: Path, roster: Roster, names: list[str], maxima: dict[str, float],
                  canvas_ids: dict[str, str], done: Export) -> Path:
    """Canvas's gradebook CSV: its identity columns, a "Points Possible" row, one column per assignment."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(CANVAS_IDENTITY + [f"{a} ({canvas_ids[a]})" if a in canvas_ids else a for a in names])
        w.writerow(["Points Possible", "", "", "", ""] + [_fmt(maxima[a]) for a in names])
        for st in roster.students:
            w.writerow([st.name, st.lms_id, st.sis_user_id, st.sis_login_id, st.section]
                       + [_fmt(done.scores[(st.student_id, a)].score) for a in names])
    return path


def _write_moodle(path: Path, roster: Roster, names: list[str], manifests: dict[str, dict[str, Any]],
                  done: Export) -> Path:
    """Moodle's grade import CSV: by email, a score and a feedback column per assignment."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["Email address", "Full name"] + [c for a in names for c in (a, f"Feedback: {a}")])
        for st in roster.students:
            cells = []
            for a in names:
                s = done.scores[(st.student_id, a)]
                late = manifests[a]["students"].get(st.student_id, {}).get("late", False)
                cells += [_fmt(s.score), _summary(s, late, a)]
            w.writerow([st.email, st.name] + cells)
    return path


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
    parser.add_argument("--roster", type=Path, default=None,
                        help="roster CSV (ours: student_id,lms_id,name,email[,...]; or Canvas's or Moodle's gradebook "
                             "export); default: the class's roster.csv")
    parser.add_argument("--class", dest="klass", type=Path, default=None, metavar="DIR",
                        help="the class folder (default: make's CLASS=, else class.local, else classes/sample)")
    parser.add_argument("--assignment", action="append", help="export only this assignment (repeatable)")
    parser.add_argument("--canvas-id", action="append", default=[], metavar="ASSIGNMENT=ID",
                        help="the Canvas assignment id of an assignment (repeatable), for Canvas's column name")
    parser.add_argument("--out", type=Path, default=None,
                        help="the grading output folder given to `make grade GRADE_ARGS=\"--out ...\"` (its gradebook, "
                             "results and feedback; default: the class's gradebook.db and output/)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="the gradebook given to `make grade GRADE_ARGS=\"--db ...\"`: a PostgreSQL URL "
                             "(postgresql://user@host:port/db); default: the SQLite gradebook in --out")
    parser.add_argument("--exports", type=Path, default=None, help="where the files go (default: the class's exports/)")
    parser.add_argument("--collected", type=Path, default=None,
                        help="manifests of `make collect` (default: the class's collected/)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    try:
        canvas_ids = dict(item.split("=", 1) for item in args.canvas_id)
    except ValueError:
        parser.error("--canvas-id takes ASSIGNMENT=ID")
    klass = ClassFolder.current(args.klass)
    args.exports = args.exports or klass.exports
    args.collected = args.collected or klass.collected
    if not args.roster:
        if not klass.roster.is_file():
            parser.error(f"no roster: give ROSTER=FILE (ours, or Canvas's or Moodle's gradebook export), or save it as "
                         f"{klass.shown}/roster.csv")
        args.roster = klass.roster
    kwargs: dict[str, Any] = {"db_url": klass.db_url, "results": klass.results, "feedback": klass.feedback,
                              "klass": klass}
    if args.out:
        out = args.out.resolve()
        kwargs.update(db_url=f"sqlite:///{out / 'gradebook.db'}", results=out / "reports" / "results.json",
                      feedback=out / "feedback")
    if args.db:
        kwargs["db_url"] = gradebook_url(args.db)  # as `make grade --db` reads it
    try:
        roster = Roster.load(args.roster)
        done = export(roster, args.exports, collected=args.collected, assignments=args.assignment,
                      canvas_ids=canvas_ids, **kwargs)
    except ExportError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
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
