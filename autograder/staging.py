"""Staging: a submission copied, repaired, into a private folder before nbgrader sees it.

The submissions folder is never modified. :func:`stage` copies one student's
submission (:class:`autograder.pipeline.Submission`) into its staging folder, where

- a renamed notebook is taken under its expected name (when exactly one spare
  notebook holds its cells),
- a notebook that cannot be read (not text, not JSON, not a notebook) is set aside,
- deleted test cells (and read-only code cells) are put back from the released
  version, and the nbgrader metadata of known cells is restored (:func:`repair`),
- ``timestamp.txt`` is kept only when it is a date.

Each repair is recorded as a :class:`~autograder.results.Problem` for the report.
"""

from __future__ import annotations

import copy
import json
import shutil
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

import nbformat

from .problems import Problem, problem, words
from .testcells import grade_id, is_test

if TYPE_CHECKING:
    from .pipeline import Submission


def read_notebook(path: Path) -> tuple[nbformat.NotebookNode | None, str]:
    """A submitted notebook, or ``None`` and why it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        return None, f"it is not text ({err.reason})"
    except OSError as err:
        return None, f"it cannot be read ({err.strerror})"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        # json's own text may end in "at" ("Unterminated string starting at"): say where once.
        what = err.msg.removesuffix(" at")
        return None, f"it is not valid JSON ({what[:1].lower()}{what[1:]} at line {err.lineno}, column {err.colno})"
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        return None, "it is JSON but not a notebook (no list of cells)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nb = nbformat.reads(text, as_version=4)
    except Exception as err:  # noqa: BLE001 - nbformat raises many kinds for malformed notebooks
        return None, f"it is not a valid notebook ({type(err).__name__}: {str(err).splitlines()[0][:200]})"
    return nb, ""


def stage(sub: Submission) -> list[str]:
    """Copy a submission into ``sub.staged``, repaired; returns the notebooks that can be graded.

    Args:
        sub: the submission (:class:`autograder.pipeline.Submission`); what was wrong with it is
            appended to ``sub.problems``.
    """
    raw, dest, problems, assignment = sub.submitted, sub.staged, sub.problems, sub.assignment.name
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    if not raw.is_dir():
        problems.append(problem("nothing_submitted", assignment=assignment))
        return []
    expected = sub.assignment.notebooks
    present = sorted(p for p in raw.glob("*.ipynb") if p.is_file())
    spare = [p for p in present if p.stem not in expected]
    staged = []
    for name in expected:
        path = raw / f"{name}.ipynb"
        if not path.exists():
            path = _renamed(sub.assignment.released[name], spare)
            if path is None:
                files = sorted(p.name for p in raw.iterdir() if not p.name.startswith("."))
                found = words("folder_holds", files=", ".join(files)) if files else words("folder_empty")
                problems.append(problem("missing_notebook", name=name, found=found))
                continue
            spare.remove(path)
            problems.append(problem("renamed", name=name, graded=path.name))
        nb, why = read_notebook(path)
        if nb is None:
            problems.append(problem("invalid_notebook", file=path.name, why=why))
            continue
        nb = repair(nb, sub.assignment.released[name], sub.assignment.tests, problems)
        nbformat.write(nb, dest / f"{name}.ipynb")
        staged.append(name)
    stamp = raw / "timestamp.txt"
    if staged and stamp.is_file():
        from nbgrader.utils import parse_utc

        try:
            parse_utc(stamp.read_text().strip())
            shutil.copy(stamp, dest / "timestamp.txt")
        except (ValueError, OverflowError):
            problems.append(problem("bad_timestamp"))
    return staged


def _renamed(released: nbformat.NotebookNode, spare: list[Path]) -> Path | None:
    """The one spare notebook that holds this notebook's cells (a renamed copy), if exactly one does."""
    ids = {grade_id(c) for c in released.cells} - {None}
    matches = []
    for path in spare:
        nb, _ = read_notebook(path)
        if nb is not None and ids & {grade_id(c) for c in nb.cells}:
            matches.append(path)
    return matches[0] if len(matches) == 1 else None


def repair(nb: nbformat.NotebookNode, released: nbformat.NotebookNode,
           descriptions: dict[str, tuple[str, float]], problems: list[Problem]) -> nbformat.NotebookNode:
    """Restore deleted test (and locked code) cells and the nbgrader metadata of known cells.

    Args:
        nb: the submitted notebook (changed in place and returned).
        released: the released version of the same notebook.
        descriptions: ``grade_id -> (description, points)`` of the assignment's tests.
        problems: every repair is appended here.
    """
    order = [c for c in released.cells if grade_id(c)]
    known = {grade_id(c): c for c in order}
    seen: set[str] = set()
    for cell in nb.cells:
        gid = grade_id(cell)
        if gid in known and gid not in seen:
            seen.add(gid)
            ref = known[gid]
            meta = ref.metadata["nbgrader"]
            if cell.metadata.get("nbgrader") != meta or cell.cell_type != ref.cell_type:
                problems.append(problem("metadata_changed", cell=gid))
                cell.metadata["nbgrader"] = copy.deepcopy(meta)
            if is_test(meta) and cell.source.strip() != ref.source.strip():
                desc = descriptions.get(gid, (gid, 0))[0] or gid
                problems.append(problem("test_edited", test=desc))
    for position, ref in enumerate(order):
        gid = grade_id(ref)
        if gid in seen:
            continue
        meta = ref.metadata["nbgrader"]
        if meta.get("solution") and not meta.get("grade"):
            problems.append(problem("answer_deleted", cell=gid))
            continue
        if not (is_test(meta) or (meta.get("locked") and ref.cell_type == "code")):
            continue
        at = _insert_at(nb, order, position)
        nb.cells.insert(at, copy.deepcopy(ref))
        seen.add(gid)
        if is_test(meta):
            desc = descriptions.get(gid, (gid, 0))[0] or gid
            problems.append(problem("test_deleted", test=desc))
        else:
            problems.append(problem("locked_deleted", cell=gid))
    return nb


def _insert_at(nb: nbformat.NotebookNode, order: list, position: int) -> int:
    """Where released cell ``order[position]`` goes: after the closest earlier known cell present."""
    index = {grade_id(c): i for i, c in enumerate(nb.cells) if grade_id(c)}
    for ref in reversed(order[:position]):
        if grade_id(ref) in index:
            return index[grade_id(ref)] + 1
    for ref in order[position + 1:]:
        if grade_id(ref) in index:
            return index[grade_id(ref)]
    return len(nb.cells)
