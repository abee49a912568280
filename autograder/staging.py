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

from .results import Problem
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
        problems.append(Problem("missing_notebook", f"nothing was submitted for {assignment}", True,
                                f"no se entregó nada para {assignment}"))
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
                found = f" (the folder holds {', '.join(files)})" if files else " (the folder is empty)"
                found_es = f" (la carpeta contiene {', '.join(files)})" if files else " (la carpeta está vacía)"
                problems.append(Problem("missing_notebook",
                                        f"{name}.ipynb was not submitted{found}: its tests score 0", True,
                                        f"no se entregó {name}.ipynb{found_es}: sus tests puntúan 0"))
                continue
            spare.remove(path)
            problems.append(Problem("renamed", f"{name}.ipynb was missing; {path.name} was graded in its place "
                                               "(the notebook was renamed)",
                                    text_es=f"faltaba {name}.ipynb; se corrigió {path.name} en su lugar "
                                            "(el notebook se había renombrado)"))
        nb, why = read_notebook(path)
        if nb is None:
            problems.append(Problem("invalid_notebook", f"{path.name} could not be graded: {why}", True,
                                    f"no se pudo corregir {path.name}: {why}"))
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
            problems.append(Problem("bad_timestamp", "timestamp.txt is not a date; it was ignored",
                                    text_es="timestamp.txt no es una fecha; se ignoró"))
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
                problems.append(Problem("metadata_changed", f"the grading metadata of cell {gid} was changed; "
                                                            "the grader restored it",
                                        text_es=f"se cambiaron los metadatos de corrección de la celda {gid}; "
                                                "el corrector los restauró"))
                cell.metadata["nbgrader"] = copy.deepcopy(meta)
            if is_test(meta) and cell.source.strip() != ref.source.strip():
                desc = descriptions.get(gid, (gid, 0))[0] or gid
                problems.append(Problem("test_edited", f"the read-only test \"{desc}\" was edited; "
                                                       "the grader ran the original test",
                                        text_es=f"se editó el test de solo lectura \"{desc}\"; "
                                                "el corrector ejecutó el test original"))
    for position, ref in enumerate(order):
        gid = grade_id(ref)
        if gid in seen:
            continue
        meta = ref.metadata["nbgrader"]
        if meta.get("solution") and not meta.get("grade"):
            problems.append(Problem("answer_deleted", f"the answer cell {gid} was deleted; "
                                                      "the tests ran without it",
                                    text_es=f"se borró la celda de respuesta {gid}; los tests se ejecutaron sin ella"))
            continue
        if not (is_test(meta) or (meta.get("locked") and ref.cell_type == "code")):
            continue
        at = _insert_at(nb, order, position)
        nb.cells.insert(at, copy.deepcopy(ref))
        seen.add(gid)
        if is_test(meta):
            desc = descriptions.get(gid, (gid, 0))[0] or gid
            problems.append(Problem("test_deleted", f"the test \"{desc}\" was deleted; the grader put it back "
                                                    "and ran it",
                                    text_es=f"se borró el test \"{desc}\"; el corrector lo volvió a poner "
                                            "y lo ejecutó"))
        else:
            problems.append(Problem("locked_deleted", f"the read-only cell {gid} was deleted; "
                                                      "the grader put it back",
                                    text_es=f"se borró la celda de solo lectura {gid}; el corrector la volvió a poner"))
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
