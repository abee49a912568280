"""The class roster: one CSV row per student, mapping LMS ids to the course's student ids.

Columns (a header row; the first four are required, the others are used when present):

    student_id    the course's id: the folder name under the class's submitted/
    lms_id        the student's id in the LMS: Canvas's user id (the number in its file
                  names and the gradebook's "ID" column); in Moodle, the participant id of
                  the download's folder names (Moodle matches by full name when it is empty)
    name          the full name as the LMS shows it ("Ana Silva")
    email         the LMS account's email address (Moodle's grade import matches on it)
    sis_user_id, sis_login_id, section     Canvas gradebook columns, copied into its CSV

The LMS's own gradebook exports are rosters too, read as they are downloaded (:func:`Roster.load`
tells them apart by their header):

    Canvas   Grades > Export: "Student" ("Silva, Ana"), "ID" (the user id: lms_id), "SIS User ID",
             "SIS Login ID", "Section", then a column per assignment; its "Points Possible" row
             and Canvas's "Test Student" are skipped. student_id: the SIS Login ID (before any "@"),
             else the SIS User ID, else the name as Canvas's file names write it ("silvaana").
    Moodle   Grades > Export > Plain text file: "First name", "Last name", "ID number",
             "Institution", "Department", "Email address", then a column per grade item.
             student_id: the ID number, else the email address before "@"; lms_id is empty
             (Moodle's download is matched by full name, its participant ids change).
"""

from __future__ import annotations

import csv
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

REQUIRED = ("student_id", "lms_id", "name", "email")
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
MOODLE_COLUMNS = ("First name", "Last name", "ID number", "Institution", "Department", "Email address")
FORMATS = (f"ours ({', '.join(REQUIRED)}), Canvas's gradebook export ({', '.join(CANVAS_COLUMNS)}, ...) or "
           f"Moodle's grade export ({', '.join(MOODLE_COLUMNS)}, ...)")


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
    first_name: str = ""  # as the LMS splits the name (Canvas, Moodle); else the name's first word
    last_name: str = ""

    def names(self) -> tuple[str, str]:
        """(first name, last name), as nbgrader's gradebook (the formgrader) shows them."""
        if self.first_name or self.last_name:
            return self.first_name, self.last_name
        first, _, last = self.name.partition(" ")
        return first, last


def _key(name: str) -> str:
    """A full name compared the way people read it: accents, case and spacing aside."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return " ".join(plain.lower().replace("_", " ").split())


def _folder_name(text: str) -> str:
    """A student id usable as a folder name: letters, digits, ".", "-" and "_" only."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^\w.-]+", "_", plain).strip("._") or ""


def _from_canvas(row: dict[str, str]) -> dict[str, str] | None:
    """Our roster's row for a row of Canvas's gradebook export (None: not a student's row)."""
    sortable, lms_id = row.get("Student", ""), row.get("ID", "")
    if not lms_id.isdigit() or sortable in ("Student, Test", "Test Student"):
        return None  # "Points Possible", the posting-policy row, Canvas's test student
    last, _, first = (part.strip() for part in sortable.partition(","))
    if not first:
        first, _, last = sortable.partition(" ")
    login, sis_id = row.get("SIS Login ID", ""), row.get("SIS User ID", "")
    student_id = _folder_name(login.split("@")[0]) or _folder_name(sis_id) or \
        _folder_name(re.sub(r"[^\w]", "", sortable.lower()))
    return {"student_id": student_id, "lms_id": lms_id, "name": f"{first} {last}".strip(),
            "email": login if "@" in login else "", "sis_user_id": sis_id, "sis_login_id": login,
            "section": row.get("Section", ""), "first_name": first, "last_name": last}


def _from_moodle(row: dict[str, str]) -> dict[str, str] | None:
    """Our roster's row for a row of Moodle's grade export."""
    first, last, email = row.get("First name", ""), row.get("Last name", ""), row.get("Email address", "")
    student_id = _folder_name(row.get("ID number", "")) or _folder_name(email.split("@")[0])
    if not student_id:
        return None
    return {"student_id": student_id, "lms_id": "", "name": f"{first} {last}".strip(), "email": email,
            "first_name": first, "last_name": last}


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
        """Read a roster CSV (UTF-8, a byte-order mark is fine): ours, or Canvas's or Moodle's gradebook
        export as downloaded. Raises :class:`RosterError`."""
        try:
            with Path(path).open(newline="", encoding="utf-8-sig") as fh:
                reader = csv.DictReader(fh)
                header = [h.strip() for h in reader.fieldnames or []]
                reader.fieldnames = header
                rows = [{k: (v or "").strip() for k, v in row.items() if k} for row in reader]
        except (OSError, UnicodeDecodeError, csv.Error) as err:
            raise RosterError(f"cannot read the roster {path}: {err}") from err
        if all(c in header for c in ("Student", "ID")):
            rows = [r for r in map(_from_canvas, rows) if r]
        elif all(c in header for c in ("First name", "Last name", "Email address")):
            rows = [r for r in map(_from_moodle, rows) if r]
        else:
            missing = [c for c in REQUIRED if c not in header]
            if missing:
                raise RosterError(f"{path}: not a roster: missing the columns {missing}. A roster is {FORMATS}")
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
