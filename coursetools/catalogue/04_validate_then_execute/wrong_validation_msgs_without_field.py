# cell: convert_temperature_answer
# mistake: the validation handler joins pydantic's msg texts but drops loc, then appends a usage text naming every field: "Field required" never says which field is missing
# expect: must name the field that is missing
# expect-es: debe nombrar el campo que falta
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature to convert, from -100 to 1000 in its own scale.
        from_scale: "C" or "F".
    """
    scale = from_scale.strip().upper()
    if scale not in ("C", "F"):
        raise ToolException(f"Unknown from_scale {from_scale!r}: use 'C' or 'F'.")
    if not math.isfinite(value) or not -100 <= value <= 1000:
        raise ToolException(f"value {value} is out of range: give a finite temperature from -100 to 1000.")
    if scale == "C":
        return f"{value:g}°C = {value * 9 / 5 + 32:.1f}°F"
    return f"{value:g}°F = {(value - 32) * 5 / 9:.1f}°C"


def explain_invalid_arguments(error: ValidationError) -> str:
    problems = "; ".join(e["msg"] for e in error.errors())
    return f"Invalid arguments: {problems}. Usage: value is a number from -100 to 1000, from_scale is 'C' or 'F'."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explain_invalid_arguments
