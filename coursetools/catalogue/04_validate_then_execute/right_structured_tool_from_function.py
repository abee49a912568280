# cell: convert_temperature_answer
# mistake: none: StructuredTool.from_function with handler callables, round() instead of a format spec, other wording
import math

from langchain_core.tools import StructuredTool, ToolException
from pydantic import ValidationError

LOW, HIGH = -100, 1000
TARGET = {"C": ("F", lambda t: t * 1.8 + 32), "F": ("C", lambda t: (t - 32) / 1.8)}


def _convert(value: float, from_scale: str) -> str:
    """Convert a temperature: from_scale "C" gives Fahrenheit, "F" gives Celsius (value from -100 to 1000)."""
    key = from_scale.upper().strip()
    if key not in TARGET:
        raise ToolException(f"The scale {from_scale!r} is not supported. Allowed scales: C (Celsius) or F (Fahrenheit).")
    if math.isnan(value) or math.isinf(value):
        raise ToolException(f"The temperature must be a real number between {LOW} and {HIGH}; got {value}.")
    if value < LOW or value > HIGH:
        raise ToolException(f"The temperature {value} is not between {LOW} and {HIGH} (inclusive).")
    unit, formula = TARGET[key]
    return f"Result: {round(formula(value), 1)}°{unit}"


def _say_what_went_wrong(error: ToolException) -> str:
    return f"convert_temperature could not run: {error}"


def _say_which_argument(error: ValidationError) -> str:
    lines = [f"argument '{issue['loc'][0] if issue['loc'] else '?'}' is invalid ({issue['msg'].lower()})"
             for issue in error.errors()]
    return "convert_temperature could not run: " + "; ".join(lines) + ". It needs a number value and a scale C or F."


convert_temperature = StructuredTool.from_function(
    _convert,
    name="convert_temperature",
    handle_tool_error=_say_what_went_wrong,
    handle_validation_error=_say_which_argument,
)
