"""The course's small world of tools: weather, a calculator, stock prices, search sources.

Each factory returns a *fresh* :class:`~toolfaults.tools.MockTool` (its own call
record), healthy unless told otherwise; combine them with the fault factories'
``outcomes=`` to make them fail::

    >>> from toolfaults.catalog import weather_tool
    >>> weather_tool().invoke({"city": "Madrid"})
    'Madrid: 22°C, sunny'

Unknown inputs raise :class:`~langchain_core.tools.ToolException` with a message
that says what is allowed, as a well-behaved tool should.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from langchain_core.tools import ToolException
from pydantic import BaseModel, Field

from .tools import MockTool, fresh_exception, make_tool

__all__ = [
    "WEATHER",
    "STOCKS",
    "COUNTRIES",
    "weather_tool",
    "calculator_tool",
    "stock_price_tool",
    "arithmetic_tools",
    "Source",
]

WEATHER: dict[str, str] = {
    "Madrid": "22°C, sunny",
    "Mexico City": "18°C, cloudy",
    "Tokyo": "15°C, rain",
    "Moscow": "-3°C, snow",
    "Buenos Aires": "25°C, clear",
}

STOCKS: dict[str, float] = {"AAPL": 185.50, "GOOGL": 141.80, "MSFT": 378.90, "AMZN": 178.25, "TSLA": 248.40}

COUNTRIES: dict[str, dict[str, str]] = {
    "Spain": {"capital": "Madrid", "population": "48M", "language": "Spanish"},
    "Japan": {"capital": "Tokyo", "population": "124M", "language": "Japanese"},
    "Mexico": {"capital": "Mexico City", "population": "130M", "language": "Spanish"},
}


def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    key = next((c for c in WEATHER if c.lower() == city.strip().lower()), None)
    if key is None:
        raise ToolException(f"Unknown city {city!r}. Known cities: {', '.join(sorted(WEATHER))}.")
    return f"{key}: {WEATHER[key]}"


def weather_tool(**kwargs: Any) -> MockTool:
    """``get_weather(city: str)``: the weather in one of :data:`WEATHER`'s cities."""
    return make_tool(get_weather, **kwargs)


class CalculatorInput(BaseModel):
    """Arguments of the calculator: an operation and two numbers."""

    operation: Literal["add", "subtract", "multiply", "divide"] = Field(
        description="The operation: add, subtract, multiply or divide."
    )
    a: float = Field(description="The first operand.")
    b: float = Field(description="The second operand.")


def calculator(operation: str, a: float, b: float) -> str:
    """Do basic arithmetic on two numbers."""
    if operation == "add":
        return str(a + b)
    if operation == "subtract":
        return str(a - b)
    if operation == "multiply":
        return str(a * b)
    return str(a / b)  # ZeroDivisionError is left to the caller on purpose


def calculator_tool(**kwargs: Any) -> MockTool:
    """``calculator(operation, a, b)`` with a pydantic schema (``operation`` is an enum).

    ``divide`` by zero raises ``ZeroDivisionError``: an unexpected internal error.
    """
    tool = make_tool(calculator, **kwargs)
    tool.args_schema = CalculatorInput
    return tool


def get_stock_price(ticker: str) -> str:
    """Get the latest price of a stock by its ticker symbol."""
    symbol = ticker.strip().upper()
    if symbol not in STOCKS:
        raise ToolException(f"Unknown ticker {ticker!r}. Valid tickers: {', '.join(sorted(STOCKS))}.")
    return f"{symbol}: ${STOCKS[symbol]:.2f} USD"


def stock_price_tool(**kwargs: Any) -> MockTool:
    """``get_stock_price(ticker: str)`` over :data:`STOCKS`."""
    return make_tool(get_stock_price, **kwargs)


def multiply(a: float, b: float) -> float:
    """Multiply two numbers."""
    return a * b


def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


def arithmetic_tools() -> list[MockTool]:
    """``multiply(a, b)`` and ``add(a, b)``, for tracing multi-step loops."""
    return [make_tool(multiply), make_tool(add)]


class Source:
    """A plain-function data source for fallback chains: ``source(query) -> str``.

    It answers ``answer`` (a string, or a function of the query) unless its script
    says to raise. ``errors`` are raised on calls 1, 2, ...; ``error`` on every
    call after them (exception instances are raised as fresh copies, classes are
    instantiated). An empty ``answer=""`` is an answer, not a failure. ``calls``
    records every query it received.

    >>> cache = Source("cache", answer="22°C (cached 2 h ago)")
    >>> cache("Madrid weather"), cache.calls
    ('22°C (cached 2 h ago)', ['Madrid weather'])
    >>> down = Source("primary", error=ConnectionError("primary unreachable"))
    >>> down("x")
    Traceback (most recent call last):
    ...
    ConnectionError: primary unreachable
    """

    def __init__(
        self,
        name: str,
        answer: str | Callable[[str], str] | None = None,
        *,
        error: BaseException | type[BaseException] | None = None,
        errors: list[BaseException | type[BaseException]] | None = None,
    ) -> None:
        self.name = name
        self.answer = answer if answer is not None else (lambda q: f"{name}: results for {q!r}")
        self.error = error
        self.errors = list(errors or [])
        self.calls: list[str] = []

    def __call__(self, query: str) -> str:
        index = len(self.calls)
        self.calls.append(query)
        if index < len(self.errors):
            raise fresh_exception(self.errors[index], f"{self.name} failed")
        if self.error is not None:
            raise fresh_exception(self.error, f"{self.name} failed")
        return self.answer(query) if callable(self.answer) else self.answer

    @property
    def call_count(self) -> int:
        """How many times the source was called."""
        return len(self.calls)

    def entry(self) -> tuple[str, Callable[[str], str]]:
        """``(name, self)``: the ``(name, function)`` pair fallback chains take."""
        return (self.name, self)

    def __repr__(self) -> str:
        return f"Source({self.name!r}, calls={len(self.calls)})"
