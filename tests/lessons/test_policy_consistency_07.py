"""Lesson 07: nothing runs after an uncertain write in a turn, and the check catches the old run_tool (issues 41, 45).

Lesson 07's steps are registered in policy_lessons_07.py and checked by test_policy_consistency.py with every
other lesson's.
"""

from __future__ import annotations

import pytest

import policy_harness as harness
from editions import EDITIONS
from policy_lessons_07 import STEPS as LESSON_HELPERS


def _marks(edition):
    return [pytest.mark.spanish] if edition.language == "es" else []


def _run(edition) -> harness.LessonRun:
    return harness.ran(edition.folder, "07")



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
