"""The course works here: notebooks are valid, every lesson runs offline, every exercise
sets up, its test cells are all there, and Binder installs the same versions as `make setup`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest

from toolfaults.progress import execute_notebook

ROOT = Path(__file__).resolve().parent.parent
COURSE = ROOT / "course"
# The lessons of every language the edition has: course/ (English) and course/<language>/ (es: Spanish).
LANGUAGES = [COURSE, *sorted(p for p in COURSE.iterdir() if p.is_dir() and not p.name.startswith("."))]
LESSONS = sorted(p for folder in LANGUAGES for pattern in ("[0-9][0-9]_*.ipynb", "A[0-9]*_*.ipynb")
                 for p in folder.glob(pattern))
EXERCISES = sorted((ROOT / "exercises").glob("*/*.ipynb"))
# What the exercises held when this edition was written: the ids of their test cells.
EDITION = json.loads((ROOT / ".edition.json").read_text())
PIN = re.compile(r"^\s*-?\s*([A-Za-z0-9_.\-\[\]]+)\s*==\s*([^\s#]+)")


def _run(nb, folder: Path, monkeypatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # A kernel that does not start on a busy machine is started again (not the notebook's fault).
    execute_notebook(nb, timeout=120, kernel_name="python3", allow_errors=True,
                     resources={"metadata": {"path": str(folder)}})


def _name(path: Path) -> str:
    """A notebook's test id: a lesson's path in course/ (``es/05_retry_with_backoff``), an exercise's name."""
    return path.relative_to(COURSE).with_suffix("").as_posix() if path.is_relative_to(COURSE) else path.stem


def _errors(cell) -> list[str]:
    return [f"{o.get('ename')}: {o.get('evalue')}" for o in cell.get("outputs", []) if o.get("output_type") == "error"]


@pytest.mark.parametrize("path", LESSONS + EXERCISES, ids=_name)
def test_notebook_is_valid(path: Path):
    """Every notebook is a valid Jupyter notebook (an editor that broke the JSON shows up here)."""
    nbformat.validate(nbformat.read(path, as_version=4))


@pytest.mark.parametrize("path", LESSONS, ids=_name)
def test_lesson_runs_offline(path: Path, monkeypatch):
    """The lesson runs top to bottom with no key and no network; only the cells that show a failure on purpose raise."""
    nb = nbformat.read(path, as_version=4)
    _run(nb, path.parent, monkeypatch)
    unexpected = [(i, e) for i, c in enumerate(nb.cells) if c.cell_type == "code"
                  and "raises-exception" not in c.metadata.get("tags", []) for e in _errors(c)]
    assert not unexpected, f"{path.name}: cells raised errors: {unexpected}"


def test_every_lesson_is_run():
    """Every lesson of every language in course/ (course/es/ too) is one of the lessons run above."""
    found = {p for p in COURSE.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts}
    missing = sorted(p.relative_to(ROOT).as_posix() for p in found - set(LESSONS))
    assert not missing, f"lessons that `make test` does not run: {missing}"


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.stem)
def test_exercise_sets_up(path: Path, monkeypatch):
    """The exercise's set-up cells (everything before your first answer) run without an error."""
    nb = nbformat.read(path, as_version=4)
    first_answer = next((i for i, c in enumerate(nb.cells) if c.metadata.get("nbgrader", {}).get("solution")),
                        len(nb.cells))
    nb.cells = nb.cells[:first_answer]
    _run(nb, path.parent, monkeypatch)
    failed = [(i, e) for i, c in enumerate(nb.cells) if c.cell_type == "code" for e in _errors(c)]
    assert not failed, f"{path.name}: the set-up cells raised errors, so the exercise cannot run here: {failed}"


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: p.stem)
def test_exercise_keeps_its_test_cells(path: Path):
    """Every test cell of the exercise is still there (a deleted test cell is put back when it is graded)."""
    name = path.relative_to(ROOT).as_posix()
    expected = set(EDITION["test_cells"].get(name, []))
    found = {c.metadata.get("nbgrader", {}).get("grade_id") for c in nbformat.read(path, as_version=4).cells}
    missing = sorted(expected - found)
    assert not missing, (f"{name}: test cells {missing} are missing; restore them "
                         f"(`git checkout -p {name}`, or copy them from the repository's page)")


def test_binder_installs_what_make_setup_installs():
    """environment.yml (Binder) pins exactly the versions of requirements.txt (`make setup`)."""
    def pins(lines):
        return {m.group(1).lower(): m.group(2) for m in map(PIN.match, (x.split("#", 1)[0] for x in lines)) if m}

    req = pins((ROOT / "requirements.txt").read_text().splitlines())
    env = pins((ROOT / "environment.yml").read_text().split("- pip:", 1)[1].splitlines())
    assert req and env == req, f"environment.yml and requirements.txt disagree: {env} vs {req}"
