"""toolfaults.idempotency: a write tool that de-duplicates on an idempotency key."""

from __future__ import annotations

import doctest

import pytest
from langchain_core.tools import ToolException
from pydantic import ValidationError

import toolfaults.idempotency
from toolfaults.idempotency import IdempotentWriteTool, idempotent_write_tool, takes_idempotency_key
from toolfaults.tools import WriteTool, write_tool

ARGS = {"customer_id": "cus_1", "amount_eur": 12.5, "idempotency_key": "k1"}


def test_doctests_pass() -> None:
    result = doctest.testmod(toolfaults.idempotency, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_is_a_write_tool_marked_with_side_effects() -> None:
    tool = idempotent_write_tool()
    assert isinstance(tool, IdempotentWriteTool) and isinstance(tool, WriteTool)
    assert tool.metadata == {"side_effects": True}
    assert tool.name == "charge_card" and "idempotency_key" in tool.args


def test_same_key_twice_does_the_effect_once_and_returns_the_first_result() -> None:
    tool = idempotent_write_tool()
    first = tool.invoke(ARGS)
    again = tool.invoke(ARGS)
    assert again == first
    assert tool.call_count == 2 and len(tool.effects) == 1


def test_new_key_is_a_new_effect() -> None:
    tool = idempotent_write_tool()
    tool.invoke(ARGS)
    tool.invoke({**ARGS, "idempotency_key": "k2"})
    assert len(tool.effects) == 2 and set(tool.results) == {"k1", "k2"}


def test_failure_after_the_effect_then_retry_with_same_key_gives_one_effect() -> None:
    tool = idempotent_write_tool(failures=1, fail="after")
    with pytest.raises(TimeoutError):
        tool.invoke(ARGS)
    assert len(tool.effects) == 1, "the effect happened before the failure"
    assert tool.invoke(ARGS).startswith("charged 12.50 EUR")
    assert len(tool.effects) == 1, "the retry with the same key must not charge again"


def test_failure_before_the_effect_stores_nothing_and_the_retry_does_it() -> None:
    tool = idempotent_write_tool(failures=1, fail="before", error=ConnectionError("reset"))
    with pytest.raises(ConnectionError):
        tool.invoke(ARGS)
    assert tool.effects == [] and tool.results == {}
    tool.invoke(ARGS)
    assert len(tool.effects) == 1


def test_retry_with_a_fresh_key_after_an_uncertain_failure_duplicates() -> None:
    tool = idempotent_write_tool(failures=1)
    with pytest.raises(TimeoutError):
        tool.invoke(ARGS)
    tool.invoke({**ARGS, "idempotency_key": "k1-retry"})
    assert len(tool.effects) == 2


def test_plain_write_tool_has_no_key_and_duplicates_on_retry() -> None:
    tool = write_tool(failures=1)
    assert not takes_idempotency_key(tool)
    with pytest.raises(TimeoutError):
        tool.invoke({"to": "a@example.com", "body": "hi"})
    tool.invoke({"to": "a@example.com", "body": "hi"})
    assert len(tool.effects) == 2


def test_missing_key_is_rejected_by_the_schema_before_any_effect() -> None:
    tool = idempotent_write_tool()
    with pytest.raises(ValidationError):
        tool.invoke({"customer_id": "cus_1", "amount_eur": 3})
    assert tool.call_count == 0 and tool.effects == []


def test_tool_exception_from_the_function_is_not_recorded_as_done() -> None:
    def charge(customer_id: str, amount_eur: float, idempotency_key: str) -> str:
        """Charge a card."""
        raise ToolException("card declined")

    tool = idempotent_write_tool(charge)
    with pytest.raises(ToolException):
        tool.invoke(ARGS)
    assert tool.results == {} and tool.effects == []


def test_custom_key_field_and_function_without_a_key() -> None:
    def book(room: str, request_id: str) -> str:
        """Book a room."""
        return f"booked {room}"

    tool = idempotent_write_tool(book, key_field="request_id")
    tool.invoke({"room": "A", "request_id": "r1"})
    tool.invoke({"room": "A", "request_id": "r1"})
    assert len(tool.effects) == 1 and takes_idempotency_key(tool, "request_id")

    def no_key(room: str) -> str:
        """Book a room."""
        return "booked"

    with pytest.raises(ValueError, match="idempotency_key"):
        idempotent_write_tool(no_key)


def test_reset_forgets_keys() -> None:
    tool = idempotent_write_tool()
    tool.invoke(ARGS)
    tool.reset()
    assert tool.results == {} and tool.effects == [] and tool.call_count == 0
    tool.invoke(ARGS)
    assert len(tool.effects) == 1
