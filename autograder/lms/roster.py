"""The class roster: one CSV row per student, mapping LMS ids to the course's student ids.

Columns (a header row; the first four are required, the others are used when present):

    student_id    the course's id: the folder name under the class's submitted/
    lms_id        the student's id in the LMS: Canvas's user id (the number in its file
                  names and the gradebook's "ID" column); in Moodle, the participant id of
                  the download's folder names (Moodle matches by full name when it is empty)
    name          the full name as the LMS shows it ("Ana Silva")
    email         the LMS account's email address (Moodle's grade import matches on it)
    sis_user_id, sis_login_id, section     Canvas gradebook columns, copied into its CSV
"""

from __future__ import annotations

import csv
import unicodedata
from dataclasses import dataclass
from pathlib import Path

REQUIRED = ("student_id", "lms_id", "name", "email")


class RosterError(ValueError):
    """The roster cannot be read or is inconsistent."""


@dataclass(frozen=True)
class Student:
    student_id: str
    lms_id: str
    name: str
    email: str
    sis_user_id: str = ""
    sis_login_id: str = ""
    section: str = ""


def _key(name: str) -> str:
    """A full name compared the way people read it: accents, case and spacing aside."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return " ".join(plain.lower().replace("_", " ").split())


class Roster:
    """The students of a class, in the roster file's order, found by LMS id or by full name."""

    def __init__(self, students: list[Student]):
        self.students = list(students)
        self._by_id = {s.student_id: s for s in self.students}
        self._by_lms = {s.lms_id: s for s in self.students if s.lms_id}
        self._by_name: dict[str, list[Student]] = {}
        for s in self.students:
            self._by_name.setdefault(_key(s.name), []).append(s)

    @classmethod
    def load(cls, path: Path) -> Roster:
        """Read a roster CSV (UTF-8, a byte-order mark is fine). Raises :class:`RosterError`."""
        try:
            with Path(path).open(newline="", encoding="utf-8-sig") as fh:
                reader = csv.DictReader(fh)
                missing = [c for c in REQUIRED if c not in (reader.fieldnames or [])]
                if missing:
                    raise RosterError(f"{path}: the roster needs the columns {', '.join(REQUIRED)}; missing {missing}")
                rows = [{k: (v or "").strip() for k, v in row.items() if k} for row in reader]
        except OSError as err:
            raise RosterError(f"cannot read the roster {path}: {err}") from err
        fields = Student.__dataclass_fields__
        students = [Student(**{k: v for k, v in row.items() if k in fields}) for row in rows if row.get("student_id")]
        for attr in ("student_id", "lms_id"):
            values = [getattr(s, attr) for s in students if getattr(s, attr)]
            twice = sorted({v for v in values if values.count(v) > 1})
            if twice:
                raise RosterError(f"{path}: {attr} must be unique; repeated: {twice}")
        return cls(students)

    def get(self, student_id: str) -> Student | None:
        return self._by_id.get(student_id)

    def find(self, lms_id: str | None = None, name: str | None = None) -> Student | None:
        """The student with this LMS id, else the only one with this full name (None: unknown)."""
        if lms_id and lms_id in self._by_lms:
            return self._by_lms[lms_id]
        same = self._by_name.get(_key(name or ""), [])
        return same[0] if name and len(same) == 1 else None
