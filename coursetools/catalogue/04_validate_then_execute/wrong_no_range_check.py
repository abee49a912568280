# cell: convert_temperature_answer
# mistake: validates the scale but not the range: 5000 °C is converted
# expect: outside the range
# expect-es: fuera del rango
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature to convert, from -100 to 1000 in its own scale.
        from_scale: "C" to convert Celsius to Fahrenheit, "F" to convert Fahrenheit to Celsius.
    """
    scale = from_scale.strip().upper()
    if scale not in ("C", "F"):
        raise ToolException(f"Unknown from_scale {from_scale!r}: use 'C' or 'F'.")
    if scale == "C":
        return f"{value}°C = {value * 9 / 5 + 32:.1f}°F"
    return f"{value}°F = {(value - 32) * 5 / 9:.1f}°C"


def explain_invalid_arguments(error: ValidationError) -> str:
    fields = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    return f"Invalid arguments ({fields}). Expected value: a number from -100 to 1000, from_scale: 'C' or 'F'."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explain_invalid_arguments
