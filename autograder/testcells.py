"""Reading the cells of an assignment: test descriptions, hidden test lines, redaction.

Everything here reads notebooks (``nbformat``), never runs or grades them:

- :func:`describe_test` / :func:`test_descriptions`: what each test cell checks (the
  first line of its docstring) and its points, from the assignment's source;
- :func:`hidden_lines` / :func:`hidden_code`: the lines between the hidden-test markers;
- :func:`redact`: a message with every hidden test line removed, the grading machine's
  library paths and folders shortened and its length capped, so no feedback ever shows hidden test
  source or where the grader's Python lives;
- :func:`grade_id`, :func:`is_test`, :func:`replace_answer`: small helpers on cells.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
from functools import lru_cache
from pathlib import Path

import nbformat

from . import pyast
from .course import ROOT, SOLUTIONS

HIDDEN = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
MAX_MESSAGE = 1000
# Where a library file lives on the grading machine, up to the library's own folder:
# "/srv/grader/.venv/lib/python3.11/site-packages/" before "langchain_core/tools/base.py", or
# "/usr/lib/python3.11/" before "asyncio/tasks.py". A traceback a learner's code returns quotes
# such paths; the feedback keeps the part that means something to the learner.
LIBRARY_PATH = re.compile(r"""(?:/[^/\s"'<>]+)+?/(?:lib/python3\.\d+/(?:site|dist)-packages|(?:site|dist)-packages|lib/python3\.\d+)/""")
# What is left of the grading machine's own folders (a quote the test cut mid-path, a path
# outside the libraries): its Python's prefixes and the course's folder, each shown as "…".
MACHINE_FOLDERS = tuple(sorted({folder for path in (sys.prefix, sys.base_prefix, sys.exec_prefix, str(ROOT))
                                for folder in (path, os.path.realpath(path)) if len(folder) > 4},
                               key=len, reverse=True))


def describe_test(source: str) -> str:
    """The first line of a test cell's docstring (what behaviour it checks)."""
    try:
        tree = pyast.parse(source)
    except SyntaxError:
        tree = None
    if tree is not None:
        doc = ast.get_docstring(tree)
        if doc:
            return doc.strip().splitlines()[0]
    for line in source.splitlines():
        line = line.strip()
        if line.startswith("#") and len(line) > 2:
            return line.lstrip("# ").strip()
    return ""


def test_descriptions(assignment: str, source: Path = SOLUTIONS) -> dict[str, tuple[str, float]]:
    """``grade_id -> (description, points)`` for every test cell of an assignment's source."""
    found: dict[str, tuple[str, float]] = {}
    for nb_path in sorted((source / assignment).glob("*.ipynb")):
        found.update(_descriptions(str(nb_path), nb_path.stat().st_mtime))
    return found


@lru_cache(maxsize=64)  # read three times per submission graded (staging, read-back, diagnosis)
def _descriptions(nb_path: str, mtime: float) -> tuple[tuple[str, tuple[str, float]], ...]:
    """``(grade_id, (description, points))`` of one source notebook's test cells (cached until the file changes)."""
    nb = nbformat.read(nb_path, as_version=4)
    return tuple((cell.metadata["nbgrader"]["grade_id"],
                  (describe_test(cell.source), float(cell.metadata["nbgrader"].get("points", 0))))
                 for cell in nb.cells
                 if cell.metadata.get("nbgrader", {}).get("grade") and cell.cell_type == "code")


def hidden_lines(source: str) -> list[str]:
    """The stripped lines between the hidden-test markers of a cell's source."""
    lines, inside = [], False
    for line in source.splitlines():
        stripped = line.strip()
        if stripped == HIDDEN[0]:
            inside = True
        elif stripped == HIDDEN[1]:
            inside = False
        elif inside and stripped:
            lines.append(stripped)
    return lines


@lru_cache(maxsize=64)
def _hidden_code(nb_path: str, mtime: float) -> tuple[str, ...]:
    """Lines of hidden tests that are code (not a message string) and long enough to be recognisable."""
    nb = nbformat.read(nb_path, as_version=4)
    found: set[str] = set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            for line in hidden_lines(cell.source):
                if len(line) >= 12 and not re.match(r"^[rbfu]*[\"']", line, re.I) and not line.startswith("#"):
                    found.add(line)
    return tuple(sorted(found))


def hidden_code(assignment: str, source: Path = SOLUTIONS) -> tuple[str, ...]:
    """The recognisable hidden test lines of an assignment (see :func:`redact`)."""
    lines: list[str] = []
    for nb_path in sorted((source / assignment).glob("*.ipynb")):
        lines += _hidden_code(str(nb_path), nb_path.stat().st_mtime)
    return tuple(lines)


def redact(message: str, hidden: tuple[str, ...]) -> str:
    """``message`` with any hidden test line removed, library paths shortened, the grading machine's folders
    replaced by "…" and its length capped."""
    for line in hidden:
        if line in message:
            message = message.replace(line, "[hidden test]")
    message = LIBRARY_PATH.sub("", message)
    for folder in MACHINE_FOLDERS:
        message = message.replace(folder, "…")
    message = message.strip()
    if len(message) > MAX_MESSAGE:
        message = message[:MAX_MESSAGE] + " ..."
    return message


def grade_id(cell: nbformat.NotebookNode) -> str | None:
    """The nbgrader id of a cell (``None`` for a cell nbgrader does not track)."""
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def is_test(meta: dict) -> bool:
    """Whether nbgrader metadata ``meta`` marks a test cell (graded, not an answer)."""
    return bool(meta.get("grade")) and not meta.get("solution")


def replace_answer(nb: nbformat.NotebookNode, cell_id: str, code: str) -> nbformat.NotebookNode:
    """A copy of ``nb`` whose answer cell ``cell_id`` holds ``code`` (as a learner would type it).

    Raises:
        KeyError: no cell has that grade id.
    """
    nb_copy = nbformat.from_dict(json.loads(json.dumps(nb)))
    for cell in nb_copy.cells:
        if grade_id(cell) == cell_id:
            cell.source = code
            return nb_copy
    raise KeyError(f"no cell with grade_id {cell_id!r}")
