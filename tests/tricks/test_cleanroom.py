"""The clean room on its own: plain Python, the tests from the source, what tests rely on put back.

Each test builds a tiny plan (an answer cell, then test cells) and runs it through
:func:`autograder.cleanroom.run`, unsandboxed (fast) except where the sandbox is the point.
"""

from __future__ import annotations

import nbformat
import pytest

from autograder import cleanroom
from autograder.sandbox import sandbox_available

UNSANDBOXED = cleanroom.Settings(sandboxed=False, cell_timeout=5, notebook_timeout=20)
HONEST = "def double(x):\n    return 2 * x\n"
TEST = 'assert double(2) == 4, "double(2) must be 4"\nassert isinstance(double(1), int)\n'


def plan(answer: str, *tests: str, setup: str = "") -> list[dict[str, str]]:
    cells = [{"kind": "locked", "id": "setup", "source": setup}] if setup else []
    cells.append({"kind": "answer", "id": "answer", "source": answer})
    cells += [{"kind": "test", "id": f"test_{i}", "source": t} for i, t in enumerate(tests)]
    return cells


def run(answer: str, *tests: str, tmp_path, options=UNSANDBOXED, **kwargs) -> cleanroom.CleanRun:
    return cleanroom.run(plan(answer, *(tests or (TEST,)), **kwargs), tmp_path, options)


def test_an_honest_answer_passes_with_nothing_to_report(tmp_path):
    done = run(HONEST, TEST, 'assert double(3) == 7, "double(3) must be 7"', tmp_path=tmp_path)
    assert done.complete and not done.changed and not done.reason
    assert done.tests["test_0"].passed
    assert not done.tests["test_1"].passed and done.tests["test_1"].message == "AssertionError: double(3) must be 7"


def test_a_patched_builtin_is_put_back_before_the_tests_and_reported(tmp_path):
    trick = "def double(x):\n    return 'wrong'\nimport builtins\nbuiltins.isinstance = lambda *a: True\n"
    done = run(trick, "assert isinstance(double(1), int), 'not an int'", tmp_path=tmp_path)
    assert not done.tests["test_0"].passed and "not an int" in done.tests["test_0"].message
    assert "the built-in isinstance was replaced" in done.changed


def test_a_trace_function_and_a_profile_are_switched_off_before_the_tests(tmp_path):
    trick = HONEST + "import sys\nsys.settrace(lambda *a: None)\nsys.setprofile(lambda *a: None)\n"
    done = run(trick, tmp_path=tmp_path)
    assert done.tests["test_0"].passed
    assert "the interpreter's tracing was switched on" in done.changed
    assert "the interpreter's profiling was switched on" in done.changed


def test_a_change_made_while_a_test_runs_fails_that_test(tmp_path):
    trick = ("def double(x):\n    import builtins\n    builtins.len = lambda o: 4\n    return 2 * x\n")
    done = run(trick, TEST, "assert len([]) == 0", tmp_path=tmp_path)
    assert not done.tests["test_0"].passed and "the built-in len was replaced" in done.tests["test_0"].changed
    assert done.tests["test_1"].passed  # put back before the next test


def test_a_global_that_hides_a_builtin_is_not_seen_by_the_tests(tmp_path):
    trick = "def double(x):\n    return str(x)\nisinstance = lambda *a: True\n"
    done = run(trick, "assert isinstance(double(1), int), 'not an int'", tmp_path=tmp_path)
    assert not done.tests["test_0"].passed
    assert any("isinstance hid the built-in" in c for c in done.changed)


def test_a_helper_from_a_read_only_cell_cannot_be_replaced(tmp_path):
    setup = "def expected(x):\n    return 2 * x\n"
    trick = "def double(x):\n    return 0\ndef expected(x):\n    return 0\n"
    done = run(trick, "assert double(5) == expected(5)", tmp_path=tmp_path, setup=setup)
    assert not done.tests["test_0"].passed
    assert any("expected, defined by a read-only cell" in c for c in done.changed)


def test_a_patched_test_tool_is_put_back(tmp_path):
    trick = HONEST + "from unittest import mock\nmock.patch = lambda *a, **k: None\n"
    test = "from unittest import mock\nwith mock.patch('time.sleep', lambda s: None):\n    assert double(1) == 2\n"
    done = run(trick, test, tmp_path=tmp_path)
    assert done.tests["test_0"].passed and "unittest.mock.patch was replaced" in done.changed


def test_replaced_function_code_is_put_back(tmp_path):
    trick = HONEST + "import json\njson.dumps.__code__ = (lambda *a, **k: '{}').__code__\n"
    done = run(trick, tmp_path=tmp_path)
    assert done.complete and done.tests["test_0"].passed
    assert any("the code of json.dumps was changed" in c for c in done.changed)


def test_an_endless_test_is_stopped_and_the_next_one_runs(tmp_path):
    answer = "def double(x):\n    while True:\n        pass\n"
    options = cleanroom.Settings(sandboxed=False, cell_timeout=1, notebook_timeout=20)
    done = run(answer, "double(1)", "assert 1 + 1 == 2", tmp_path=tmp_path, options=options)
    assert "time limit" in done.tests["test_0"].message and done.tests["test_1"].passed and done.complete


def test_a_run_that_exits_is_reported_unfinished(tmp_path):
    done = run(HONEST + "import os\nos._exit(0)\n", tmp_path=tmp_path)
    assert not done.complete and not done.tests and "stopped early" in done.reason


def test_printed_results_cannot_pose_as_the_runner(tmp_path):
    forged = HONEST + ('import os, sys\nline = \'{"kind": "test", "id": "test_1", "passed": true}\\n\'\n'
                       'print(line); os.write(1, line.encode()); sys.__stdout__.write(line)\n')
    done = run(forged, TEST, "assert False", tmp_path=tmp_path)
    assert not done.tests["test_1"].passed


def test_magics_and_top_level_await_run_as_in_a_notebook(tmp_path):
    answer = "%time y = 1\nimport asyncio\nawait asyncio.sleep(0)\n" + HONEST + "display(double(1))\n"
    done = run(cleanroom.python_source(answer), tmp_path=tmp_path)
    assert done.tests["test_0"].passed and not done.changed


def test_the_tests_come_from_the_source_with_their_hidden_part():
    def notebook(test_source: str) -> nbformat.NotebookNode:
        nb = nbformat.v4.new_notebook()
        answer = nbformat.v4.new_code_cell(HONEST, metadata={"nbgrader": {"solution": True, "grade_id": "a"}})
        test = nbformat.v4.new_code_cell(test_source, metadata={"nbgrader": {"grade": True, "grade_id": "t",
                                                                              "points": 1}})
        nb.cells = [answer, test]
        return nb

    source = notebook("assert double(1) == 2\n### BEGIN HIDDEN TESTS\nassert double(2) == 4\n### END HIDDEN TESTS")
    cells = cleanroom.plan(notebook("pass  # edited by the learner"), source)
    assert [c["kind"] for c in cells] == ["answer", "test"] and "assert double(2) == 4" in cells[1]["source"]


@pytest.mark.skipif(not sandbox_available(), reason="bubblewrap cannot run here")
def test_in_the_sandbox_there_is_no_network_and_no_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("CLEANROOM_SECRET", "s3cret")
    test = ("import os, socket\nassert 'CLEANROOM_SECRET' not in os.environ\n"
            "try:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n    reached = True\n"
            "except OSError:\n    reached = False\nassert not reached\nassert os.getuid() == 65534\n")
    options = cleanroom.Settings(sandboxed=True, cell_timeout=10, notebook_timeout=30)
    done = run(HONEST, TEST, test, tmp_path=tmp_path, options=options)
    assert done.complete and done.tests["test_0"].passed, done
    assert done.tests["test_1"].passed, done.tests["test_1"].message


def test_a_name_the_test_defines_itself_is_not_reported(tmp_path):
    """A read-only cell and the learner both define ``run``; the test defines its own: nothing to report."""
    setup = "def run(x):\n    return x\n"
    answer = HONEST + "def run(x):\n    return double(x)\n"
    test = "def run(x):\n    return double(x)\nassert run(2) == 4\n"
    done = run(answer, test, tmp_path=tmp_path, setup=setup)
    assert done.tests["test_0"].passed and not done.changed


def test_a_setting_made_by_a_read_only_cell_is_kept_and_one_made_by_the_answer_is_put_back(tmp_path):
    """A Spanish edition's setup cell picks the language: its tests run in Spanish, not flagged as a change."""
    setup = "from toolfaults.language import use_language\nuse_language('es')\n"
    test = "from toolfaults.language import current_language\nassert current_language() == 'es', current_language()\n"
    done = run(HONEST, TEST, test, tmp_path=tmp_path, setup=setup)
    assert done.tests["test_1"].passed and not done.changed, done
    trick = HONEST + "from toolfaults.language import use_language\nuse_language('en')\n"
    done = run(trick, TEST, test, tmp_path=tmp_path, setup=setup)
    assert done.tests["test_1"].passed, done.tests["test_1"].message
    assert any("toolfaults.language._current was replaced" in c for c in done.changed), done.changed


def test_the_plan_leaves_out_what_the_kernel_gave_up_on():
    """Cells the kernel did not run and tests it stopped at their time limit are not run again, nor is any
    cell stopped at its limit with nothing run after it; an answer or setup cell stopped at its limit with
    tests after it is (what it defined before the loop counts for them)."""
    from autograder.preprocessors import CELL_TIMEOUT, NOT_RUN

    def cell(kind, gid, source, error=None):
        meta = {"answer": {"solution": True, "grade": False}, "test": {"grade": True, "solution": False, "points": 1},
                "locked": {"locked": True}}[kind]
        c = nbformat.v4.new_code_cell(source, metadata={"nbgrader": {**meta, "grade_id": gid}})
        if error:
            c.outputs = [nbformat.v4.new_output("error", ename=error, evalue="", traceback=[])]
        return c

    def planned(*cells):
        graded = nbformat.v4.new_notebook(cells=list(cells))
        source = nbformat.v4.new_notebook(cells=[c for c in cells if c.metadata["nbgrader"].get("grade")])
        return [c["id"] for c in cleanroom.plan(graded, source)]

    # the interrupt stopped each loop; the notebook's time limit ended the rest
    assert planned(
        cell("locked", "setup", "x = 1"),
        cell("answer", "slow_answer", "def f():\n    return 1\nwhile True:\n    pass", CELL_TIMEOUT),
        cell("locked", "slow_demo", "for _ in range(3):\n    f()\nwhile True:\n    pass", CELL_TIMEOUT),
        cell("test", "t_ok", "assert f() == 1"),
        cell("test", "t_loops", "assert g() == 1", CELL_TIMEOUT),
        cell("test", "t_after", "assert f() == 1"),
        cell("answer", "late_answer", "def g():\n    return 1", NOT_RUN),
        cell("test", "t_not_run", "assert g() == 1", NOT_RUN),
    ) == ["setup", "slow_answer", "slow_demo", "t_ok", "t_after"]
    # a demo that ignored the interrupt: the kernel ran nothing after it, nor does the clean room
    assert planned(
        cell("answer", "answer", "def f():\n    return 1"),
        cell("test", "t_ok", "assert f() == 1"),
        cell("locked", "stuck_demo", "while True:\n    try:\n        f()\n    except:\n        pass", CELL_TIMEOUT),
        cell("test", "t_not_run", "assert f() == 1", NOT_RUN),
    ) == ["answer", "t_ok"]
    # a demo stopped at its limit, then only a test stopped at its limit: nothing the clean room runs follows it
    assert planned(
        cell("answer", "answer", "def f():\n    return 1"),
        cell("locked", "slow_demo", "while True:\n    f()", CELL_TIMEOUT),
        cell("test", "t_loops", "assert f() == 1", CELL_TIMEOUT),
        cell("test", "t_not_run", "assert f() == 1", NOT_RUN),
    ) == ["answer"]


# -- the results channel: only the runner writes to it, once per test ------------------------
FAKE = "def double(x):\n    return 0\n"  # fails TEST


def _compare(done: cleanroom.CleanRun, *ids: str):
    """The kernel's result for a fake that passed every test there (a kernel trick), folded with ``done``."""
    from autograder.results import SubmissionResult, TestResult

    result = SubmissionResult("s", "a", 2.0 * len(ids), 2.0 * len(ids),
                              tests=[TestResult(i, i, 2.0, 2.0, True) for i in ids])
    cleanroom.compare(result, {"nb": done})
    return result


def test_results_forged_in_the_runner_s_own_format_are_damage_and_the_real_failure_still_counts(tmp_path):
    """The notebook finds the runner's send() (here through gc, as a trick could) and reports its test passed
    before the test runs: that report is not the runner's, the runner's own failure counts, and the
    submission needs attention."""
    forge = FAKE + ("import gc\nfor _o in gc.get_objects():\n"
                    "    if str(getattr(_o, '__qualname__', '')).endswith('<locals>.send'):\n"
                    "        _o('test', id='test_0', passed=True, message='', what=[])\n")
    done = run(forge, TEST, tmp_path=tmp_path)
    assert done.complete and "a result for the test test_0 came while it was not running" in done.damaged
    result = _compare(done, "test_0")
    assert result.score == 0.0, "the runner's own failing report for the test is what counts"
    assert any(p.kind == cleanroom.CHANNEL and p.attention for p in result.problems), result.problems


def test_json_s_shared_encoder_cannot_rewrite_the_results(tmp_path):
    """The runner does not write through json: a notebook that replaces json's default encoder changes nothing."""
    hijack = FAKE + ("import json\n_e = json._default_encoder\n_o = type(_e).encode\n"
                     "def _enc(obj, _o=_o, _e=_e):\n"
                     "    if isinstance(obj, dict) and obj.get('kind') == 'test':\n"
                     "        obj = dict(obj, passed=True, message='')\n"
                     "    return _o(_e, obj)\n_e.encode = _enc\n")
    done = run(hijack, TEST, tmp_path=tmp_path)
    assert done.complete and not done.tests["test_0"].passed


def test_bytes_written_into_the_channel_are_damage_and_a_lost_result_scores_zero(tmp_path):
    """The notebook writes into the runner's pipe so that a result line no longer parses: the test has no clean
    result, so it counts as failed there, and the submission needs attention."""
    smudge = ("import os, stat\n_p = [fd for fd in range(3, 64) if _isfifo(fd)]\n"
              "def double(x):\n    for fd in _p:\n        os.write(fd, b'#')\n    return 0\n")
    setup = ("import os, stat\ndef _isfifo(fd):\n    try:\n        return stat.S_ISFIFO(os.fstat(fd).st_mode)\n"
             "    except OSError:\n        return False\n")
    done = run(smudge, TEST, tmp_path=tmp_path, setup=setup)
    assert done.complete and done.damaged and done.missing() == ["test_0"]
    result = _compare(done, "test_0")
    assert result.score == 0.0 and result.tests[0].message.startswith("This test gave no result")
    assert any(p.kind == cleanroom.CHANNEL and p.attention for p in result.problems), result.problems


def test_an_honest_run_has_an_intact_channel(tmp_path):
    done = run(HONEST, TEST, "assert double(3) == 6", tmp_path=tmp_path)
    assert done.complete and not done.damaged and not done.missing()
    result = _compare(done, "test_0", "test_1")
    assert result.score == 4.0 and not result.problems


def test_a_run_stopped_by_its_time_limit_is_not_damage(tmp_path):
    """Tests after the notebook's time limit were not run: that is "unfinished", never "interfered with"."""
    slow = HONEST + "import time\n"
    options = cleanroom.Settings(sandboxed=False, cell_timeout=5, notebook_timeout=1)
    done = run(slow, "import time\nwhile True: pass", TEST, tmp_path=tmp_path, options=options)
    assert done.stopped and not done.missing() and not done.damaged


def test_a_whole_forged_run_that_ends_itself_scores_zero(tmp_path):
    """The notebook reports every test passed and the run done, then exits before any test runs: no result
    came from a running test, so each counts as failed, and the submission needs attention."""
    forge = FAKE + ("import gc, os\nfor _o in gc.get_objects():\n"
                    "    if str(getattr(_o, '__qualname__', '')).endswith('<locals>.send'):\n"
                    "        _o('test', id='test_0', passed=True, message='', what=[])\n"
                    "        _o('test', id='test_1', passed=True, message='', what=[])\n"
                    "        _o('done')\n        os._exit(0)\n")
    done = run(forge, TEST, "assert double(3) == 6", tmp_path=tmp_path)
    assert done.complete and done.missing() == ["test_0", "test_1"]
    result = _compare(done, "test_0", "test_1")
    assert result.score == 0.0
    assert any(p.kind == cleanroom.CHANNEL and p.attention for p in result.problems), result.problems


# -- the helper-package check can be wrong; the clean room decides (issue 44) -----------------------------
def _guard_failed(*ids: str):
    """The kernel's result when the helper-package check failed every test there."""
    from autograder.guard import TAMPERED
    from autograder.results import SubmissionResult, TestResult

    message = f"AssertionError: {TAMPERED}: toolfaults.contract.ToolError.__init__ was replaced. The tests need..."
    return SubmissionResult("s", "a", 0.0, 3.0 * len(ids),
                            tests=[TestResult(i, f"test {i}", 0.0, 3.0, False, message) for i in ids])


def _clean_run(*passed: str, changed: tuple[str, ...] = (), test_changed: tuple[str, ...] = ()):
    run = cleanroom.CleanRun(complete=True, planned=list(passed), changed=list(changed))
    run.tests = {i: cleanroom.CleanTest(i, True, "", list(test_changed)) for i in passed}
    return run


def test_a_false_alarm_of_the_helper_package_check_costs_nothing_the_clean_room_proves():
    """Only the check failed the tests in the kernel; the clean room, which puts the package back before every test
    and had nothing to put back, passed them: the clean room's score counts, the gradebook is told, and the
    submission is flagged for the instructor with both scores."""
    result = _guard_failed("t1", "t2")
    cells = cleanroom.compare(result, {"nb": _clean_run("t1", "t2")})
    assert result.score == 6.0 and all(t.passed and t.points == 3.0 and not t.message for t in result.tests)
    assert sorted(cells) == [("nb", "t1", 3.0), ("nb", "t2", 3.0)], "the gradebook must get the clean room's score"
    flag = next(p for p in result.problems if p.kind == cleanroom.OVERRULED)
    assert flag.attention and "kernel 0/6" in flag.text and "clean room 6/6" in flag.text, flag.text
    assert "kernel 0/6" in flag.text_es and "proceso limpio 6/6" in flag.text_es, flag.text_es


def test_the_check_is_not_overruled_when_the_clean_room_had_to_put_something_back():
    """A real patch: the clean room found the package changed (and put it back). The lower score stays."""
    for run in (_clean_run("t1", changed=("toolfaults.clock.RecordingSleep.__call__",)),
                _clean_run("t1", test_changed=("toolfaults.tools.MockTool._run",))):
        result = _guard_failed("t1")
        assert cleanroom.compare(result, {"nb": run}) == []
        assert result.score == 0.0 and not result.tests[0].passed
        assert cleanroom.OVERRULED not in result.kinds()


def test_a_kernel_failure_of_another_kind_keeps_the_lower_score():
    """Only the helper-package check's own failure is overruled: a test that failed in the kernel for any other
    reason and passed in the clean room keeps the kernel's (lower) result, as before."""
    from autograder.results import SubmissionResult, TestResult

    result = SubmissionResult("s", "a", 0.0, 3.0, tests=[TestResult("t1", "t1", 0.0, 3.0, False, "AssertionError: no")])
    assert cleanroom.compare(result, {"nb": _clean_run("t1")}) == []
    assert result.score == 0.0 and result.kinds() == [cleanroom.KERNEL_KEPT] and result.status != "needs attention"
