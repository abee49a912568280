"""The grading pipeline's nbgrader metadata check is nbgrader's own, with the schema compiled once.

``CheckCellMetadataFast`` (autograder/preprocessors.py) must accept and refuse exactly what
nbgrader's ``CheckCellMetadata`` accepts and refuses, with the same error: every solution
notebook, and notebooks whose nbgrader metadata is broken in each way the check knows.
"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest
from nbgrader.nbgraderformat import MetadataValidator
from nbgrader.preprocessors import CheckCellMetadata

from autograder.course import SOLUTIONS
from autograder.engine import Course
from autograder.preprocessors import CheckCellMetadataFast, _MetadataValidator

SOLVED = sorted(SOLUTIONS.glob("*/*.ipynb"))
SAMPLE = SOLUTIONS / "05_retry_with_backoff" / "05_retry_with_backoff.ipynb"


def _graded(nb) -> dict:
    return next(c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade") and c.cell_type == "code")


def _breakages() -> dict:
    """name -> a change to the notebook's first graded code cell (or to the notebook)."""
    def meta(change):
        def apply(nb):
            change(_graded(nb).metadata["nbgrader"])
        return apply

    def cell(change):
        def apply(nb):
            change(_graded(nb))
        return apply

    def duplicate_id(nb):
        graded = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade")]
        graded[1].metadata["nbgrader"]["grade_id"] = graded[0].metadata["nbgrader"]["grade_id"]

    def markdown_grade(nb):
        md = next(c for c in nb.cells if c.cell_type == "markdown")
        md.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": False, "grade_id": "md",
                                   "points": 1, "schema_version": 3}

    return {
        "points_as_text": meta(lambda m: m.update(points="two")),
        "negative_points": meta(lambda m: m.update(points=-1)),
        "grade_as_text": meta(lambda m: m.update(grade="yes")),
        "bad_grade_id": meta(lambda m: m.update(grade_id="has spaces")),
        "empty_grade_id": meta(lambda m: m.update(grade_id="")),
        "no_grade_id": meta(lambda m: m.pop("grade_id")),
        "no_points": meta(lambda m: m.pop("points")),
        "no_locked": meta(lambda m: m.pop("locked")),
        "unknown_key": meta(lambda m: m.update(colour="red")),
        "old_schema": meta(lambda m: m.update(schema_version=2)),
        "new_schema": meta(lambda m: m.update(schema_version=4)),
        "float_schema": meta(lambda m: m.update(schema_version=3.0)),
        "no_schema_version": meta(lambda m: m.pop("schema_version")),
        "metadata_not_a_dict": cell(lambda c: c.metadata.update(nbgrader=["grade"])),
        "task_in_code_cell": meta(lambda m: m.update(task=True)),
        "duplicate_grade_id": duplicate_id,
        "markdown_grade_not_solution": markdown_grade,
    }


BREAKAGES = _breakages()


def _outcome(run) -> tuple[str, str]:
    try:
        run()
    except Exception as err:  # noqa: BLE001 - the outcome compared
        return type(err).__name__, str(err)
    return "accepted", ""


@pytest.mark.parametrize("path", SOLVED, ids=lambda p: p.stem)
def test_every_solution_is_accepted_by_both(path: Path):
    nb = nbformat.read(path, as_version=4)
    assert _outcome(lambda: _MetadataValidator().validate_nb(nb)) == ("accepted", "")
    assert _outcome(lambda: MetadataValidator().validate_nb(nb)) == ("accepted", "")


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
def test_a_broken_notebook_gets_nbgraders_own_verdict(breakage):
    nb = nbformat.read(SAMPLE, as_version=4)
    BREAKAGES[breakage](nb)
    ours = _outcome(lambda: _MetadataValidator().validate_nb(copy.deepcopy(nb)))
    theirs = _outcome(lambda: MetadataValidator().validate_nb(copy.deepcopy(nb)))
    assert ours == theirs
    as_step = _outcome(lambda: CheckCellMetadataFast().preprocess(copy.deepcopy(nb), {}))
    assert as_step == _outcome(lambda: CheckCellMetadata().preprocess(copy.deepcopy(nb), {}))


def test_the_catalogue_of_breakages_holds_refusals():
    """Most breakages are refused (the comparison above is not only of accepted notebooks)."""
    refused = [name for name, breakage in BREAKAGES.items()
               if _outcome(lambda: (breakage(nb := nbformat.read(SAMPLE, as_version=4)),
                                    MetadataValidator().validate_nb(nb)))[0] != "accepted"]
    assert len(refused) >= 12, refused


def test_both_of_the_courses_metadata_checks_are_the_fast_one(tmp_path):
    """The sanitizing steps and the autograde steps each check the metadata: both with the compiled schema."""
    course = Course.scratch(tmp_path)
    for steps in (course.config.Autograde.sanitize_preprocessors, course.config.Autograde.autograde_preprocessors):
        assert CheckCellMetadataFast in steps and CheckCellMetadata not in steps, steps
