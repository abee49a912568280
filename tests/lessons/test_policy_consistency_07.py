"""Lesson 07: the loop's steps agree with toolfaults.policy (COURSE_SPEC §3.9; issues 41 and 45), in both editions.

The same check as test_policy_consistency_late.py, with the same harness (policy_harness): the lesson runs once in
this process, and each of its helpers is called on every example of the rows it handles; a failure names the lesson,
the cell, the helper and the row. The helpers are the three steps exercise 07 grades on other tools: ``handle_call``
(one call, valid or invalid, to one ToolMessage, for a read and for a write), ``invoke_model`` (the model call and
its one retry layer), and ``call_write_with_key`` (a keyed write: only transient errors are retried), plus
``handle_turn``'s rule that nothing runs after an uncertain write.
"""

from __future__ import annotations

import dataclasses

import pytest

import policy_harness as harness
from editions import EDITIONS
from policy_harness import FAILURE_ROWS, OUTPUT_ROWS, Adapter, Observed, answers, observe, probe_call, probe_tool

ONE_CALL = ("bad_call", *FAILURE_ROWS, *OUTPUT_ROWS)
TOOL_FAILURES = ("expected", "transient", "permanent", "internal")


def _write(tool):
    tool.metadata = {"side_effects": True}
    return tool


def _handle_call(write: bool):
    """The lesson's handle_call on one probe call (a write when ``write``), with a fresh breaker and sleep."""
    def call(helper, case):
        from toolfaults.clock import RecordingSleep

        lesson = helper.__globals__
        tool = probe_tool(case)
        if write:
            _write(tool)
        breaker = lesson["Breaker"]() if "Breaker" in lesson else None
        message, uncertain = helper(probe_call(case), {"probe": tool}, breaker, RecordingSleep())
        seen = observe(message)
        kind = "uncertain_write" if uncertain else None
        if write and isinstance(case.example, BaseException) and case.row != "bad_arguments":
            expected = harness.expected_kind(case, write=True)
            assert uncertain == (expected == "uncertain_write"), (
                f"uncertain={uncertain} for a write that failed with {case.label} (the policy's kind: {expected})")
        return dataclasses.replace(seen, kind=kind, retried=tool.call_count > 1)
    return call


def _invoke_model(helper, case):
    """The lesson's invoke_model on a model that fails once with the case's error: did it call again?"""
    from toolfaults.clock import RecordingSleep
    from toolfaults.errors import api_error
    from toolfaults.models import ScriptedChatModel

    error = api_error(case.example) if case.is_status else case.example
    model = ScriptedChatModel(script=[error, "ok"])
    try:
        helper(model, [], RecordingSleep(), max_attempts=3)
    except Exception:  # noqa: BLE001 - not retried: raised for the loop to decide
        pass
    return Observed(retried=model.calls > 1)


def _keyed_write(helper, case):
    """The lesson's call_write_with_key on a probe write that takes a key and fails once with the case's error."""
    from toolfaults.clock import RecordingSleep
    from toolfaults.idempotency import idempotent_write_tool

    def probe(query: str, idempotency_key: str) -> str:
        """A keyed write."""
        return f"done {query}"

    tool = idempotent_write_tool(probe, failures=1, error=case.example)
    message, _ = helper(probe_call(case), tool, RecordingSleep())
    seen = observe(message)
    # Only transient errors are retried, key or no key; the rest (permanent, internal, expected) run once.
    retried = tool.call_count > 1
    if case.row == "transient":
        return dataclasses.replace(seen, retried=None, recovery=None) if retried else dataclasses.replace(
            seen, retried=None)
    return dataclasses.replace(seen, retried=retried)


LESSON_HELPERS: dict[str, tuple[Adapter, ...]] = {
    "handle_call": (Adapter(ONE_CALL, _handle_call(write=False)),
                    Adapter(FAILURE_ROWS, _handle_call(write=True), write=True)),
    "invoke_model": (Adapter(FAILURE_ROWS, _invoke_model), Adapter(("transient", "permanent"), _invoke_model,
                                                                  statuses=True)),
    "call_write_with_key": (Adapter(("expected", "permanent", "internal"), _keyed_write, write=True),),
}


def _marks(edition):
    return [pytest.mark.spanish] if edition.language == "es" else []


_runs: dict[str, harness.LessonRun] = {}


def _run(edition) -> harness.LessonRun:
    if edition.language not in _runs:
        run = harness.run_lesson(harness.lesson_path(edition.folder, "07"))
        assert not run.failures, f"{run.name} did not run top to bottom here: cells {run.failures}"
        _runs[edition.language] = run
    return _runs[edition.language]


HELPERS = [pytest.param(e, name, id=f"07-{name}-{e.language}", marks=_marks(e))
           for e in EDITIONS for name in LESSON_HELPERS]


@pytest.mark.parametrize(("edition", "name"), HELPERS)
def test_lesson_07_helper_follows_the_policy(edition, name):
    """The step gives, for every example of every row it handles, the policy's retry decision, recovery, error
    flag and text (no exception text, class name, path or traceback for the model)."""
    run = _run(edition)
    found = [d for adapter in LESSON_HELPERS[name] for d in harness.check_helper(run, name, adapter)]
    assert not found, (f"{len(found)} disagreement(s) with toolfaults.policy (COURSE_SPEC §3.9):\n"
                       + "\n".join(f"- {d}" for d in found))


@pytest.mark.parametrize("edition", [pytest.param(e, id=e.language, marks=_marks(e)) for e in EDITIONS])
def test_nothing_runs_after_an_uncertain_write_in_a_turn(edition):
    """handle_turn answers the calls before an uncertain write, runs none after it, and says it is uncertain."""
    from toolfaults.clock import RecordingSleep
    from toolfaults.models import tool_call
    from toolfaults.tools import make_tool, write_tool

    lesson = _run(edition).namespace

    def lookup(query: str) -> str:
        """A read."""
        return query

    before, after = make_tool(lookup, name="before"), make_tool(lookup, name="after")
    write = write_tool(failures=1)
    tools = {t.name: t for t in (before, write, after)}
    calls = [tool_call("before", {"query": "a"}), tool_call(write.name, {"to": "a@b.c", "body": "x"}),
             tool_call("after", {"query": "b"})]
    answered, uncertain = lesson["handle_turn"](calls, tools, lesson["Breaker"](), RecordingSleep())
    assert uncertain is True and write.call_count == 1 and not after.calls and before.calls, (
        f"handle_turn: uncertain={uncertain}, write ran {write.call_count} time(s), the call after it ran "
        f"{after.call_count} time(s); expected True, 1, 0")
    assert [m.tool_call_id for m in answered] == [c["id"] for c in calls[:2]]


def test_the_check_catches_a_helper_changed_back():
    """Lesson 07's old run_tool, which answered a ToolException with correct_arguments and retried a write,
    fails the check, naming the row."""
    from langchain_core.messages import ToolMessage
    from langchain_core.tools import ToolException

    from toolfaults.contract import ToolError

    def handle_call(call, tools_by_name, breaker, sleep, max_attempts=3):   # lesson 07 before issues 41 and 45
        tool = tools_by_name.get(call["name"])
        if tool is None:
            return ToolError("unknown_tool", "no such tool", "choose_alternative").to_tool_message(call["id"]), False
        for attempt in range(max_attempts):
            try:
                return ToolMessage(str(tool.invoke(call["args"])), tool_call_id=call["id"]), False
            except ToolException as err:
                return ToolError("tool_error", str(err), "correct_arguments").to_tool_message(call["id"]), False
            except Exception as err:  # noqa: BLE001
                if isinstance(err, (ConnectionError, TimeoutError)) and attempt < max_attempts - 1:
                    continue
                return ToolError("internal_error", f"failed: {type(err).__name__}",
                                 "stop_turn").to_tool_message(call["id"]), False

    run = harness.LessonRun(harness.HERE / "07_probe.ipynb", "en", {"handle_call": handle_call}, [None])
    run.cell_of = lambda name: 0  # type: ignore[method-assign]
    found = []
    for adapter in LESSON_HELPERS["handle_call"]:
        try:
            found += harness.check_helper(run, "handle_call", adapter)
        except Exception as err:  # noqa: BLE001 - a failing adapter assertion is a disagreement too
            found.append(err)
    text = "\n".join(map(str, found))
    assert "expected" in text and "correct_arguments" in text, text
