"""The toy assignment the grading tests use, and a class of submissions for it.

``fixtures/source/toy_retry/toy_retry.ipynb`` grades in a couple of seconds: one
answer cell (``call_with_retries``), a try-it cell, and three test cells (2 + 3 + 3
points, two with hidden tests). Each submission below is the released notebook
with a learner's edits; broken ones are built the way a learner breaks a notebook.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import nbformat

from autograder.engine import Course
from autograder.testcells import replace_answer
from coursetools.fairness import solved

SOURCE = Path(__file__).parent / "fixtures" / "source"
ASSIGNMENT = "toy_retry"
ANSWER = "call_with_retries_answer"
TRY_IT = 4  # index of the try-it cell
TESTS = ("test_works_first_time", "test_retries_connection_error", "test_gives_up")
HEAD = "import time\n\ndef call_with_retries(tool, args, attempts=3, sleep=time.sleep):\n"
# Short limits so the suite stays fast (the course's own: 30 s per cell, 120 s per notebook).
# The looping answer meets both: two cells stopped at 5 s, the third at what is left of the 12 s.
SETTINGS = {"Execute": {"timeout": 5}, "GuardedExecute": {"notebook_timeout": 12, "interrupt_grace": 4}}


def graded_as_make_grade() -> dict:
    """:data:`SETTINGS` on `make grade`'s sandbox where the sandbox runs (each kernel a fork of a warm one,
    ``autograder.sandbox.where_available``), unsandboxed elsewhere but in CI, where a missing sandbox fails
    (``probe_assignment.sandboxed``): how the toy class is graded."""
    from autograder.sandbox import where_available
    from tests.sandbox.probe_assignment import sandboxed

    found = where_available() if sandboxed() else {}
    return {**found, **{section: {**found.get(section, {}), **values} for section, values in SETTINGS.items()}}


NO_RETRY = HEAD + "    return tool.invoke(args)\n"
SLEEPS_AFTER_LAST = HEAD + (
    "    for attempt in range(attempts):\n"
    "        try:\n"
    "            return tool.invoke(args)\n"
    "        except ConnectionError:\n"
    "            sleep(1.0)\n"
    "            if attempt == attempts - 1:\n"
    "                raise\n")
RIGHT = HEAD + (
    "    last = None\n"
    "    for n in range(1, attempts + 1):\n"
    "        if n > 1:\n"
    "            sleep(1.0)\n"
    "        try:\n"
    "            return tool.invoke(args)\n"
    "        except ConnectionError as err:\n"
    "            last = err\n"
    "    raise last\n")

# A cheat: no retries at all, but the helper package is patched so the retry test passes.
CHEAT = (
    "from toolfaults.clock import RecordingSleep\n"
    "from toolfaults.tools import MockTool\n"
    "from langchain_core.runnables import RunnableConfig\n"
    "from langchain_core.tools import StructuredTool\n\n"
    "def _never_fails(self, *args, config: RunnableConfig, run_manager=None, **kwargs):\n"
    "    self.calls.append(kwargs)\n"
    "    return StructuredTool._run(self, *args, config=config, run_manager=run_manager, **kwargs)\n\n"
    "MockTool._run = _never_fails\n"
    "MockTool.call_count = property(lambda self: 3)\n"
    "RecordingSleep.calls = property(lambda self: 2)\n\n") + NO_RETRY


def _cells(nb, keep: Callable[[nbformat.NotebookNode], bool]) -> nbformat.NotebookNode:
    nb.cells = [c for c in nb.cells if keep(c)]
    return nb


def _gid(cell) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id")


def _edit_tests(nb, source: str) -> nbformat.NotebookNode:
    for cell in nb.cells:
        if _gid(cell) in TESTS:
            cell.source = source
    return nb


def _try_it(nb, code: str) -> nbformat.NotebookNode:
    nb.cells[TRY_IT].source = code
    return nb


def submissions(course: Course) -> dict[str, nbformat.NotebookNode | bytes | tuple[str, object]]:
    """student -> their notebook (a node), raw bytes (broken file) or (file name, node or bytes)."""
    sol = lambda **kw: solved(course, ASSIGNMENT, **kw)  # noqa: E731
    stub = course.released(ASSIGNMENT)
    answer = lambda code: sol(**{ANSWER: code})  # noqa: E731
    text = nbformat.writes(sol())
    return {
        # well-behaved
        "ana": sol(),
        "ben": answer(RIGHT),
        "carla": answer(SLEEPS_AFTER_LAST),
        "dmitri": answer(NO_RETRY),
        "eve": stub,
        # broken, handled by the grader
        "syntax": answer(HEAD + "    return tool.invoke(args\n"),
        "loop": answer(HEAD + "    while True:\n        pass\n"),
        "stuck": answer(HEAD + (
            "    while True:                    # retries forever, whatever happens\n"
            "        try:\n"
            "            while True:\n"
            "                try:\n"
            "                    return tool.invoke(args)\n"
            "                except:            # a bare except also swallows KeyboardInterrupt\n"
            "                    sleep(0)       # the sleep does nothing (and raises when overused)\n"
            "        except:\n"
            "            pass\n")),
        "exit_cell": _try_it(sol(), "import sys\nsys.exit('done for today')"),
        "exit_answer": answer(HEAD + "    import sys\n    sys.exit(1)\n"),
        "crash_cell": _try_it(sol(), "import os\nos._exit(1)"),
        "crash_test": answer(HEAD + "    import os\n    if attempts == 4:\n        os._exit(1)\n"
                                    "    return tool.invoke(args)\n"),
        "chatty": _try_it(sol(), "print('spam ' * 8_000_000)  # 40 MB\nfor i in range(2_000):\n    print(i)"),
        "no_test": _cells(sol(), lambda c: _gid(c) != "test_retries_connection_error"),
        "no_test_wrong": _cells(answer(SLEEPS_AFTER_LAST), lambda c: _gid(c) != "test_gives_up"),
        "edited_test": _edit_tests(course.released(ASSIGNMENT), "pass"),
        "no_answer": _cells(sol(), lambda c: _gid(c) != ANSWER),
        "renamed": ("toy_retry-Copy1.ipynb", sol()),
        "missing": ("notes.txt", b"I could not finish, sorry."),
        "not_json": text[: len(text) // 2].encode(),
        "cheat": answer(CHEAT),
        "fake_module": answer(
            "import sys, types\n"
            "fake = types.ModuleType('toolfaults.clock')\n"
            "class RecordingSleep:\n"
            "    def __init__(self, *a, **k):\n        self.delays = [1.0, 1.0, 1.0]\n"
            "    def __call__(self, s):\n        pass\n"
            "    calls = 2\n"
            "fake.RecordingSleep = RecordingSleep\n"
            "sys.modules['toolfaults.clock'] = fake\n\n" + SLEEPS_AFTER_LAST),
        "patched_factory": answer(
            "import toolfaults.tools as tt\n"
            "_flaky = tt.flaky_tool\n"
            "tt.flaky_tool = lambda *a, failures=2, **k: _flaky(*a, failures=0, **k)\n\n" + NO_RETRY),
        "patched_base": answer(
            "from langchain_core.tools import StructuredTool\n"
            "StructuredTool.invoke = lambda self, *a, **k: 'results for ' + repr('x')\n\n" + NO_RETRY),
        # its error message quotes the call stack, hidden test line included: the grader must redact it
        "stack_leak": answer(HEAD + (
            "    import traceback\n"
            "    if args.get('query') == 'hidden':\n"
            "        raise ConnectionError('where am I?\\n' + ''.join(traceback.format_stack()[-3:]))\n")
            + RIGHT[len(HEAD):]),
        "zoe": sol(),
    }


def submit_all(course: Course, subs: dict) -> None:
    for student, nb in subs.items():
        name = None
        if isinstance(nb, tuple):
            name, nb = nb
        if name is None:
            course.submit(student, ASSIGNMENT, nb)
            continue
        folder = course.submitted(ASSIGNMENT, student)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        if isinstance(nb, bytes):
            path.write_bytes(nb)
        else:
            nbformat.write(nb, path)


def answer_only(course: Course, code: str) -> nbformat.NotebookNode:
    return replace_answer(course.released(ASSIGNMENT), ANSWER, code)


def hidden_source(source: Path = SOURCE) -> list[str]:
    from autograder.testcells import hidden_lines

    nb = nbformat.read(source / ASSIGNMENT / f"{ASSIGNMENT}.ipynb", as_version=4)
    return [line for c in nb.cells for line in hidden_lines(c.source)]


def dumps(obj) -> str:
    return json.dumps(obj, indent=1, sort_keys=True, default=str)
