"""A new gradebook costs no `alembic heads` subprocess: the schema revision is read in-process, and is nbgrader's."""

from __future__ import annotations

import subprocess

import nbgrader.api
import nbgrader.dbutil

from autograder import gradebook as gbook


def test_the_revision_is_the_one_alembic_prints(tmp_path):
    with nbgrader.dbutil._temp_alembic_ini("sqlite:////tmp/gradebook.db") as ini:
        printed = subprocess.check_output(["alembic", "-c", ini, "heads"], text=True)
    assert gbook.alembic_head() == printed.split()[0]


def test_a_new_gradebook_runs_no_subprocess(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError(f"a subprocess was started: {args}")

    monkeypatch.setattr(subprocess, "check_output", refuse)
    monkeypatch.setattr(nbgrader.api.sp, "check_output", refuse)
    with nbgrader.api.Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}", "course") as gb:
        version = gb.db.execute(nbgrader.api.text("SELECT version_num FROM alembic_version")).scalar()
    assert version == gbook.alembic_head()
