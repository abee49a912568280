# cell: convert_temperature_answer
# mistake: one fixed usage text (handle_tool_error and handle_validation_error set to the same string) answers every failure: it never says what was wrong
# expect: got the same message
# expect-es: recibieron el mismo mensaje
import math

from langchain_core.tools import ToolException, tool

USAGE = "Invalid input. Usage: value is a number from -100 to 1000, from_scale is 'C' or 'F'."


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature to convert, from -100 to 1000 in its own scale.
        from_scale: "C" to convert Celsius to Fahrenheit, "F" to convert Fahrenheit to Celsius.
    """
    scale = from_scale.strip().upper()
    if scale not in ("C", "F") or not math.isfinite(value) or not -100 <= value <= 1000:
        raise ToolException("bad input")
    if scale == "C":
        return f"{value}°C = {value * 9 / 5 + 32:.1f}°F"
    return f"{value}°F = {(value - 32) * 5 / 9:.1f}°C"


convert_temperature.handle_tool_error = USAGE
convert_temperature.handle_validation_error = USAGE
