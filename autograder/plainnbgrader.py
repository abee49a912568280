"""What nbgrader's own commands (``nbgrader autograde``, the formgrader) need from the course, set in
``nbgrader_config.py``. `make grade` sets its own pipelines (:mod:`autograder.engine`) and does not use these.

nbgrader records every locked cell's source, hidden tests included, and its checksum when it generates an
assignment; the released cell has its hidden tests cleared, so its checksum differs by design. When
``nbgrader autograde`` puts the hidden tests back (:class:`~nbgrader.preprocessors.OverwriteCells`), it
warns "Attribute 'checksum' for cell ... has changed!" for every test cell with hidden tests, in every
submission: a warning that is meant to say a student edited a locked cell, and that said nothing here.
:class:`ReleasedOverwriteCells` does the same work and warns only when the cell is not as released.
"""

from __future__ import annotations

import copy
from typing import Any

from nbgrader.api import MissingEntry
from nbgrader.preprocessors import ClearHiddenTests, OverwriteCells


def released_source(cell: Any) -> str:
    """The source a learner got for ``cell`` (a notebook cell as in the source notebook): hidden tests cleared."""
    released = copy.deepcopy(cell)
    ClearHiddenTests()._remove_hidden_test_region(released)
    return released.source


class ReleasedOverwriteCells(OverwriteCells):
    """nbgrader's ``OverwriteCells``; a locked cell exactly as released is put back without a warning."""

    _as_released = False

    def preprocess_cell(self, cell: Any, resources: Any, cell_index: int) -> Any:
        self._as_released = False
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id is not None:
            try:
                source = self.gradebook.find_source_cell(grade_id, self.notebook_id, self.assignment_id)
            except MissingEntry:
                pass
            else:
                shown = copy.deepcopy(cell)
                shown.source = source.source
                self._as_released = cell.source.rstrip() == released_source(shown).rstrip()
        return super().preprocess_cell(cell, resources, cell_index)

    def report_change(self, name: str, attr: str, old: Any, new: Any) -> None:
        if attr == "checksum" and self._as_released:
            self.log.debug("Cell %s is as released: its hidden tests are put back", name)
            return
        super().report_change(name, attr, old, new)


def sanitize_pipeline() -> list[type]:
    """nbgrader's ``Autograde.sanitize_preprocessors``, with :class:`ReleasedOverwriteCells` in its place."""
    from nbgrader.converters import Autograde

    return [ReleasedOverwriteCells if step is OverwriteCells else step
            for step in Autograde.class_traits()["sanitize_preprocessors"].default()]
