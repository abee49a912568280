"""Lessons 05, 06 and 08: the consistency check catches their old helpers (issue 45).

Their helpers are registered in policy_lessons_05_08.py and checked by test_policy_consistency.py with every
other lesson's; here, the versions the lessons had before issue 45 fail that check, naming the lesson, the
cell, the helper and the row.
"""

from __future__ import annotations

import policy_harness as harness
from policy_lessons_05_08 import LESSON_HELPERS


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
    weather = harness.check_helper(run, "robust_weather", LESSON_HELPERS["06"]["robust_weather"])
    recovery = [d for d in weather if d.case and d.case.row == "transient" and "recovery" in d.problem]
    assert recovery and "the policy says 'retry_later', the lesson 'stop_turn'" in recovery[0].problem, \
        [str(d) for d in weather]
    assert str(recovery[0]).startswith("lesson 06_probe (en), cell 0, robust_weather, row 'transient'"), str(recovery[0])
    assert any(d.case and d.case.row == "internal" and "raised" in d.problem for d in weather), \
        "an internal failure escaping robust_weather should be flagged"
    status = harness.check_helper(run, "is_transient", LESSON_HELPERS["05"]["is_transient"])
    assert {d.case.example for d in status if d.case and d.case.is_status} == {501, 505, 507, 511}, \
        [str(d) for d in status]
    leaks = harness.check_helper(run, "describe", LESSON_HELPERS["06"]["describe"])
    assert any("class name 'KeyError'" in d.problem for d in leaks), [str(d) for d in leaks]
