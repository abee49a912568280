"""Lessons 05, 06 and 08: every helper that classifies a failure, decides a retry, converts an output or
writes an error message agrees with toolfaults.policy (COURSE_SPEC §3.9; issue 45), in both editions.

The same check as test_policy_consistency.py (lessons 01-04), with the same harness (policy_harness): each
lesson runs once in this process, each helper below is called on every example of the rows it handles,
and a failure names the lesson, the cell, the helper and the row. A helper may be checked more than one
way (``execute`` for a read and for a write), so an entry is a tuple of adapters. A lesson may show a
wrong policy only as a labelled anti-pattern (ANTI_PATTERNS).
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

import policy_harness as harness
from editions import EDITIONS
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


def _marks(edition):
    return [pytest.mark.spanish] if edition.language == "es" else []


def _run(edition, lesson: str) -> harness.LessonRun:
    run = harness.run_lesson(harness.lesson_path(edition.folder, lesson))
    assert not run.failures, f"{run.name} did not run top to bottom here: cells {run.failures}"
    return run


def check(run: harness.LessonRun, name: str, adapters: tuple[Adapter, ...]) -> list[harness.Disagreement]:
    return [d for adapter in adapters for d in harness.check_helper(run, name, adapter)]


HELPERS = [pytest.param(e, lesson, name, id=f"{lesson}-{name}-{e.language}", marks=_marks(e))
           for e in EDITIONS for lesson, helpers in sorted(LESSON_HELPERS.items()) for name in helpers]


@pytest.mark.parametrize(("edition", "lesson", "name"), HELPERS)
def test_lesson_helper_follows_the_policy(edition, lesson, name):
    """The helper gives, for every example of every row it handles, the policy's kind, retry decision,
    recovery, error flag and text (no exception text, path or traceback for the model)."""
    run = _run(edition, lesson)
    found = check(run, name, LESSON_HELPERS[lesson][name])
    assert not found, (f"{len(found)} disagreement(s) with toolfaults.policy (COURSE_SPEC §3.9):\n"
                       + "\n".join(f"- {d}" for d in found))


ANTI = [pytest.param(e, lesson, name, id=f"{lesson}-{name}-{e.language}", marks=_marks(e))
        for e in EDITIONS for lesson, names in sorted(ANTI_PATTERNS.items()) for name in names]


@pytest.mark.parametrize(("edition", "lesson", "name"), ANTI)
def test_a_wrong_policy_is_labelled_as_an_anti_pattern(edition, lesson, name):
    """A helper shown on purpose as the wrong way says so where it is defined ("anti-pattern")."""
    run = _run(edition, lesson)
    cell = run.cell_of(name)
    assert cell is not None, f"{run.name} no longer defines {name} (listed in ANTI_PATTERNS): update the entry"
    word = harness.ANTI_PATTERN_WORDS[edition.language]
    assert word in run.sources[cell].lower(), (
        f"lesson {run.name}, cell {cell}: {name} shows a wrong policy; label it, in its docstring or a comment, "
        f"with {word!r}, next to the right version")


def test_these_lessons_are_not_registered_twice():
    """Lessons 05-08 live here, lessons 01-04 in the policy_lessons_*.py modules: never both."""
    assert not set(LESSON_HELPERS) & set(harness.registry().helpers), "a lesson is registered in two places"


def _fake_run(**helpers) -> harness.LessonRun:
    run = harness.LessonRun(harness.HERE / "06_probe.ipynb", "en", dict(helpers), [None])
    run.cell_of = lambda name: 0  # type: ignore[method-assign]
    return run


def test_the_check_catches_a_helper_changed_back():
    """The old versions fail, naming lesson, cell, helper and row: robust_weather's stop_turn after the retries
    (the policy says retry_later), an is_transient that retries every 5xx, and a source chain that hands the
    model the exception's text."""
    from langchain_core.messages import ToolMessage
    from langchain_core.tools import ToolException

    from toolfaults.contract import ToolError

    def robust_weather(call, service, sleep, attempts=3):          # lesson 06 before issue 45
        city = call["args"]["city"]

        def failed(code, message, recovery):
            return ToolError(code, message, recovery).to_tool_message(call["id"], call["name"])
        if len(city.strip()) < 2:
            return failed("invalid_city", f"Invalid city {city!r}.", "correct_arguments")
        for attempt in range(attempts):
            try:
                return ToolMessage(service.invoke({"city": city}), tool_call_id=call["id"])
            except ToolException as err:
                return failed("unknown_city", str(err), "choose_alternative")
            except (ConnectionError, TimeoutError) as err:
                if attempt < attempts - 1:
                    continue
                return failed("weather_unavailable", f"Unavailable ({type(err).__name__}).", "stop_turn")

    def is_transient(exc):                                          # every 5xx, as lesson 04 once did
        status = getattr(exc, "status_code", 0)
        return isinstance(exc, (ConnectionError, TimeoutError)) or status in (408, 429) or status >= 500

    def try_sources(query, sources):                                # lesson 06 before issue 45
        from collections import namedtuple
        attempt = namedtuple("Attempt", "source ok detail")
        out = []
        for source in sources:
            try:
                out.append(attempt(source.name, True, source(query)))
                break
            except Exception as err:  # noqa: BLE001
                out.append(attempt(source.name, False, f"{type(err).__name__}: {err}"))
        return out

    lesson = {"try_sources": try_sources}        # describe finds try_sources in its lesson's namespace
    exec('def describe(attempts):\n    return "; ".join(f"{a.source} ({a.detail})" for a in attempts)', lesson)
    describe = lesson["describe"]

    run = _fake_run(robust_weather=robust_weather, is_transient=is_transient, try_sources=try_sources,
                    describe=describe)
    weather = check(run, "robust_weather", LESSON_HELPERS["06"]["robust_weather"])
    recovery = [d for d in weather if d.case and d.case.row == "transient" and "recovery" in d.problem]
    assert recovery and "the policy says 'retry_later', the lesson 'stop_turn'" in recovery[0].problem, \
        [str(d) for d in weather]
    assert str(recovery[0]).startswith("lesson 06_probe (en), cell 0, robust_weather, row 'transient'"), str(recovery[0])
    assert any(d.case and d.case.row == "internal" and "raised" in d.problem for d in weather), \
        "an internal failure escaping robust_weather should be flagged"
    status = check(run, "is_transient", LESSON_HELPERS["05"]["is_transient"])
    assert {d.case.example for d in status if d.case and d.case.is_status} == {501, 505, 507, 511}, \
        [str(d) for d in status]
    leaks = check(run, "describe", LESSON_HELPERS["06"]["describe"])
    assert any("class name 'KeyError'" in d.problem for d in leaks), [str(d) for d in leaks]


def test_the_registered_helpers_exist_in_both_editions():
    """Each registered name is defined by its lesson in both editions (a renamed helper fails here first)."""
    for edition in EDITIONS:
        for lesson, helpers in LESSON_HELPERS.items():
            run = _run(edition, lesson)
            missing = [name for name in helpers if run.cell_of(name) is None]
            assert not missing, f"{run.name} no longer defines {missing}: update LESSON_HELPERS"

