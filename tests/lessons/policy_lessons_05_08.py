"""Lessons 05, 06 and 08's helpers, registered for test_policy_consistency.py (issue 45).

Every helper that classifies a failure, decides a retry, converts an output or writes an error message is
called on every example of the rows it handles (policy_harness). A helper may be checked more than one way
(``execute`` for a read and for a write), so an entry may be a tuple of adapters. A lesson may show a wrong
policy only as a labelled anti-pattern (ANTI_PATTERNS).
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from policy_harness import FAILURE_ROWS, OUTPUT_ROWS, Adapter, Observed, answers, observe, probe_call, probe_tool

#: Every row a tool call can end in.
ONE_CALL = (*FAILURE_ROWS, *OUTPUT_ROWS)
#: The failures a tool's own code can raise (a schema's ValidationError comes before the tool runs).
TOOL_FAILURES = ("expected", "transient", "permanent", "internal")


def _exception(case):
    """The case's failure as an exception (a status code becomes the API error that carries it)."""
    from toolfaults.errors import api_error

    return api_error(case.example) if case.is_status else case.example


def retries(rows: tuple[str, ...], call, *, statuses: bool = False) -> Adapter:
    """A helper that decides whether to retry: ``call(helper, case)`` returns True when it retried."""
    return Adapter(rows, lambda helper, case: Observed(retried=bool(call(helper, case))), statuses=statuses)


# --- lesson 05 ----------------------------------------------------------------------------------------------


def _call_with_policy(write: bool):
    """Lesson 05's call_with_policy on a probe tool registered the lesson's way (3 attempts), then removed."""
    def call(helper, case):
        lesson = helper.__globals__
        tool = probe_tool(case)
        if write:
            tool.metadata = {"side_effects": True}
        lesson["TOOLS"]["probe"] = tool
        lesson["POLICIES"]["probe"] = lesson["RetryPolicy"](timeout_s=1.0, max_attempts=3)
        try:
            said = helper("probe", {"query": "x"})
        finally:
            lesson["TOOLS"].pop("probe", None)
            lesson["POLICIES"].pop("probe", None)
        head, _, rest = said.partition(": ")
        if head.startswith(("answered", "respondió")):
            return Observed(is_error=False, retried=tool.call_count > 1, text=rest)
        kind, _, recovery = rest.partition(", ")
        return Observed(kind=kind, recovery=recovery.split()[-1], is_error=True, retried=tool.call_count > 1)
    return call


# --- lesson 06 ----------------------------------------------------------------------------------------------


def _robust_weather(helper, case):
    """Lesson 06's robust_weather for Madrid, with a weather service that fails or answers as the case says
    (the bad_arguments row: a blank city, which the tool rejects before calling the service)."""
    from toolfaults.clock import RecordingSleep
    from toolfaults.models import tool_call
    from toolfaults.tools import make_tool

    example = case.example

    def get_weather(city: str):
        """The weather in a city."""
        if isinstance(example, BaseException):
            raise example
        return example

    service = make_tool(get_weather)
    city = " " if case.row == "bad_arguments" else "Madrid"
    seen = observe(helper(tool_call("get_weather", {"city": city}, id="call_probe"), service, RecordingSleep()))
    if case.row == "bad_arguments":
        assert service.call_count == 0, "a blank city reached the service"
    return dataclasses.replace(seen, retried=service.call_count > 1)


def _describe_one_failed_source(helper, case):
    """Lesson 06's describe(try_sources(...)) with one source that fails with the case's error."""
    from toolfaults.catalog import Source

    return observe(helper(helper.__globals__["try_sources"]("Madrid", [Source("weather_api", error=case.example)])))


# --- lesson 08 ----------------------------------------------------------------------------------------------


def _retry_fixed(helper, case):
    """Lesson 08's retry_fixed on a call that fails once with the case's error: did it call again?"""
    from toolfaults.clock import RecordingSleep

    calls = []

    def once():
        calls.append(1)
        if len(calls) == 1:
            raise _exception(case)
        return "ok"

    try:
        helper(once, sleep=RecordingSleep())
    except Exception:  # noqa: BLE001 - not retried: the first failure propagates
        pass
    return len(calls) > 1


def _execute(write: bool):
    """Lesson 08's executor on a probe tool (a write when ``write``), with version 2's messages."""
    def call(helper, case):
        tool = probe_tool(case)
        if write:
            tool.metadata = {"side_effects": True}
        return helper(probe_call(case), {"probe": tool}, helper.__globals__["v2_contract_text"])
    return call


def _results_always(helper, case):
    """Lesson 08's results_always (problem 6) for one tool_use block, the lesson's weather tool swapped for a probe."""
    lesson = helper.__globals__
    weather = lesson["weather"]
    lesson["weather"] = probe_tool(case)
    try:
        (result,) = helper(SimpleNamespace(content=[SimpleNamespace(type="tool_use", id="toolu_probe",
                                                                   input={"query": "x"})]))
    finally:
        lesson["weather"] = weather
    return result


LESSON_HELPERS: dict[str, dict[str, tuple[Adapter, ...]]] = {
    "05": {
        "is_transient": (retries(FAILURE_ROWS, lambda f, case: f(_exception(case))),
                         retries(("transient", "permanent"), lambda f, case: f(_exception(case)), statuses=True)),
        "call_with_policy": (Adapter(ONE_CALL, _call_with_policy(write=False)),
                             Adapter(FAILURE_ROWS, _call_with_policy(write=True), write=True)),
    },
    "06": {
        "robust_weather": (Adapter(("bad_arguments", *TOOL_FAILURES, *OUTPUT_ROWS), _robust_weather),),
        "describe": (Adapter(TOOL_FAILURES, _describe_one_failed_source),),
        "from_cache": (answers(("transient", "permanent", "internal"),
                               lambda f, case: f({"city": "Madrid", "error": case.example})),),
    },
    "08": {
        "retry_fixed": (retries(FAILURE_ROWS, _retry_fixed),
                        retries(("transient", "permanent"), _retry_fixed, statuses=True)),
        "contract": (answers(FAILURE_ROWS, lambda f, case: f(case.example)),
                     answers(FAILURE_ROWS, lambda f, case: f(case.example, write=True), write=True)),
        "execute": (answers(ONE_CALL, _execute(write=False)),
                    answers(FAILURE_ROWS, _execute(write=True), write=True)),
        "results_always": (answers(ONE_CALL, _results_always),),
    },
}

#: Helpers these lessons show on purpose as the wrong way, each labelled as an anti-pattern where it is defined.
ANTI_PATTERNS = {
    "05": ("TRANSIENT_BUGGY", "search_once", "lookup_with_retry"),
    "06": ("naive_fallback",),
    "08": ("retry_buggy", "results_swallowing_errors", "v1_log_text"),
}
