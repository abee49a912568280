"""The course's small world of tools: weather, a calculator, stock prices, search sources.

Each factory returns a *fresh* :class:`~toolfaults.tools.MockTool` (its own call
record), healthy unless told otherwise; combine them with the fault factories'
``outcomes=`` to make them fail::

    >>> from toolfaults.catalog import weather_tool
    >>> weather_tool().invoke({"city": "Madrid"})
    'Madrid: 22°C, sunny'

Unknown inputs raise :class:`~langchain_core.tools.ToolException` with a message
that says what is allowed, as a well-behaved tool should.

Names are matched as people type them: case, accents and extra spaces do not
matter, and a city or country may be named in English or in Spanish. The data and
the texts follow :func:`toolfaults.language.use_language`: in Spanish the
countries are México, España and Japón, and the tools answer in Spanish::

    >>> from toolfaults.catalog import country_tool
    >>> country_tool().invoke({"country": "MÉXICO"})
    'Mexico: capital Mexico City, population 130M, language Spanish'
    >>> from toolfaults.language import use_language
    >>> _ = use_language("es")
    >>> country_tool().invoke({"country": "mexico"})
    'México: capital Ciudad de México, población 130M, idioma español'
    >>> weather_tool().invoke({"city": "tokio"})
    'Tokio: 15°C, lluvia'
    >>> _ = use_language("en")
"""

# No `from __future__ import annotations` here: LangChain reads a tool function's type hints on every
# call, and string annotations would be parsed anew each time.

from collections.abc import Callable
from typing import Any, Literal

from langchain_core.tools import ToolException
from pydantic import BaseModel, Field, create_model

from .language import current_language, fold, on_language_change, say
from .tools import MockTool, fresh_exception, make_tool

__all__ = [
    "WEATHER",
    "STOCKS",
    "COUNTRIES",
    "weather_tool",
    "country_tool",
    "find_country",
    "get_weather",
    "calculator_tool",
    "stock_price_tool",
    "arithmetic_tools",
    "Source",
]

# Each edition's data, in the same order: the i-th entry of one is the i-th of the other.
_WEATHER: dict[str, dict[str, str]] = {
    "en": {
        "Madrid": "22°C, sunny",
        "Mexico City": "18°C, cloudy",
        "Tokyo": "15°C, rain",
        "Moscow": "-3°C, snow",
        "Buenos Aires": "25°C, clear",
    },
    "es": {
        "Madrid": "22°C, soleado",
        "Ciudad de México": "18°C, nublado",
        "Tokio": "15°C, lluvia",
        "Moscú": "-3°C, nieve",
        "Buenos Aires": "25°C, despejado",
    },
}
WEATHER: dict[str, str] = {}
"""City -> weather, in the current language (refilled in place by ``use_language``)."""

STOCKS: dict[str, float] = {"AAPL": 185.50, "GOOGL": 141.80, "MSFT": 378.90, "AMZN": 178.25, "TSLA": 248.40}

_COUNTRIES: dict[str, dict[str, dict[str, str]]] = {
    "en": {
        "Spain": {"capital": "Madrid", "population": "48M", "language": "Spanish"},
        "Japan": {"capital": "Tokyo", "population": "124M", "language": "Japanese"},
        "Mexico": {"capital": "Mexico City", "population": "130M", "language": "Spanish"},
    },
    "es": {
        "España": {"capital": "Madrid", "population": "48M", "language": "español"},
        "Japón": {"capital": "Tokio", "population": "124M", "language": "japonés"},
        "México": {"capital": "Ciudad de México", "population": "130M", "language": "español"},
    },
}
COUNTRIES: dict[str, dict[str, str]] = {}
"""Country -> capital, population, language, in the current language (refilled in place by ``use_language``).

The keys of each record ("capital", "population", "language") are code and stay in English.
"""


def _fill(code: str) -> None:
    # Refill in place: a notebook that imported WEATHER or COUNTRIES sees the new language.
    for shown, editions in ((WEATHER, _WEATHER), (COUNTRIES, _COUNTRIES)):
        shown.clear()
        shown.update({k: (dict(v) if isinstance(v, dict) else v) for k, v in editions[code].items()})


on_language_change(_fill)


def _find(name: str, editions: dict[str, dict[str, Any]]) -> str | None:
    """The current language's name of the entry called ``name`` in any edition (case and accents ignored)."""
    wanted = fold(name)
    for names in zip(*(list(edition) for edition in editions.values())):
        if any(fold(n) == wanted for n in names):
            return list(editions[current_language()])[list(editions["en"]).index(names[0])]
    return None


def _in_spanish(kwargs: dict[str, Any], description: str) -> dict[str, Any]:
    """``kwargs`` with the tool's Spanish ``description`` (what the model reads) when the language is Spanish."""
    if current_language() == "es":
        kwargs.setdefault("description", description)
    return kwargs


def get_weather(city: str) -> str:
    """Get the current weather for a city."""
    key = _find(city, _WEATHER)
    if key is None:
        raise ToolException(say(f"Unknown city {city!r}. Known cities: {', '.join(sorted(WEATHER))}.",
                                f"Ciudad desconocida: {city!r}. Ciudades conocidas: {', '.join(sorted(WEATHER))}."))
    return f"{key}: {WEATHER[key]}"


def weather_tool(**kwargs: Any) -> MockTool:
    """``get_weather(city: str)``: the weather in one of :data:`WEATHER`'s cities."""
    _in_spanish(kwargs, "Consulta el tiempo que hace ahora en una ciudad.")
    return make_tool(get_weather, **kwargs)


def find_country(country: str) -> str:
    """Get the capital, population and main language of a country by its name."""
    name = _find(country, _COUNTRIES)
    if name is None:
        raise ToolException(say(f"Unknown country {country!r}. Known countries: {', '.join(sorted(COUNTRIES))}.",
                                f"País desconocido: {country!r}. Países conocidos: {', '.join(sorted(COUNTRIES))}."))
    info = COUNTRIES[name]
    return say(f"{name}: capital {info['capital']}, population {info['population']}, language {info['language']}",
               f"{name}: capital {info['capital']}, población {info['population']}, idioma {info['language']}")


def country_tool(**kwargs: Any) -> MockTool:
    """``find_country(country: str)`` over :data:`COUNTRIES`: "México", "mexico" and "MÉXICO" find the same record."""
    _in_spanish(kwargs, "Da la capital, la población y el idioma principal de un país a partir de su nombre.")
    return make_tool(find_country, **kwargs)


class CalculatorInput(BaseModel):
    """Arguments of the calculator: an operation and two numbers."""

    operation: Literal["add", "subtract", "multiply", "divide"] = Field(
        description="The operation: add, subtract, multiply or divide."
    )
    a: float = Field(description="The first operand.")
    b: float = Field(description="The second operand.")


# The same schema with descriptions in Spanish (what the model reads); the types are CalculatorInput's.
_CalculatorInputEs = create_model(
    "CalculatorInput",
    __doc__="Argumentos de la calculadora: una operación y dos números.",
    **{name: (field.annotation, Field(description=description)) for (name, field), description in zip(
        CalculatorInput.model_fields.items(),
        ["La operación: add, subtract, multiply o divide.", "El primer operando.", "El segundo operando."])},
)


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
    _in_spanish(kwargs, "Hace una operación aritmética básica con dos números.")
    tool = make_tool(calculator, **kwargs)
    tool.args_schema = _CalculatorInputEs if current_language() == "es" else CalculatorInput
    return tool


def get_stock_price(ticker: str) -> str:
    """Get the latest price of a stock by its ticker symbol."""
    symbol = ticker.strip().upper()
    if symbol not in STOCKS:
        raise ToolException(say(f"Unknown ticker {ticker!r}. Valid tickers: {', '.join(sorted(STOCKS))}.",
                                f"Ticker desconocido: {ticker!r}. Tickers válidos: {', '.join(sorted(STOCKS))}."))
    return f"{symbol}: ${STOCKS[symbol]:.2f} USD"


def stock_price_tool(**kwargs: Any) -> MockTool:
    """``get_stock_price(ticker: str)`` over :data:`STOCKS`."""
    _in_spanish(kwargs, "Da el último precio de una acción a partir de su ticker.")
    return make_tool(get_stock_price, **kwargs)


def multiply(a: float, b: float) -> float:
    """Multiply two numbers."""
    return a * b


def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


def arithmetic_tools() -> list[MockTool]:
    """``multiply(a, b)`` and ``add(a, b)``, for tracing multi-step loops."""
    return [make_tool(multiply, **_in_spanish({}, "Multiplica dos números.")),
            make_tool(add, **_in_spanish({}, "Suma dos números."))]


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
        self.answer = answer if answer is not None else (
            lambda q: say(f"{name}: results for {q!r}", f"{name}: resultados para {q!r}"))
        self.error = error
        self.errors = list(errors or [])
        self.calls: list[str] = []

    def __call__(self, query: str) -> str:
        index = len(self.calls)
        self.calls.append(query)
        if index < len(self.errors):
            raise fresh_exception(self.errors[index], say(f"{self.name} failed", f"{self.name} falló"))
        if self.error is not None:
            raise fresh_exception(self.error, say(f"{self.name} failed", f"{self.name} falló"))
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
