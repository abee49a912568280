"""toolfaults.catalog: the course's domain tools and fallback sources."""

from __future__ import annotations

import pytest
from langchain_core.tools import ToolException
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ValidationError

from toolfaults.catalog import (
    COUNTRIES,
    STOCKS,
    WEATHER,
    Source,
    arithmetic_tools,
    calculator_tool,
    stock_price_tool,
    weather_tool,
)
from toolfaults.tools import MockTool


def test_weather_known_city_any_case_and_spaces() -> None:
    tool = weather_tool()
    assert isinstance(tool, MockTool) and tool.name == "get_weather"
    assert tool.invoke({"city": "Madrid"}) == "Madrid: 22°C, sunny"
    assert tool.invoke({"city": "  tokyo "}) == "Tokyo: 15°C, rain"
    assert tool.call_count == 2


def test_weather_unknown_city_lists_known_cities() -> None:
    tool = weather_tool()
    with pytest.raises(ToolException) as info:
        tool.invoke({"city": "Atlantis"})
    text = str(info.value)
    assert "Atlantis" in text
    assert all(city in text for city in WEATHER)
    tool.handle_tool_error = True
    assert "Known cities" in tool.invoke({"city": "Atlantis"})


def test_weather_tool_accepts_fault_script() -> None:
    tool = weather_tool(outcomes=[ConnectionError("weather API down")])
    with pytest.raises(ConnectionError):
        tool.invoke({"city": "Madrid"})
    assert tool.invoke({"city": "Madrid"}).startswith("Madrid")


def test_factories_return_fresh_tools() -> None:
    first, second = weather_tool(), weather_tool()
    first.invoke({"city": "Madrid"})
    assert first is not second and second.calls == []


@pytest.mark.parametrize(
    ("operation", "a", "b", "expected"),
    [("add", 2, 3, "5.0"), ("subtract", 2, 3, "-1.0"), ("multiply", 4, 2.5, "10.0"), ("divide", 9, 4, "2.25")],
)
def test_calculator_operations(operation: str, a: float, b: float, expected: str) -> None:
    assert calculator_tool().invoke({"operation": operation, "a": a, "b": b}) == expected


def test_calculator_divide_by_zero_is_an_internal_error() -> None:
    tool = calculator_tool()
    with pytest.raises(ZeroDivisionError):
        tool.invoke({"operation": "divide", "a": 1, "b": 0})
    assert tool.calls == [{"operation": "divide", "a": 1.0, "b": 0.0}]


def test_calculator_schema_rejects_unknown_operation_before_running() -> None:
    tool = calculator_tool()
    with pytest.raises(ValidationError) as info:
        tool.invoke({"operation": "power", "a": 2, "b": 3})
    assert "operation" in str(info.value)
    with pytest.raises(ValidationError):
        tool.invoke({"operation": "add", "a": "two", "b": 3})
    assert tool.calls == []


def test_calculator_schema_shows_the_enum_to_the_model() -> None:
    params = convert_to_openai_tool(calculator_tool())["function"]["parameters"]
    assert params["properties"]["operation"]["enum"] == ["add", "subtract", "multiply", "divide"]
    assert sorted(params["required"]) == ["a", "b", "operation"]


def test_stock_price_known_and_unknown() -> None:
    tool = stock_price_tool()
    assert tool.name == "get_stock_price"
    assert tool.invoke({"ticker": " aapl"}) == f"AAPL: ${STOCKS['AAPL']:.2f} USD"
    with pytest.raises(ToolException) as info:
        tool.invoke({"ticker": "ZZZZ"})
    assert "ZZZZ" in str(info.value) and all(t in str(info.value) for t in STOCKS)


def test_arithmetic_tools() -> None:
    multiply, add = arithmetic_tools()
    assert (multiply.name, add.name) == ("multiply", "add")
    assert multiply.invoke({"a": 6, "b": 7}) == 42
    assert add.invoke({"a": 0.5, "b": 2}) == 2.5
    assert multiply.calls == [{"a": 6.0, "b": 7.0}] and add.call_count == 1


def test_countries_table() -> None:
    assert COUNTRIES["Spain"]["capital"] == "Madrid"
    assert set(COUNTRIES) >= {"Spain", "Japan", "Mexico"}
    assert all({"capital", "population", "language"} <= set(v) for v in COUNTRIES.values())


# -- Source ------------------------------------------------------------------


def test_source_answers_and_records_queries() -> None:
    cache = Source("cache", answer="22°C (cached)")
    assert cache("Madrid") == "22°C (cached)"
    assert cache("Tokyo") == "22°C (cached)"
    assert cache.calls == ["Madrid", "Tokyo"] and cache.call_count == 2


def test_source_default_and_callable_answers() -> None:
    assert Source("primary")("jitter") == "primary: results for 'jitter'"
    assert Source("upper", answer=str.upper)("abc") == "ABC"


def test_source_empty_answer_is_an_answer() -> None:
    assert Source("empty", answer="")("q") == ""


def test_source_errors_then_answer() -> None:
    source = Source("api", answer="ok", errors=[TimeoutError("slow"), ConnectionError("down")])
    with pytest.raises(TimeoutError, match="slow"):
        source("a")
    with pytest.raises(ConnectionError, match="down"):
        source("b")
    assert source("c") == "ok"
    assert source.calls == ["a", "b", "c"]


def test_source_error_forever_with_fresh_exceptions() -> None:
    error = ConnectionError("primary unreachable")
    source = Source("primary", error=error)
    raised = []
    for _ in range(3):
        with pytest.raises(ConnectionError, match="primary unreachable") as info:
            source("x")
        raised.append(info.value)
    assert len({id(e) for e in raised}) == 3 and error not in raised
    assert source.call_count == 3


def test_source_error_class_is_instantiated() -> None:
    with pytest.raises(TimeoutError, match="slow failed"):
        Source("slow", error=TimeoutError)("x")


def test_source_entry_and_repr() -> None:
    source = Source("backup")
    name, func = source.entry()
    assert name == "backup" and func is source
    func("q")
    assert repr(source) == "Source('backup', calls=1)"
