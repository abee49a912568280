"""Moving grades between nbgrader gradebooks, and reading them out.

Parallel grading never lets two processes write the same SQLite file: every
worker autogrades into its own scratch copy of the gradebook, reads back what
nbgrader recorded for the submission it graded (:func:`read_rows`: the same
fields nbgrader's ``SaveAutoGrades`` writes) and hands those rows to the parent
process, the only writer of the course's gradebook (:func:`write_rows`). The rows
are plain data, so they can come from another process or another machine.

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
    migration scripts once per process, is installed in its place below.
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


def write_rows(gb: Gradebook, rows: SubmissionRows) -> None:
    """Record a submission's autograded rows (creating the student and submission when needed), in one commit."""
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


def set_names(db_url: str, course_id: str, students: Iterable[tuple[str, str, str, str]]) -> None:
    """Give the gradebook's students their names and email ((id, first, last, email) each, from the class's
    roster), so that the formgrader shows "Silva, Ana" rather than "None, None"; students not yet in the
    gradebook are added (the formgrader then lists who has not submitted)."""
    with Gradebook(db_url, course_id) as gb:
        for student_id, first, last, email in students:
            gb.update_or_create_student(student_id, first_name=first or None, last_name=last or None,
                                        email=email or None)


def record_zero(gb: Gradebook, assignment: str, student: str) -> None:
    """A submission with nothing gradable: every test scores 0, as nbgrader does for a missing notebook."""
    gb.update_or_create_student(student)
    submission = gb.update_or_create_submission(assignment, student)
    for nb in submission.notebooks:
        for grade in nb.grades:
            grade.auto_score = 0
            grade.needs_manual_grade = False
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
