"""nbgrader preprocessors that make autograding robust to broken submissions.

They replace or extend steps of ``nbgrader autograde``'s pipeline (see
:func:`autograde_pipeline`):

- :class:`CheckHelperPackage` wraps every test cell in the check of
  :mod:`autograder.guard` (a submission that patches the helper package fails the tests);
  :class:`RestoreTestSource` puts the test cells' own source back after execution.
- :class:`GuardedExecute` runs the notebook with a time limit per cell *and* per
  notebook, survives a kernel that dies (``os._exit()``, a crash) or a cell that keeps
  running after it was interrupted (an endless loop that swallows ``KeyboardInterrupt``):
  the cells it could not run get an error output saying why, so they score zero, the
  rest keeps its score, and the engine reports the submission as "needs attention".
  Plain nbgrader would instead abort the notebook, delete its autograded copy and
  export a 0 that looks like any other.
- :class:`LimitOutputSize` cuts huge outputs (tens of megabytes printed) to a few
  kilobytes and records how much was printed.

Every error output these steps add uses one of the names in :data:`GRADER_ERRORS`,
so the engine can tell them from the learner's own errors.
"""

from __future__ import annotations

import json
import traceback
from queue import Empty
from time import monotonic
from typing import Any

import jsonschema
from nbclient.exceptions import DeadKernelError
from nbclient.util import run_sync
from nbformat import NotebookNode
from nbgrader import utils
from nbgrader.nbgraderformat import MetadataValidator, ValidationError
from nbgrader.nbgraderformat.common import BaseMetadataValidator
from nbgrader.preprocessors import CheckCellMetadata, Execute, NbGraderPreprocessor
from traitlets import Float, Integer, List

from . import guard

KERNEL_DIED = "DeadKernelError"
CELL_TIMEOUT = "CellTimeoutError"
NOT_RUN = "CellNotRun"
GRADER_ERRORS = (KERNEL_DIED, CELL_TIMEOUT, NOT_RUN)
META = "autograder"  # cell metadata key for what the grader observed


def error_output(ename: str, evalue: str) -> NotebookNode:
    return NotebookNode(output_type="error", ename=ename, evalue=evalue, traceback=[f"{ename}: {evalue}"])


class CheckHelperPackage(NbGraderPreprocessor):
    """Wrap every test (grade) code cell in the helper-package check of :mod:`autograder.guard`.

    The check runs before the test (whatever ran earlier, a failing test included) and
    after it (what the test's own call of the answer did).
    """

    def preprocess(self, nb: NotebookNode, resources: dict) -> tuple[NotebookNode, dict]:
        self._check = guard.check_code()
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        if cell.cell_type == "code" and utils.is_grade(cell) and not utils.is_solution(cell):
            cell.source = guard.wrap_test(cell.source, self._check)
        return cell, resources


class RestoreTestSource(NbGraderPreprocessor):
    """Remove the injected checks from the test cells once they have run, and from their tracebacks."""

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        if cell.cell_type == "code" and guard.BEGIN in cell.source:
            cell.source = guard.unwrap_test(cell.source)
            for out in cell.outputs:
                if out.output_type == "error":
                    out.traceback = [guard.unwrap_traceback(entry) for entry in out.get("traceback", [])]
        return cell, resources


class GuardedExecute(Execute):
    """nbgrader's ``Execute`` with a notebook time limit and recovery from dead or stuck kernels."""

    notebook_timeout = Integer(
        120,
        help="Seconds the whole notebook may run; the cells left when it is used up are not run "
             "(the course sets it in nbgrader_config.py).",
    ).tag(config=True)

    extra_arguments = List(
        ["--IPKernelApp.log_level=ERROR"],
        help="Extra arguments of the kernel (quiet: no start-up warnings in the grading log).",
    ).tag(config=True)

    interrupt_grace = Float(
        5.0,
        help="Seconds a timed-out cell gets to stop after the interrupt before the kernel counts as stuck.",
    ).tag(config=True)

    start_attempts = Integer(
        3,
        help="Kernels started for one notebook before grading it fails: a kernel that does not start "
             "in time (a loaded machine) is not the student's doing. Once a cell has run, nothing is retried.",
    ).tag(config=True)

    def preprocess(self, nb: NotebookNode, resources: Any = None, km: Any = None) -> tuple[NotebookNode, Any]:
        attempts = max(1, self.start_attempts)
        for attempt in range(1, attempts + 1):
            self._deadline = monotonic() + self.notebook_timeout
            self._stop_reason = ""
            self._cell_timeout: float = self.cell_limit()
            self._interrupted_at: float | None = None  # when the running cell was interrupted at its time limit
            self._sent = False  # whether a code cell was sent to the kernel
            try:
                return super().preprocess(nb, resources, km)
            except RuntimeError as err:  # SandboxError, "Kernel didn't respond", "Kernel died before replying"
                if self._sent or km is not None or attempt == attempts:
                    raise
                self.log.warning("The kernel did not start (%s); starting another (%d of %d)",
                                 err, attempt + 1, attempts)
        raise AssertionError("not reached: the last attempt returns or raises")

    def cell_limit(self) -> float:
        """A cell's time limit: ``timeout`` (nbgrader's ``Execute.timeout``), the notebook's when that is unset (0, None).

        The clean room's is the same (:func:`autograder.cleanroom.settings`).
        """
        return float(self.timeout or self.notebook_timeout)

    # nbclient asks for the timeout of every cell: the cell's own limit, or what is left of the notebook's.
    def _get_timeout(self, cell: NotebookNode | None) -> float | None:
        return self._cell_timeout

    async def _async_handle_timeout(self, timeout: int, cell: NotebookNode | None = None) -> Any:
        self._interrupted_at = monotonic()
        return await super()._async_handle_timeout(timeout, cell)

    def _stop(self, reason: str) -> None:
        self._stop_reason = self._stop_reason or reason

    def preprocess_cell(self, cell: NotebookNode, resources: Any, index: int) -> tuple[NotebookNode, Any]:
        if cell.cell_type != "code" or not cell.source.strip():
            return super().preprocess_cell(cell, resources, index)
        remaining = self._deadline - monotonic()
        if remaining <= 0.5:
            self._stop(f"the notebook used up its time limit of {self.notebook_timeout} s")
        if self._stop_reason:
            cell.outputs = [error_output(NOT_RUN, f"not run: {self._stop_reason}")]
            cell.execution_count = None
            return cell, self.resources
        limit = min(float(self.timeout or remaining), remaining)
        self._cell_timeout = limit
        self._sent = True
        self._interrupted_at = None
        self.error_on_timeout = {
            "ename": CELL_TIMEOUT,
            "evalue": (f"the cell did not finish within {limit:.0f} s and was stopped "
                       "(an endless loop, or a wait that never ends?)"),
            "traceback": [f"{CELL_TIMEOUT}: the cell did not finish within {limit:.0f} s"],
        }
        try:
            result = super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            cell.outputs.append(error_output(
                KERNEL_DIED, "the kernel died while running this cell (os._exit(), a crash, or out of memory)"))
            self._stop("the kernel died in an earlier cell")
            return cell, self.resources
        if self._interrupted_at is not None and not self._stopped_in_time(self._interrupted_at):
            self._stop("an earlier cell kept running after it was interrupted "
                       "(an endless loop that catches KeyboardInterrupt?)")
        return result

    def _stopped_in_time(self, interrupted_at: float) -> bool:
        """After a timeout: whether the interrupted cell stopped (its late reply arrives) in time.

        The grace counts from the interrupt: nbclient has already waited up to ``iopub_timeout``
        for the cell's last output by the time this is asked.
        """
        deadline = interrupted_at + self.interrupt_grace
        while (left := deadline - monotonic()) > 0:
            try:
                msg = run_sync(self.kc.shell_channel.get_msg)(timeout=left)
            except Empty:
                return False
            if msg.get("msg_type") == "execute_reply":
                return True
        return False


class LimitOutputSize(NbGraderPreprocessor):
    """Cut every output to ``max_chars`` characters; note in the cell how much it printed."""

    max_chars = Integer(10_000, help="Characters kept per output (text, error message, or other data).").tag(config=True)

    def _cut(self, text: str) -> str:
        if len(text) <= self.max_chars:
            return text
        return text[: self.max_chars] + f"\n... output cut by the grader ({len(text):,} characters in all) ..."

    def preprocess_cell(self, cell: NotebookNode, resources: dict, index: int) -> tuple[NotebookNode, dict]:
        if cell.cell_type != "code":
            return cell, resources
        total = 0
        for out in cell.outputs:
            if out.output_type == "stream":
                text = "".join(out.text) if isinstance(out.text, list) else out.text
                total += len(text)
                out.text = self._cut(text)
            elif out.output_type == "error":
                total += len(str(out.get("evalue", ""))) + sum(len(line) for line in out.get("traceback", []))
                out.evalue = self._cut(str(out.get("evalue", "")))
                out.traceback = [self._cut(line) for line in out.get("traceback", [])[-60:]]
            elif "data" in out:
                for mime, value in list(out.data.items()):
                    text = value if isinstance(value, str) else json.dumps(value)
                    total += len(text)
                    if len(text) > max(self.max_chars, 200_000 if mime.startswith("image/") else 0):
                        out.data = {"text/plain": f"[{mime} output of {len(text):,} characters removed by the grader]"}
                        break
        if total > self.max_chars:
            cell.metadata[META] = {"output_chars": total}
        return cell, resources


class _SchemaCompiledOnce(BaseMetadataValidator):
    """The schema part of nbgrader's cell check, with the schema compiled once per process.

    ``jsonschema.validate``, which nbgrader calls for every cell, checks the schema itself
    before the cell: 0.15 to 0.3 s for the 47 cells of 07, and nbgrader checks every notebook
    twice per submission. A cell at the expected schema version that the compiled schema
    accepts is one nbgrader's own check accepts; any other cell goes through that check,
    and gets its error.
    """

    _compiled: dict[int, Any] = {}

    def validate_cell(self, cell: NotebookNode) -> None:
        meta = cell.metadata.get("nbgrader")
        if isinstance(meta, dict) and meta.get("schema_version", 0) == self.schema_version:
            compiled = self._compiled.get(self.schema_version)
            if compiled is None:
                validator = jsonschema.validators.validator_for(self.schema)
                validator.check_schema(self.schema)
                compiled = self._compiled.setdefault(self.schema_version, validator(self.schema))
            if compiled.is_valid(meta):
                return
        super().validate_cell(cell)


class _MetadataValidator(MetadataValidator, _SchemaCompiledOnce):
    """nbgrader's metadata validator, whose schema check (called by its own ``validate_cell`` through
    ``super()``, which the class order makes :class:`_SchemaCompiledOnce`'s) compiles the schema once."""


class CheckCellMetadataFast(CheckCellMetadata):
    """nbgrader's ``CheckCellMetadata``, the same checks and errors, with the schema compiled once
    (:class:`_SchemaCompiledOnce`). Its body is nbgrader's, with the faster validator."""

    def preprocess(self, nb: NotebookNode, resources: dict) -> tuple[NotebookNode, dict]:
        try:
            _MetadataValidator().validate_nb(nb)
        except ValidationError:
            self.log.error(traceback.format_exc())
            msg = "Notebook failed to validate; the nbgrader metadata may be corrupted."
            self.log.error(msg)
            raise ValidationError(msg)
        return nb, resources


def _fast_metadata_check(steps: list[type]) -> list[type]:
    return [CheckCellMetadataFast if step is CheckCellMetadata else step for step in steps]


def autograde_pipeline() -> list[type]:
    """``Autograde.autograde_preprocessors``: nbgrader's, with the guarded steps in place."""
    from nbconvert.preprocessors import ClearMetadataPreprocessor
    from nbgrader.preprocessors import AssignLatePenalties, IgnorePattern, LimitOutput, SaveAutoGrades

    return _fast_metadata_check([CheckHelperPackage, GuardedExecute, RestoreTestSource, IgnorePattern,
                                 ClearMetadataPreprocessor, LimitOutputSize, LimitOutput, SaveAutoGrades,
                                 AssignLatePenalties, CheckCellMetadata])


def sanitize_pipeline() -> list[type]:
    """``Autograde.sanitize_preprocessors`` (run before ``autograde_pipeline``): nbgrader's own, with
    :class:`CheckCellMetadataFast` for its metadata check."""
    from nbgrader.converters import Autograde

    return _fast_metadata_check(list(Autograde.class_traits()["sanitize_preprocessors"].default()))
