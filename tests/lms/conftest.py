"""Fixtures: a roster, a Canvas download and a Moodle download (see downloads.py)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.lms.downloads import A04, A05, ROSTER, T_NEW, T_OLD, sample, write_zip


@pytest.fixture
def roster_csv(tmp_path) -> Path:
    path = tmp_path / "roster.csv"
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["student_id", "lms_id", "name", "email", "sis_user_id", "sis_login_id", "section"])
        w.writerows(ROSTER)
    return path


@pytest.fixture
def canvas_zip(tmp_path) -> Path:
    return write_zip(tmp_path / "submissions.zip", [
        (f"silvaana_1001_5551_{A05}.ipynb", sample("emil"), T_OLD),           # first try: the stub
        (f"silvaana_1001_5560_{A05}-1.ipynb", sample("ana"), T_NEW),          # resubmitted: the solution
        ("silvaana_1001_5561_notes.txt", b"my notes", T_NEW),                  # stray file
        (f"pereirabruno_LATE_1002_5570_{A05}.ipynb", sample("bruno"), T_NEW),  # late
        (f"wongchen_1003_5580_{A05}.ipynb", sample("chen"), T_NEW),
        (f"wongchen_1003_5581_{A04}.ipynb", sample("chen", A04), T_NEW),       # another assignment
        (f"okafordara_1004_5590_{A05}.ipynb", sample("ana"), T_NEW),           # corrupt in the zip
        (f"nobodyknown_1999_5599_{A05}.ipynb", sample("ana"), T_NEW),          # not in the roster
    ], corrupt=f"okafordara_1004_5590_{A05}.ipynb")


@pytest.fixture
def moodle_zip(tmp_path) -> Path:
    folder = "{}_{}_assignsubmission_file_/"
    return write_zip(tmp_path / "moodle-05.zip", [
        (folder.format("Ana Silva", 301) + f"{A05}.ipynb", sample("emil"), T_OLD),
        (folder.format("Ana Silva", 301) + f"{A05} (1).ipynb", sample("ana"), T_NEW),
        (folder.format("Bruno Pereira", 302) + f"{A05}.ipynb", sample("bruno"), T_NEW),
        (folder.format("Chen Wong", 303) + f"{A05}.ipynb", sample("chen"), T_NEW),
        (folder.format("Chen Wong", 303) + "readme.txt", b"see notebook", T_NEW),
        (folder.format("Zed Unknown", 399) + f"{A05}.ipynb", sample("ana"), T_NEW),
    ])
