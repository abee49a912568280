"""toolfaults.tools: real LangChain tools that fail exactly as scripted."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import StructuredTool, ToolException
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ValidationError

from toolfaults.clock import RecordingSleep
from toolfaults.errors import RateLimitError, ServiceUnavailableError
from toolfaults.tools import (
    CALL,
    MockTool,
    Return,
    WriteTool,
    failing_tool,
    flaky_tool,
    fresh_exception,
    make_tool,
    odd_format_tool,
    rate_limited_tool,
    timeout_tool,
    write_tool,
)


def call(name: str, args: dict[str, Any], id: str = "call_1") -> dict[str, Any]:
    """A ToolCall as a model emits it."""
    return {"type": "tool_call", "id": id, "name": name, "args": args}


def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return f"{city}: sunny"


# -- make_tool / MockTool ----------------------------------------------------


def test_default_tool_is_web_search_structured_tool() -> None:
    tool = make_tool()
    assert isinstance(tool, StructuredTool) and isinstance(tool, MockTool)
    assert tool.name == "web_search"
    assert list(tool.args) == ["query"]
    assert tool.invoke({"query": "jitter"}) == "results for 'jitter'"
    assert tool.calls == [{"query": "jitter"}] and tool.call_count == 1


def test_function_gives_name_schema_and_description() -> None:
    tool = make_tool(get_weather)
    schema = convert_to_openai_tool(tool)["function"]
    assert schema["name"] == "get_weather"
    assert schema["description"] == "Get the current weather for a city."
    assert schema["parameters"]["required"] == ["city"]
    assert make_tool(get_weather, name="weather", description="Weather now.").name == "weather"


def test_outcomes_then_and_return() -> None:
    tool = make_tool(outcomes=[Return("first"), ValueError("second"), CALL], then=Return("later"))
    assert tool.invoke({"query": "a"}) == "first"
    with pytest.raises(ValueError, match="second"):
        tool.invoke({"query": "b"})
    assert tool.invoke({"query": "c"}) == "results for 'c'"
    assert tool.invoke({"query": "d"}) == "later"
    assert tool.invoke({"query": "e"}) == "later"
    assert [c["query"] for c in tool.calls] == list("abcde")


def test_exception_class_outcome_is_instantiated_with_tool_name() -> None:
    tool = make_tool(get_weather, outcomes=[TimeoutError])
    with pytest.raises(TimeoutError, match="get_weather failed"):
        tool.invoke({"city": "Madrid"})


def test_reset_restarts_the_script() -> None:
    tool = flaky_tool(failures=1)
    with pytest.raises(ConnectionError):
        tool.invoke({"query": "x"})
    tool.invoke({"query": "x"})
    tool.reset()
    assert tool.calls == [] and tool.call_count == 0
    with pytest.raises(ConnectionError):
        tool.invoke({"query": "x"})


def test_bare_string_input_is_recorded_under_its_field_name() -> None:
    tool = flaky_tool(failures=0)
    assert tool.invoke("jitter") == "results for 'jitter'"
    assert tool.calls == [{"query": "jitter"}]


def test_latency_goes_to_injected_sleep(no_real_sleep: None) -> None:
    sleep = RecordingSleep()
    tool = make_tool(latency=0.3, sleep=sleep, outcomes=[ConnectionError("x")])
    with pytest.raises(ConnectionError):
        tool.invoke({"query": "a"})
    tool.invoke({"query": "b"})
    assert sleep.delays == [0.3, 0.3]


def test_async_invoke_follows_the_same_script() -> None:
    tool = flaky_tool(failures=1)
    with pytest.raises(ConnectionError):
        asyncio.run(tool.ainvoke({"query": "a"}))
    assert asyncio.run(tool.ainvoke({"query": "b"})) == "results for 'b'"
    assert tool.calls == [{"query": "a"}, {"query": "b"}]


def test_fresh_exception_copies_instances_and_keeps_attributes() -> None:
    original = RateLimitError("slow", retry_after=3)
    fresh = fresh_exception(original)
    assert fresh is not original
    assert type(fresh) is RateLimitError and fresh.retry_after == 3.0 and fresh.status_code == 429
    assert str(fresh_exception(KeyError, "msg")) == "'msg'"


# -- flaky_tool --------------------------------------------------------------


@pytest.mark.parametrize("failures", [0, 1, 3])
def test_flaky_tool_fails_exactly_n_times_then_succeeds(failures: int) -> None:
    tool = flaky_tool(failures=failures)
    for i in range(failures):
        with pytest.raises(ConnectionError, match="connection reset by peer"):
            tool.invoke({"query": f"q{i}"})
    assert tool.invoke({"query": "ok"}) == "results for 'ok'"
    assert tool.invoke({"query": "again"}) == "results for 'again'"
    assert tool.call_count == failures + 2
    assert tool.calls[-1] == {"query": "again"}


def test_flaky_tool_raises_fresh_copies_with_attributes() -> None:
    error = ServiceUnavailableError("search down", retry_after=1)
    tool = flaky_tool(failures=2, error=error)
    raised = []
    for _ in range(2):
        with pytest.raises(ServiceUnavailableError) as info:
            tool.invoke({"query": "x"})
        raised.append(info.value)
    assert raised[0] is not raised[1] and raised[0] is not error
    assert all(e.status_code == 503 and e.retry_after == 1.0 for e in raised)


def test_flaky_tool_with_custom_function() -> None:
    tool = flaky_tool(get_weather, failures=1, error=TimeoutError("slow"))
    assert tool.name == "get_weather"
    with pytest.raises(TimeoutError):
        tool.invoke({"city": "Oslo"})
    assert tool.invoke({"city": "Oslo"}) == "Oslo: sunny"
    assert tool.calls == [{"city": "Oslo"}, {"city": "Oslo"}]


# -- failing_tool ------------------------------------------------------------


def test_failing_tool_always_fails() -> None:
    tool = failing_tool()
    for _ in range(5):
        with pytest.raises(RuntimeError, match="internal failure"):
            tool.invoke({"query": "x"})
    assert tool.call_count == 5


def test_failing_tool_custom_error() -> None:
    tool = failing_tool(get_weather, error=PermissionError("no access"))
    with pytest.raises(PermissionError, match="no access"):
        tool.invoke({"city": "Rome"})
    assert tool.calls == [{"city": "Rome"}]


# -- timeout_tool ------------------------------------------------------------


def test_timeout_tool_times_out_forever_by_default() -> None:
    tool = timeout_tool(timeout=5.0)
    for _ in range(4):
        with pytest.raises(TimeoutError) as info:
            tool.invoke({"query": "x"})
        assert "web_search" in str(info.value) and "5 s" in str(info.value)
    assert tool.call_count == 4


def test_timeout_tool_sleeps_timeout_on_injected_sleep(no_real_sleep: None) -> None:
    sleep = RecordingSleep()
    tool = timeout_tool(get_weather, timeout=2.5, failures=2, sleep=sleep)
    for _ in range(2):
        with pytest.raises(TimeoutError, match="get_weather did not answer within 2.5 s"):
            tool.invoke({"city": "Lima"})
    assert tool.invoke({"city": "Lima"}) == "Lima: sunny"
    assert sleep.delays == [2.5, 2.5]  # the successful call took no simulated time
    assert sleep.now() == 5.0


def test_timeout_tool_without_sleep_returns_at_once(no_real_sleep: None) -> None:
    tool = timeout_tool(timeout=30, failures=1)
    with pytest.raises(TimeoutError):
        tool.invoke({"query": "x"})
    assert tool.invoke({"query": "x"}) == "results for 'x'"


# -- rate_limited_tool -------------------------------------------------------


def test_rate_limited_tool_answers_429_with_retry_after() -> None:
    tool = rate_limited_tool(failures=2, retry_after=7)
    for _ in range(2):
        with pytest.raises(RateLimitError) as info:
            tool.invoke({"query": "x"})
        assert info.value.status_code == 429
        assert info.value.retry_after == 7.0
        assert "web_search" in str(info.value)
    assert tool.invoke({"query": "x"}) == "results for 'x'"
    assert tool.call_count == 3


def test_rate_limited_tool_default_is_one_failure_retry_after_two() -> None:
    tool = rate_limited_tool()
    with pytest.raises(RateLimitError) as info:
        tool.invoke({"query": "x"})
    assert info.value.retry_after == 2.0
    assert tool.invoke({"query": "x"}) == "results for 'x'"


def test_rate_limited_tool_forever_and_without_retry_after() -> None:
    tool = rate_limited_tool(failures=None, retry_after=None)
    for _ in range(3):
        with pytest.raises(RateLimitError) as info:
            tool.invoke({"query": "x"})
        assert info.value.retry_after is None


# -- odd_format_tool ---------------------------------------------------------


@pytest.mark.parametrize("value", [None, {"temp_c": 21, "sky": "clear"}, b"\x00\x01raw", [1, 2], 42, ""])
def test_odd_format_tool_returns_value_as_is_with_args_dict(value: Any) -> None:
    tool = odd_format_tool(value)
    result = tool.invoke({"query": "Madrid"})
    assert result == value and type(result) is type(value)
    assert tool.calls == [{"query": "Madrid"}]


def test_odd_format_tool_through_tool_call_gives_string_content() -> None:
    none_msg = odd_format_tool(None).invoke(call("web_search", {"query": "q"}))
    assert isinstance(none_msg, ToolMessage)
    assert none_msg.content == "null" and none_msg.status == "success"
    assert none_msg.tool_call_id == "call_1"

    dict_msg = odd_format_tool({"temp_c": 21}).invoke(call("web_search", {"query": "q"}, id="c2"))
    assert json.loads(dict_msg.content) == {"temp_c": 21}
    assert dict_msg.tool_call_id == "c2" and dict_msg.status == "success"

    bytes_msg = odd_format_tool(b"raw-bytes").invoke(call("web_search", {"query": "q"}))
    assert isinstance(bytes_msg.content, str)
    assert "raw-bytes" in bytes_msg.content


# -- write_tool --------------------------------------------------------------


def test_write_tool_defaults() -> None:
    tool = write_tool()
    assert isinstance(tool, WriteTool)
    assert tool.name == "send_email" and list(tool.args) == ["to", "body"]
    assert tool.metadata == {"side_effects": True}
    assert tool.fail == "after"
    assert tool.invoke({"to": "ana@example.com", "body": "hi"}) == "message sent to ana@example.com"
    assert tool.effects == [{"to": "ana@example.com", "body": "hi"}] and tool.effect_happened


def test_write_tool_fail_after_means_effect_happened() -> None:
    tool = write_tool(failures=1)
    with pytest.raises(TimeoutError, match="did not confirm"):
        tool.invoke({"to": "a@x.org", "body": "b"})
    assert tool.effect_happened
    assert tool.effects == [{"to": "a@x.org", "body": "b"}]
    tool.invoke({"to": "a@x.org", "body": "b"})
    assert len(tool.effects) == 2  # repeating an uncertain write does it twice


def test_write_tool_fail_before_means_nothing_happened() -> None:
    tool = write_tool(failures=2, fail="before", error=ConnectionError("smtp down"))
    for _ in range(2):
        with pytest.raises(ConnectionError):
            tool.invoke({"to": "a@x.org", "body": "b"})
    assert not tool.effect_happened and tool.effects == []
    assert tool.call_count == 2
    tool.invoke({"to": "a@x.org", "body": "b"})
    assert tool.effects == [{"to": "a@x.org", "body": "b"}]


def test_write_tool_custom_function_and_metadata_merge() -> None:
    def transfer(amount: float, to: str) -> str:
        """Transfer money."""
        return f"sent {amount} to {to}"

    tool = write_tool(transfer, metadata={"owner": "bank"})
    assert tool.metadata == {"side_effects": True, "owner": "bank"}
    tool.invoke({"amount": 5, "to": "bob"})
    assert tool.effects == [{"amount": 5.0, "to": "bob"}]


def test_write_tool_reset_clears_effects() -> None:
    tool = write_tool()
    tool.invoke({"to": "a", "body": "b"})
    tool.reset()
    assert tool.effects == [] and tool.calls == [] and not tool.effect_happened


def test_write_tool_effects_are_independent_of_calls() -> None:
    tool = write_tool()
    tool.invoke({"to": "a", "body": "b"})
    tool.calls[0]["to"] = "changed"
    assert tool.effects == [{"to": "a", "body": "b"}]


# -- schema rejection --------------------------------------------------------


@pytest.mark.parametrize(
    ("factory", "field"),
    [(lambda: make_tool(get_weather), "city"), (lambda: failing_tool(get_weather), "city"), (write_tool, "to")],
    ids=["make_tool", "failing_tool", "write_tool"],
)
@pytest.mark.parametrize("bad", ["missing", None, ["x"]], ids=["missing", "none", "list"])
def test_schema_rejection_never_reaches_the_function(factory, field: str, bad: Any) -> None:
    tool = factory()
    args: dict[str, Any] = {"body": "hi"} if field == "to" else {}
    if bad != "missing":
        args[field] = bad
    with pytest.raises(ValidationError) as info:
        tool.invoke(args)
    assert field in str(info.value)
    assert tool.calls == [] and tool.call_count == 0
    if isinstance(tool, WriteTool):
        assert tool.effects == []


def test_rejected_call_does_not_use_up_a_scripted_outcome() -> None:
    tool = flaky_tool(get_weather, failures=1)
    with pytest.raises(ValidationError):
        tool.invoke({"town": "Oslo"})
    with pytest.raises(ConnectionError):  # the first scripted failure is still there
        tool.invoke({"city": "Oslo"})
    assert tool.calls == [{"city": "Oslo"}]


# -- handle_tool_error parity with StructuredTool ----------------------------


def _plain_failing_tool() -> StructuredTool:
    def web_search(query: str) -> str:
        """Search the web for a query and return the top results."""
        raise ToolException(f"no results for {query!r}")

    return StructuredTool.from_function(web_search)


@pytest.mark.parametrize(
    "handler",
    [True, "Search failed: try other words.", lambda e: f"handled: {e}"],
    ids=["true", "string", "callable"],
)
def test_handle_tool_error_behaves_as_on_structured_tool(handler: Any) -> None:
    mock = failing_tool(error=ToolException("no results for 'q'"))
    plain = _plain_failing_tool()
    mock.handle_tool_error = handler
    plain.handle_tool_error = handler
    assert mock.invoke({"query": "q"}) == plain.invoke({"query": "q"})
    mine = mock.invoke(call("web_search", {"query": "q"}, id="t1"))
    theirs = plain.invoke(call("web_search", {"query": "q"}, id="t1"))
    assert isinstance(mine, ToolMessage) and mine.status == "error"
    assert (mine.content, mine.status, mine.tool_call_id, mine.name) == (
        theirs.content,
        theirs.status,
        theirs.tool_call_id,
        theirs.name,
    )
    assert mock.call_count == 2


def test_handle_tool_error_can_be_set_through_make_tool() -> None:
    tool = make_tool(then=ToolException("boom"), handle_tool_error=True)
    assert tool.invoke({"query": "x"}) == "boom"


def test_handle_tool_error_does_not_catch_other_exceptions() -> None:
    tool = failing_tool(error=ConnectionError("down"))
    tool.handle_tool_error = True
    with pytest.raises(ConnectionError):
        tool.invoke({"query": "x"})
    with pytest.raises(ConnectionError):
        tool.invoke(call("web_search", {"query": "x"}))


def test_without_handler_tool_exception_propagates() -> None:
    with pytest.raises(ToolException):
        failing_tool(error=ToolException("x")).invoke({"query": "q"})


def test_tools_of_one_function_share_its_schema_and_keep_their_own_calls() -> None:
    """toolfaults builds a schema once per function of its own (exercises build hundreds of tools from a few)."""
    from toolfaults.catalog import weather_tool

    first, second = weather_tool(), weather_tool()
    assert first.args_schema is second.args_schema
    first.invoke({"city": "Madrid"})
    assert (first.call_count, second.call_count) == (1, 0)
    with pytest.raises(ValidationError):
        second.invoke({"town": "Madrid"})
    renamed = make_tool(name="search_news", description="Search the news.")
    assert (renamed.name, renamed.description) == ("search_news", "Search the news.")
    assert convert_to_openai_tool(renamed)["function"]["name"] == "search_news"
    assert make_tool().name == "web_search"


def test_a_tool_follows_the_current_definition_of_a_learners_types() -> None:
    """A function defined in a notebook is never cached: a class it names can be redefined and run again."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec("from __future__ import annotations\n"  # string annotations, resolved when the schema is built
         "from pydantic import BaseModel\n"
         "class Place(BaseModel):\n    city: str\n"
         "def lookup(place: Place) -> str:\n    '''Look a place up.'''\n    return 'found'\n", namespace)
    assert make_tool(namespace["lookup"]).invoke({"place": {"city": "Lima"}}) == "found"
    exec("class Place(BaseModel):\n    country: str\n", namespace)
    tool = make_tool(namespace["lookup"])
    assert tool.invoke({"place": {"country": "Peru"}}) == "found"
    with pytest.raises(ValidationError):
        tool.invoke({"place": {"city": "Lima"}})
