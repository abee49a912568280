"""toolfaults.models.ScriptedChatModel: a real chat model that follows a script."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from langchain_core.caches import InMemoryCache
from langchain_core.globals import set_llm_cache
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool

from toolfaults.catalog import weather_tool
from toolfaults.errors import OverloadedError
from toolfaults.models import ScriptedChatModel, ScriptExhaustedError, ai, invalid_tool_call, tool_call


@tool
def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    return "sunny"


def test_is_a_real_chat_model() -> None:
    model = ScriptedChatModel(script=["hi"])
    assert isinstance(model, BaseChatModel)
    assert model._llm_type == "scripted-chat-model"


def test_builders() -> None:
    call = tool_call("get_weather", {"city": "Madrid"}, id="call_a")
    assert call == {"type": "tool_call", "name": "get_weather", "args": {"city": "Madrid"}, "id": "call_a"}
    first, second = tool_call("x"), tool_call("x")
    assert first["id"] != second["id"] and first["args"] == {}
    bad = invalid_tool_call("get_weather", '{"city": Madrid', id="call_b")
    assert bad["type"] == "invalid_tool_call" and bad["args"] == '{"city": Madrid'
    assert bad["id"] == "call_b" and "JSON" in bad["error"]
    assert invalid_tool_call(None, "{", error="truncated")["error"] == "truncated"
    msg = ai("thinking", tool_calls=[call], invalid_tool_calls=[bad])
    assert isinstance(msg, AIMessage) and msg.content == "thinking"
    assert msg.tool_calls[0]["id"] == "call_a" and msg.invalid_tool_calls[0]["id"] == "call_b"


def test_ai_message_with_tool_calls_and_invalid_tool_calls() -> None:
    model = ScriptedChatModel(
        script=[
            ai(
                tool_calls=[tool_call("get_weather", {"city": "Madrid"}, id="call_1")],
                invalid_tool_calls=[invalid_tool_call("get_weather", "{city: Tokyo", id="call_2")],
            )
        ]
    )
    reply = model.invoke("Weather in Madrid and Tokyo?")
    assert isinstance(reply, AIMessage)
    assert reply.tool_calls == [
        {"name": "get_weather", "args": {"city": "Madrid"}, "id": "call_1", "type": "tool_call"}
    ]
    assert len(reply.invalid_tool_calls) == 1
    assert reply.invalid_tool_calls[0]["args"] == "{city: Tokyo" and reply.invalid_tool_calls[0]["id"] == "call_2"


def test_str_entries_become_text_answers() -> None:
    model = ScriptedChatModel(script=["first", "second"])
    assert model.invoke("a").content == "first"
    second = model.invoke("b")
    assert isinstance(second, AIMessage) and second.content == "second" and second.tool_calls == []


def test_same_ai_message_entry_is_not_mutated_across_calls() -> None:
    entry = ai("same")
    model = ScriptedChatModel(script=[entry, entry])
    one, two = model.invoke("a"), model.invoke("b")
    assert one.content == two.content == "same"
    assert one is not entry and two is not entry and one is not two
    assert entry.id is None  # the script's own message stays untouched


def test_callable_entries_see_the_messages_received() -> None:
    def react(messages: list[BaseMessage]) -> str:
        last = messages[-1]
        if isinstance(last, ToolMessage) and last.status == "error":
            return f"The tool failed: {last.content}"
        return "no error seen"

    model = ScriptedChatModel(script=[react, lambda msgs: ai(f"{len(msgs)} messages")])
    history = [
        HumanMessage("Weather?"),
        ai(tool_calls=[tool_call("get_weather", {"city": "X"}, id="c1")]),
        ToolMessage("unknown city X", tool_call_id="c1", status="error"),
    ]
    assert model.invoke(history).content == "The tool failed: unknown city X"
    assert model.invoke(history[:1]).content == "1 messages"


def test_scripted_exceptions_are_raised_and_counted() -> None:
    model = ScriptedChatModel(script=[OverloadedError("busy", retry_after=1), TimeoutError, "recovered"])
    with pytest.raises(OverloadedError) as info:
        model.invoke("a")
    assert info.value.status_code == 529 and info.value.retry_after == 1.0
    with pytest.raises(TimeoutError, match="model call 2"):
        model.invoke("b")
    assert model.invoke("c").content == "recovered"
    assert model.calls == 3 and model.remaining == 0


def test_callable_may_return_an_exception_to_raise() -> None:
    model = ScriptedChatModel(script=[lambda msgs: ConnectionError("api unreachable")])
    with pytest.raises(ConnectionError, match="api unreachable"):
        model.invoke("x")


def test_received_records_each_message_list() -> None:
    model = ScriptedChatModel(script=["a", "b"])
    model.invoke("plain question")
    conversation = [SystemMessage("be brief"), HumanMessage("q")]
    model.invoke(conversation)
    assert len(model.received) == 2
    assert [type(m) for m in model.received[0]] == [HumanMessage]
    assert model.received[0][0].content == "plain question"
    assert [m.content for m in model.received[1]] == ["be brief", "q"]
    conversation.append(HumanMessage("later"))  # the record is a copy of the list
    assert len(model.received[1]) == 2


def test_calls_and_remaining_track_the_script() -> None:
    model = ScriptedChatModel(script=["a", "b", "c"])
    assert (model.calls, model.remaining) == (0, 3)
    model.invoke("x")
    assert (model.calls, model.remaining) == (1, 2)


def test_bind_tools_records_schemas_and_returns_a_working_model() -> None:
    model = ScriptedChatModel(script=[ai(tool_calls=[tool_call("get_weather", {"city": "Madrid"})]), "done"])
    bound = model.bind_tools([get_weather, weather_tool(name="weather_mock")])
    assert model.bound_tool_names == ["get_weather", "weather_mock"]
    schema = model.bound_tools[0]
    assert schema["type"] == "function"
    assert schema["function"]["parameters"]["properties"]["city"]["type"] == "string"
    assert schema["function"]["description"] == "Get the current weather for a city."
    first = bound.invoke("Weather?")
    assert first.tool_calls[0]["name"] == "get_weather"
    assert bound.invoke("next").content == "done"
    assert model.calls == 2  # the bound model shares the script and the record


def test_bind_tools_accepts_dict_schemas_and_replaces_previous_binding() -> None:
    model = ScriptedChatModel(script=[])
    model.bind_tools([get_weather])
    model.bind_tools(
        [{"name": "lookup", "description": "Look up.", "input_schema": {"type": "object", "properties": {}}}],
        tool_choice="any",
    )
    assert model.bound_tool_names == ["lookup"]


def test_exhausted_script_raises_a_clear_error() -> None:
    model = ScriptedChatModel(script=["only answer"])
    model.invoke("a")
    with pytest.raises(ScriptExhaustedError) as info:
        model.invoke("b")
    text = str(info.value)
    assert "called 2 times" in text and "only 1 response" in text
    assert "stop condition" in text
    assert isinstance(info.value, RuntimeError)
    assert model.calls == 2  # the failed call is still recorded


def test_empty_script_fails_on_first_call() -> None:
    with pytest.raises(ScriptExhaustedError, match="only 0 response"):
        ScriptedChatModel().invoke("x")


def test_bad_entry_type_is_reported() -> None:
    model = ScriptedChatModel(script=[42])
    with pytest.raises(TypeError, match="script entry 0 is int"):
        model.invoke("x")


@pytest.fixture
def global_llm_cache() -> Iterator[None]:
    set_llm_cache(InMemoryCache())
    try:
        yield
    finally:
        set_llm_cache(None)


def test_global_llm_cache_does_not_skip_the_script(global_llm_cache: None) -> None:
    model = ScriptedChatModel(script=["first", "second"])
    assert model.invoke("same prompt").content == "first"
    assert model.invoke("same prompt").content == "second"


def test_repr_is_short_and_says_where_the_script_is() -> None:
    """LangChain writes repr(model) into each model's first call trace: it must not print the whole script."""
    long = "x" * 5000
    model = ScriptedChatModel(script=[ai(long), ai(long), "done"])
    model.invoke("hi")
    shown = repr(model)
    assert long not in shown and len(shown) < 200
    assert "3 entries" in shown and "calls=1" in shown
