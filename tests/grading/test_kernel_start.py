"""A kernel that does not start is the machine's doing, not the student's.

On a loaded machine a sandboxed kernel can miss its start-up deadline. The grader then
starts another one (``GuardedExecute.start_attempts``, 3 by default) instead of giving the
student a 0 "nbgrader could not grade this submission". Once a cell has run nothing is
retried: a notebook that kills its own kernel is graded once, as before.

The failure is made where it happens on a loaded machine: the sandboxed kernel manager's
wait for the kernel's sockets raises its ``SandboxError`` for the first starts. Everything
else is the real grader: nbgrader, the sandbox, the kernels, the gradebook.
"""

from __future__ import annotations

import pytest

from autograder.engine import Course
from autograder.preprocessors import GuardedExecute
from autograder.sandbox import SandboxedKernelManager, SandboxError, course_settings
from coursetools.fairness import solved
from tests.grading.toy import ASSIGNMENT, SETTINGS, SOURCE, _try_it
from tests.sandbox.probe_assignment import sandbox_ready  # noqa: F401,F811 - a fixture

pytestmark = pytest.mark.slow
ATTEMPTS = GuardedExecute.class_traits()["start_attempts"].default()


@pytest.fixture
def failing_starts(monkeypatch):
    """``failing_starts(n)``: the next ``n`` kernel starts fail; returns the list of every start."""
    starts: list[bool] = []
    real = SandboxedKernelManager._wait_for_sockets

    def arm(n: int) -> list[bool]:
        async def wait(self):
            starts.append(len(starts) >= n)
            if not starts[-1]:
                raise SandboxError("the sandboxed kernel did not open its sockets in time (made to fail by the test)")
            return await real(self)

        monkeypatch.setattr(SandboxedKernelManager, "_wait_for_sockets", wait)
        return starts

    return arm


@pytest.fixture
def course(tmp_path, sandbox_ready):
    course = Course.scratch(tmp_path, SOURCE, config=SETTINGS)
    course.configure(course_settings())
    course.generate(ASSIGNMENT)
    return course


def test_a_kernel_that_did_not_start_is_started_again(course, failing_starts):
    """The first kernel does not start: the second grades the notebook, and the student keeps full marks."""
    starts = failing_starts(1)
    course.submit("ana", ASSIGNMENT, solved(course, ASSIGNMENT))
    result = course.autograde(ASSIGNMENT, "ana")
    assert starts == [False, True], starts
    assert (result.status, result.score) == ("graded", 8), [(p.kind, p.text) for p in result.problems]
    assert not result.problems, [(p.kind, p.text) for p in result.problems]


def test_kernels_that_never_start_are_reported_after_a_few_tries(course, failing_starts):
    """No kernel starts: after ``start_attempts`` tries the submission is flagged, saying nbgrader could
    not grade it."""
    starts = failing_starts(99)
    course.submit("ana", ASSIGNMENT, solved(course, ASSIGNMENT))
    result = course.autograde(ASSIGNMENT, "ana")
    assert len(starts) == ATTEMPTS == 3, starts
    kinds = {p.kind: p for p in result.problems}
    assert "nbgrader_error" in kinds and kinds["nbgrader_error"].attention, kinds
    assert result.score == 0


def test_a_notebook_that_kills_its_kernel_is_graded_once(course, failing_starts):
    """A kernel that started and then died (``os._exit`` in a cell) is not started again."""
    starts = failing_starts(0)
    course.submit("crash", ASSIGNMENT, _try_it(solved(course, ASSIGNMENT), "import os\nos._exit(1)"))
    result = course.autograde(ASSIGNMENT, "crash")
    assert starts == [True], starts
    assert "kernel_died" in {p.kind for p in result.problems}, [(p.kind, p.text) for p in result.problems]
