"""toolfaults.contract: one error contract (code, message, recovery from a closed set) in every format."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import ToolMessage, messages_from_dict, messages_to_dict
from langchain_core.tools import StructuredTool, ToolException

from toolfaults.contract import RECOVERIES, ToolError, ToolFailure
from toolfaults.models import tool_call


def test_the_closed_set_is_the_four_recoveries_the_lessons_teach():
    assert RECOVERIES == ("correct_arguments", "choose_alternative", "retry_later", "stop_turn")


@pytest.mark.parametrize("recovery", RECOVERIES)
def test_every_recovery_of_the_set_is_accepted(recovery):
    assert ToolError("some_code", "Something failed.", recovery).recovery == recovery


@pytest.mark.parametrize("recovery", ["retry", "give_up", "ask_user", "STOP_TURN", "", None])
def test_a_recovery_outside_the_set_is_refused(recovery):
    with pytest.raises(ValueError, match="recovery must be one of"):
        ToolError("some_code", "Something failed.", recovery)


@pytest.mark.parametrize("code", ["", "Not Found", "404", "not-found", None])
def test_a_code_must_be_a_stable_snake_case_name(code):
    with pytest.raises(ValueError, match="code"):
        ToolError(code, "Something failed.", "stop_turn")


@pytest.mark.parametrize("message", ["", "   ", None])
def test_a_message_must_say_something(message):
    with pytest.raises(ValueError, match="message"):
        ToolError("some_code", message, "stop_turn")


def test_the_json_keeps_non_ascii_text_as_it_is():
    text = ToolError("refund_denied", "La devolución no está permitida: 250 €.", "stop_turn").to_json()
    assert "devolución" in text and "€" in text and "\\u" not in text
    assert json.loads(text) == {"code": "refund_denied", "message": "La devolución no está permitida: 250 €.",
                                "recovery": "stop_turn"}


def test_details_appear_only_when_given():
    assert "details" not in ToolError("x", "m", "stop_turn").to_dict()
    err = ToolError("invalid_arguments", "date must be YYYY-MM-DD.", "correct_arguments", {"field": "date"})
    assert err.to_dict()["details"] == {"field": "date"}


def test_a_tool_message_is_flagged_and_carries_the_contract():
    err = ToolError("not_found", "No city 'Atlantis'.", "choose_alternative")
    msg = err.to_tool_message("call_7", name="get_weather")
    assert (msg.status, msg.tool_call_id, msg.name) == ("error", "call_7", "get_weather")
    assert json.loads(msg.content)["recovery"] == "choose_alternative"
    assert msg.artifact == err.to_dict()


def test_an_anthropic_block_is_flagged():
    block = ToolError("not_found", "No city 'Atlantis'.", "choose_alternative").to_tool_result("toolu_9")
    assert block["type"] == "tool_result" and block["tool_use_id"] == "toolu_9" and block["is_error"] is True
    assert json.loads(block["content"])["code"] == "not_found"


def test_the_contract_survives_a_replay_from_history():
    err = ToolError("outcome_unknown", "Could not confirm the e-mail was sent; not repeated.", "stop_turn")
    replayed = messages_from_dict(json.loads(json.dumps(messages_to_dict([err.to_tool_message("c1")]))))[0]
    assert replayed.status == "error" and ToolError.from_result(replayed) == err


def test_from_result_reads_the_content_when_there_is_no_artifact():
    err = ToolError("timeout", "The search timed out; try once more later.", "retry_later")
    msg = ToolMessage(err.to_json(), tool_call_id="c1", status="error")
    assert ToolError.from_result(msg) == err
    assert ToolError.from_result(err.to_tool_result("t1")) == err


def test_an_unflagged_result_has_no_contract_whatever_its_text():
    """The flag decides, never the wording: data that looks like a contract is still data."""
    err = ToolError("timeout", "The search timed out.", "retry_later")
    assert ToolError.from_result(ToolMessage(err.to_json(), tool_call_id="c1")) is None
    assert ToolError.from_result({"type": "tool_result", "tool_use_id": "t", "content": err.to_json()}) is None
    assert ToolError.from_result(ToolMessage("plain error text", tool_call_id="c1", status="error")) is None


def test_a_tool_failure_is_a_tool_exception_that_langchain_handles():
    err = ToolError("not_found", "No city 'Atlantis'. Known: Madrid, Tokyo.", "choose_alternative")

    def get_weather(city: str) -> str:
        """Weather for a city."""
        raise ToolFailure(err)

    weather = StructuredTool.from_function(get_weather, handle_tool_error=True)
    msg = weather.invoke(tool_call("get_weather", {"city": "Atlantis"}, id="c1"))
    assert msg.status == "error" and msg.content == err.message
    with pytest.raises(ToolException) as raised:
        StructuredTool.from_function(get_weather).invoke({"city": "Atlantis"})
    assert raised.value.error is err
