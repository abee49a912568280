"""nbgrader's own `nbgrader autograde`, run by hand with the course's nbgrader_config.py, gives no spurious
warnings (issue 46, trap 11): no "Attribute 'checksum' ... has changed!" for a test cell exactly as
released (nbgrader records it with its hidden tests), and no "Config option allow_errors not recognized"."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import nbformat
from nbgrader.utils import compute_checksum
from traitlets.config.loader import PyFileConfigLoader

from autograder.course import ROOT, SOLUTIONS
from autograder.plainnbgrader import ReleasedOverwriteCells, released_source

A = "05_retry_with_backoff"


def _test_cell():
    nb = nbformat.read(SOLUTIONS / A / f"{A}.ipynb", as_version=4)
    return next(c for c in nb.cells if "BEGIN HIDDEN TESTS" in c.source and c.metadata.get("nbgrader", {}).get("grade"))


def _warnings(cell, source_cell) -> list[str]:
    step = ReleasedOverwriteCells()
    step.gradebook = SimpleNamespace(
        find_source_cell=lambda *a: SimpleNamespace(source=source_cell.source, cell_type="code", locked=True,
                                                    checksum=compute_checksum(source_cell)),
        find_graded_cell=lambda *a: SimpleNamespace(max_score=source_cell.metadata.nbgrader["points"]))
    step.notebook_id, step.assignment_id = A, A
    said = []
    step.log = SimpleNamespace(warning=lambda msg, *args: said.append(msg % args), debug=lambda *a: None)
    step.preprocess_cell(cell, {}, 0)
    return said


def test_a_test_cell_as_released_gets_its_hidden_tests_back_quietly():
    source = _test_cell()
    released = nbformat.from_dict(source)
    released.source = released_source(source)
    assert "BEGIN HIDDEN TESTS" not in released.source
    assert _warnings(released, source) == []
    assert released.source == source.source  # the hidden tests are back


def test_an_edited_test_cell_is_still_reported():
    source = _test_cell()
    edited = nbformat.from_dict(source)
    edited.source = released_source(source).replace("assert", "pass  #", 1)
    said = _warnings(edited, source)
    assert len(said) == 1 and "Attribute 'checksum'" in said[0]


def test_the_course_config_sets_nothing_nbgrader_does_not_know(caplog):
    """Every Execute option in nbgrader_config.py is one nbgrader's Execute takes as a setting."""
    from nbgrader.preprocessors import Execute

    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    settable = set(Execute.class_traits(config=True))
    assert set(config.Execute) <= settable, set(config.Execute) - settable
    with caplog.at_level(logging.WARNING):
        Execute(config=config)
    assert "not recognized" not in caplog.text
