"""A worker's scratch copy of the gradebook skips the disk flushes; the course's own gradebook keeps them."""

from __future__ import annotations

from nbgrader.api import Gradebook
from sqlalchemy import text

from autograder import gradebook as gbook


def pragmas(url: str) -> tuple[int, str]:
    with Gradebook(url, "course") as gb:
        return (gb.db.execute(text("PRAGMA synchronous")).scalar(),
                gb.db.execute(text("PRAGMA journal_mode")).scalar())


def test_only_the_scratch_copy_runs_unflushed(tmp_path):
    gbook.read_alembic_head_here()
    course = f"sqlite:///{tmp_path / 'gradebook.db'}"
    with Gradebook(course, "course") as gb:
        gb.add_student("ana")
    copy = gbook.scratch_copy(gbook.copy_database(course, tmp_path / "worker" / "gradebook-1.db"))
    assert pragmas(copy) == (0, "memory")  # OFF, the journal in memory
    synchronous, journal = pragmas(course)
    assert synchronous != 0 and journal != "memory"  # SQLite's defaults: FULL, a journal file
    with Gradebook(copy, "course") as gb:  # the copy still holds and takes grades
        gb.add_student("bob")
        assert sorted(s.id for s in gb.students) == ["ana", "bob"]
