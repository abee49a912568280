"""Lesson 07's helpers, registered for test_policy_consistency.py (issues 41 and 45).

The three steps exercise 07 grades, built in lesson 07 on other tools: ``handle_call`` (one call, valid or
invalid, to one ToolMessage, for a read and for a write), ``invoke_model`` (the model call and its one retry
layer), and ``call_write_with_key`` (a keyed write: only transient errors are retried).
"""

from __future__ import annotations

import dataclasses

import policy_harness as harness
from policy_harness import FAILURE_ROWS, OUTPUT_ROWS, Adapter, Observed, observe, probe_call, probe_tool

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


STEPS: dict[str, tuple[Adapter, ...]] = {
    "handle_call": (Adapter(ONE_CALL, _handle_call(write=False)),
                    Adapter(FAILURE_ROWS, _handle_call(write=True), write=True)),
    "invoke_model": (Adapter(FAILURE_ROWS, _invoke_model), Adapter(("transient", "permanent"), _invoke_model,
                                                                  statuses=True)),
    "call_write_with_key": (Adapter(("expected", "permanent", "internal"), _keyed_write, write=True),),
}


LESSON_HELPERS = {"07": STEPS}
