"""LMS downloads built in the tests from the sample class: a Canvas zip and a Moodle zip.

Both hold, for assignment 05: Ana's two submissions (the stub first, then the solution),
Bruno's late one, Chen's (a typical mistake) plus a notebook of assignment 04, a student
who is not in the roster, and a stray file. The Canvas zip also has a corrupt entry.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from autograder.course import SUBMITTED

A05 = "06_fallback_and_degradation"
A04 = "05_retry_with_backoff"
T_OLD, T_NEW = (2026, 3, 1, 10, 0, 0), (2026, 3, 2, 18, 30, 0)

ROSTER = [
    # student_id, lms_id (Canvas user id), name, email, sis_user_id, sis_login_id, section
    ("ana", "1001", "Ana Silva", "ana@uni.example", "S-01", "asilva", "A"),
    ("bruno", "1002", "Bruno Pereira", "bruno@uni.example", "S-02", "bpereira", "A"),
    ("chen", "1003", "Chen Wong", "chen@uni.example", "S-03", "cwong", "B"),
    ("dara", "1004", "Dara Okafor", "dara@uni.example", "S-04", "dokafor", "B"),
]


def sample(student: str, assignment: str = A05) -> bytes:
    return (SUBMITTED / student / assignment / f"{assignment}.ipynb").read_bytes()


def write_zip(path: Path, entries: list[tuple[str, bytes, tuple]], corrupt: str | None = None) -> Path:
    """A zip of (name, data, time); the entry named ``corrupt`` gets a flipped byte (its CRC no longer matches)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:
        for name, data, when in entries:
            zf.writestr(zipfile.ZipInfo(name, when), data)
    if corrupt:
        raw = bytearray(path.read_bytes())
        with zipfile.ZipFile(path) as zf:
            info = zf.getinfo(corrupt)
        start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
        raw[start + 10] ^= 0xFF
        path.write_bytes(bytes(raw))
    return path
