"""The practice exercises of lessons 1, 2, 3 and 8 (issue 42): visible tests only, found by `make progress`.

Each is an nbgrader assignment like the graded ones (``solutions/`` → ``exercises/``), in both editions,
but no test cell carries points: :func:`autograder.course.is_practice` says so, and ``make grade`` leaves
it out. The checks here: the four exist in both editions and are practice, and ``test_rules.py`` reads them
(numbered rules, each test naming one, the Spanish edition the same: COURSE_SPEC §5); every test gives a hint; ``make progress``
finds their parts in the released notebooks; the solution is "done" and the released stub "not started",
proven by ``tests/progress/test_progress.py``, which runs every exercise of ``solutions/`` and ``exercises/``
as `make progress` does (checked here: the practice ones are among them); the catalogued wrong answers are
proven by ``test_visible_parts.py``.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from autograder.course import assignments, graded_assignments, is_practice
from tests.exercises.test_rules import NOTEBOOKS, is_test_cell
from toolfaults.progress import exercise_notebooks, find_parts

ROOT = Path(__file__).resolve().parents[2]
SOLUTIONS, EXERCISES = ROOT / "solutions", ROOT / "exercises"
#: stem -> the parts `make progress` shows (English edition).
PRACTICE = {
    "01_five_error_types": ["Part A: classify"],
    "02_is_error_protocol": ["Part A: answer_tool_calls"],
    "03_errors_for_the_model": ["Part A: to_contract"],
    "08_troubleshooting_and_measuring": ["Part A: metrics", "Part B: checks"],
}
NAMES = [f"{stem}{suffix}" for stem in PRACTICE for suffix in ("", "_es")]


def _solution(name: str) -> Path:
    return SOLUTIONS / name / f"{name}.ipynb"


def test_the_practice_exercises_exist_in_both_editions_and_are_not_graded():
    """Exercises 1, 2, 3 and 8 are assignments in both editions, practice ones, left out of `make grade`."""
    for name in NAMES:
        assert name in assignments(), f"{name}: no solution notebook"
        assert is_practice(name), f"{name}: a test cell has points; a practice exercise has none"
        assert name not in graded_assignments(), name
        assert _solution(name) in NOTEBOOKS, f"{name}: test_rules.py does not read it"
    assert {"04_validate_then_execute", "07_safe_agent_loop_es"} <= set(graded_assignments())


@pytest.mark.parametrize("name", NAMES)
def test_every_test_gives_a_hint_and_no_test_is_hidden(name):
    """Every test cell opens with a docstring, carries messages ("Hint"/"Pista", or a hint per case), and hides nothing."""
    nb = nbformat.read(_solution(name), as_version=4)
    tests = [c for c in nb.cells if is_test_cell(c)]
    assert len(tests) >= 4, f"{name}: {len(tests)} test cells"
    for cell in tests:
        grade_id = cell.metadata["nbgrader"]["grade_id"]
        assert cell.source.startswith('"""'), f"{name}/{grade_id}: no docstring saying what it checks"
        assert "BEGIN HIDDEN TESTS" not in cell.source, f"{name}/{grade_id}: a practice exercise has no hidden tests"
        assert "assert " in cell.source and ('f"' in cell.source or "hint" in cell.source.lower()), grade_id
        assert any(word in cell.source for word in ("Hint", "Pista", "hint", "pista")), f"{name}/{grade_id}: no hint"


@pytest.mark.parametrize("stem", list(PRACTICE))
def test_make_progress_finds_the_parts(stem):
    """The released notebooks have the parts listed above (the Spanish ones "Parte A", "Parte B"...), each with at
    least four visible tests."""
    for name in (stem, f"{stem}_es"):
        found = find_parts(nbformat.read(EXERCISES / name / f"{name}.ipynb", as_version=4))
        got = [p.title for p in found]
        if name.endswith("_es"):
            want = [t.split(":")[0].replace("Part ", "Parte ") for t in PRACTICE[stem]]
            got = [t.split(":")[0] for t in got]
        else:
            want = PRACTICE[stem]
        assert got == want, f"{name}: parts {got}"
        assert all(len(p.tests) >= 4 for p in found), f"{name}: {[len(p.tests) for p in found]} visible tests per part"


def test_the_solution_and_the_stub_are_run_by_the_progress_tests():
    """The solution is "done" and the released stub "not started": ``tests/progress/test_progress.py`` runs every
    notebook ``exercise_notebooks`` finds in ``solutions/`` (test_solutions_are_all_done_on_their_visible_tests) and
    ``exercises/`` (test_released_stubs_are_all_not_started), each part of each, as `make progress` does; the
    practice exercises are among them, in both editions. (One run of each notebook, not a second one here.)"""
    for folder in (SOLUTIONS, EXERCISES):
        found = {p.parent.name for p in exercise_notebooks(folder)}
        assert set(NAMES) <= found, f"{folder.name}/: make progress's tests would not run {sorted(set(NAMES) - found)}"
