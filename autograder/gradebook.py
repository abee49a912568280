"""Moving grades between nbgrader gradebooks, and reading them out.

Parallel grading never lets two processes write the same SQLite file: every
worker autogrades into its own scratch copy of the gradebook, reads back what
nbgrader recorded for the submission it graded (:meth:`Book.rows`: the same
fields nbgrader's ``SaveAutoGrades`` writes) and hands those rows to the parent
process, the only writer of the course's gradebook (:meth:`RowWriter.write`). The rows
are plain data, so they can come from another process or another machine.

:class:`Book` is the grader's one writer of a gradebook: every write it makes, besides
nbgrader's own autograde and generate steps, is one of its methods.

:func:`dump` reads a whole gradebook into plain data: two gradebooks hold the
same grades exactly when their dumps are equal (the tests compare a parallel run
with a sequential one this way). :func:`export_csv` writes the grade table.
"""

from __future__ import annotations

import csv
import functools
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbgrader.api
from nbgrader.api import Gradebook, MissingEntry


@functools.lru_cache(maxsize=1)
def alembic_head() -> str:
    """The newest revision of nbgrader's gradebook schema, read in this process.

    nbgrader stamps every gradebook it creates with it, and gets it by running
    ``alembic heads`` in a subprocess (``nbgrader.api.get_alembic_version``): 3-4 s on a
    2-core machine, paid for every new gradebook (each scratch course of the fairness
    proofs, the benchmark and the tests). The same answer, read from nbgrader's
    migration scripts once per process, is used in its place (:func:`read_alembic_head_here`).
    """
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import ALEMBIC_DIR

    config = Config()
    config.set_main_option("script_location", ALEMBIC_DIR)
    head = ScriptDirectory.from_config(config).get_current_head()
    if not head:
        raise RuntimeError(f"no alembic head in {ALEMBIC_DIR}")
    return head


def read_alembic_head_here() -> None:
    """Make nbgrader read its schema's newest revision in this process (:func:`alembic_head`) rather than run
    ``alembic heads``, when it creates a gradebook. Called by the grader's entry points that may create one
    (:class:`autograder.engine.Course`, :class:`Book`), not at import: importing the module changes nothing."""
    nbgrader.api.get_alembic_version = alembic_head


@dataclass
class SubmissionRows:
    """What the gradebook holds about one student's submission of one assignment."""

    student: str
    assignment: str
    timestamp: str | None = None
    # notebook -> grade_id -> {auto_score, manual_score, extra_credit, needs_manual_grade}
    grades: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    # notebook -> grade_id -> {auto_comment, manual_comment}
    comments: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    # notebook -> {flagged, late_submission_penalty}
    notebooks: dict[str, dict[str, Any]] = field(default_factory=dict)


GRADE_FIELDS = ("auto_score", "manual_score", "extra_credit", "needs_manual_grade")
COMMENT_FIELDS = ("auto_comment", "manual_comment")
NOTEBOOK_FIELDS = ("flagged", "late_submission_penalty")
# What autograding writes. Merging copies only these: a grader's manual scores, comments and
# flags in the course's gradebook are never overwritten by a worker's older copy of them.
AUTO_FIELDS = {"auto_score", "needs_manual_grade", "auto_comment", "late_submission_penalty"}


def read_rows(gb: Gradebook, assignment: str, student: str) -> SubmissionRows:
    """The rows of one submission (``MissingEntry`` if it is not in the gradebook)."""
    submission = gb.find_submission(assignment, student)
    rows = SubmissionRows(student, assignment, submission.timestamp.isoformat() if submission.timestamp else None)
    for nb in submission.notebooks:
        name = nb.notebook.name
        rows.grades[name] = {g.name: {f: getattr(g, f) for f in GRADE_FIELDS} for g in nb.grades}
        rows.comments[name] = {c.name: {f: getattr(c, f) for f in COMMENT_FIELDS} for c in nb.comments}
        rows.notebooks[name] = {f: getattr(nb, f) for f in NOTEBOOK_FIELDS}
    return rows


class Book:
    """The course's gradebook, as the grader writes it: every write the grader makes goes through here.

    nbgrader's own autograde step records the kernel's scores (its ``SaveAutoGrades``) and its
    ``generate_assignment`` records the assignment; everything else the grader writes (a submission
    with nothing gradable, the clean room's changed scores, a worker's rows, the class's students
    and their names) is one of these methods, each in one commit. ``tests/grading/test_pipeline.py``
    checks that no other module of the package writes a gradebook.

    Args:
        db_url: the gradebook's URL (SQLite or PostgreSQL).
        course_id: nbgrader's course id.
    """

    def __init__(self, db_url: str, course_id: str) -> None:
        self.db_url, self.course_id = db_url, course_id
        read_alembic_head_here()

    def _open(self) -> Gradebook:
        return Gradebook(self.db_url, self.course_id)

    # -- reading --------------------------------------------------------------------------
    def auto_scores(self, assignment: str, student: str,
                    notebooks: Iterable[str]) -> dict[str, dict[str, float | None] | None]:
        """The kernel's score of each test cell, by notebook: ``{notebook: {grade_id: auto_score}}``, ``None``
        for a notebook the gradebook has no entry for (it was not graded)."""
        found: dict[str, dict[str, float | None] | None] = {}
        with self._open() as gb:
            for name in notebooks:
                try:
                    graded = gb.find_submission_notebook(name, assignment, student)
                except MissingEntry:
                    found[name] = None
                    continue
                found[name] = {g.name: None if g.auto_score is None else float(g.auto_score) for g in graded.grades}
        return found

    def rows(self, assignment: str, student: str) -> SubmissionRows | None:
        """What the gradebook holds about one submission (``None``: nothing, nbgrader recorded nothing)."""
        with self._open() as gb:
            try:
                return read_rows(gb, assignment, student)
            except MissingEntry:
                return None

    def instructor_scores(self, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], float]:
        """nbgrader's score of each ``(student, assignment)`` of ``keys`` whose grades an instructor set by hand.

        A grade an instructor changed in the formgrader has a manual score (it replaces the
        automatic one) or extra credit (added to it); the submission's score in the gradebook,
        what grades.csv and the LMS export show, counts both. Submissions without either, or
        not in the gradebook, are left out.
        """
        from nbgrader.api import Grade

        wanted = set(keys)
        found = {}
        with self._open() as gb:
            for grade in gb.db.query(Grade).filter(Grade.manual_score.is_not(None) | Grade.extra_credit.is_not(None)):
                submission = grade.notebook.assignment
                key = (submission.student.id, submission.assignment.name)
                if key in wanted and (grade.manual_score is not None or grade.extra_credit):
                    found[key] = float(submission.score)
        return found

    # -- writing --------------------------------------------------------------------------
    def record_zero(self, assignment: str, student: str) -> None:
        """A submission with nothing gradable: every test scores 0, as nbgrader does for a missing notebook."""
        with self._open() as gb:
            gb.update_or_create_student(student)
            submission = gb.update_or_create_submission(assignment, student)
            for nb in submission.notebooks:
                for grade in nb.grades:
                    grade.auto_score = 0
                    grade.needs_manual_grade = False
            gb.db.commit()

    def set_auto_scores(self, assignment: str, student: str, cells: Iterable[tuple[str, str, float]]) -> None:
        """Replace the kernel's score of some test cells (``[(notebook, grade_id, points)]``): what the clean
        room changed (:func:`autograder.crosscheck.check`)."""
        with self._open() as gb:
            for notebook, grade_id, points in cells:
                gb.find_grade(grade_id, notebook, assignment, student).auto_score = points
            gb.db.commit()

    def add_students(self, students: Iterable[str]) -> None:
        """Create these students (once each, before workers that share the gradebook write at the same time)."""
        with self._open() as gb:
            for student in sorted(set(students)):
                gb.update_or_create_student(student)

    def set_names(self, students: Iterable[tuple[str, str, str, str]]) -> None:
        """Give the gradebook's students their names and email ((id, first, last, email) each, from the class's
        roster), so that the formgrader shows "Silva, Ana" rather than "None, None"; students not yet in the
        gradebook are added (the formgrader then lists who has not submitted)."""
        with self._open() as gb:
            for student_id, first, last, email in students:
                gb.update_or_create_student(student_id, first_name=first or None, last_name=last or None,
                                            email=email or None)

    def writer(self) -> RowWriter:
        """A writer of worker rows that keeps the gradebook open for a whole run (``with book.writer() as w``)."""
        return RowWriter(self._open())


class RowWriter:
    """The gradebook kept open while a run's submissions arrive from its workers: :meth:`write` records one
    submission's autograded rows (creating the student and submission when needed), in one commit."""

    def __init__(self, gb: Gradebook) -> None:
        self.gb = gb

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.gb.close()

    def write(self, rows: SubmissionRows) -> None:
        gb = self.gb
        gb.update_or_create_student(rows.student)
        kwargs = {"timestamp": rows.timestamp} if rows.timestamp else {}
        gb.update_or_create_submission(rows.assignment, rows.student, **kwargs)
        for cells, find in ((rows.grades, gb.find_grade), (rows.comments, gb.find_comment)):
            for notebook, by_id in cells.items():
                for cell_id, values in by_id.items():
                    row = find(cell_id, notebook, rows.assignment, rows.student)
                    for name, value in values.items():
                        if name in AUTO_FIELDS:
                            setattr(row, name, value)
        for notebook, values in rows.notebooks.items():
            nb = gb.find_submission_notebook(notebook, rows.assignment, rows.student)
            for name, value in values.items():
                if name in AUTO_FIELDS:
                    setattr(nb, name, value)
        gb.db.commit()


def copy_database(source_url: str, dest: Path) -> str:
    """A consistent copy of a SQLite gradebook (SQLite's backup API); returns the copy's URL."""
    src = sqlite_path(source_url)
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(src) as a, sqlite3.connect(dest) as b:
        a.backup(b)
    a.close()
    b.close()
    return f"sqlite:///{dest.resolve()}"


#: The SQLite files that are a worker's scratch copy of a gradebook (:func:`scratch_copy`).
_SCRATCH: set[str] = set()


def scratch_copy(url: str) -> str:
    """Treat the SQLite gradebook at ``url`` as a worker's scratch copy: its commits are not flushed to disk.

    nbgrader commits about 40 times while it autogrades one submission; on a disk each commit waits
    for two flushes (about 5 ms each here). A worker's copy is thrown away when the run ends and the
    rows it holds go to the course's gradebook, which keeps every flush (:class:`RowWriter`), so the
    copy's connections run with ``PRAGMA synchronous=OFF`` and the journal in memory. Returns ``url``.
    """
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    _SCRATCH.add(str(sqlite_path(url).resolve()))
    if not event.contains(Engine, "connect", _unflushed):
        event.listen(Engine, "connect", _unflushed)
    return url


def _unflushed(dbapi_connection: Any, _record: Any) -> None:
    """On each new SQLite connection to a scratch copy, skip the flushes (see :func:`scratch_copy`)."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    files = [row[2] for row in dbapi_connection.execute("PRAGMA database_list")]
    if files and files[0] in _SCRATCH:
        dbapi_connection.execute("PRAGMA synchronous=OFF")
        dbapi_connection.execute("PRAGMA journal_mode=MEMORY")


def gradebook_url(url: str) -> str:
    """``url`` as nbgrader's ``db_url`` wants it: a PostgreSQL URL gets the psycopg2 driver.

    SQLAlchemy 2.1 maps a bare ``postgresql://`` to psycopg 3, which the course does not
    install (it pins psycopg2-binary); ``postgres://`` (Heroku style) is not understood at
    all. SQLite and explicit drivers are left alone.
    """
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg2://" + url[len(prefix):]
    return url


def sqlite_path(url: str) -> Path:
    if not url.startswith("sqlite:///"):
        raise ValueError(f"not a SQLite URL: {url}")
    return Path(url[len("sqlite:///"):].split("?", 1)[0])


def dump(db_url: str, course_id: str) -> dict[str, Any]:
    """Every student, submission, grade and comment of a gradebook, as plain sorted data."""
    out: dict[str, Any] = {"students": [], "submissions": {}}
    with Gradebook(db_url, course_id) as gb:
        out["students"] = sorted(s.id for s in gb.students)
        for assignment in gb.assignments:
            for submission in assignment.submissions:
                rows = read_rows(gb, assignment.name, submission.student.id)
                out["submissions"][f"{submission.student.id}/{assignment.name}"] = {
                    "score": submission.score,
                    "max_score": submission.max_score,
                    "grades": rows.grades,
                    "comments": rows.comments,
                    "notebooks": rows.notebooks,
                }
    return out


def scores(db_url: str, course_id: str, students: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """One row per student and assignment: score and max score (0 when not submitted)."""
    table = []
    with Gradebook(db_url, course_id) as gb:
        wanted = sorted(set(students) if students is not None else {s.id for s in gb.students})
        for assignment in sorted(gb.assignments, key=lambda a: a.name):
            for student in wanted:
                try:
                    submission = gb.find_submission(assignment.name, student)
                except MissingEntry:
                    table.append({"student": student, "assignment": assignment.name, "score": 0.0,
                                  "max_score": float(assignment.max_score), "submitted": False})
                    continue
                table.append({"student": student, "assignment": assignment.name, "score": float(submission.score),
                              "max_score": float(submission.max_score), "submitted": True})
    return table


def export_csv(path: Path, rows: list[dict[str, Any]], extra: dict[tuple[str, str], dict[str, str]] | None = None) -> Path:
    """Write ``student, assignment, score, max_score`` (+ status and notes) to ``path``.

    ``extra`` gives, per (student, assignment), the ``status`` and ``notes`` columns, a
    ``score`` text that replaces the gradebook's (``""`` for work not graded yet), and what `make collect`
    recorded: ``late`` ("late" or empty) and ``set_aside`` (the files set aside, or empty).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    extra = extra or {}
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["student", "assignment", "score", "max_score", "status", "notes", "late", "set_aside"])
        for row in rows:
            more = extra.get((row["student"], row["assignment"]), {})
            status = more.get("status") or ("graded" if row["submitted"] else "not submitted")
            score = more.get("score", f"{row['score']:g}")
            writer.writerow([row["student"], row["assignment"], score, f"{row['max_score']:g}",
                             status, more.get("notes", ""), more.get("late", ""), more.get("set_aside", "")])
    return path
