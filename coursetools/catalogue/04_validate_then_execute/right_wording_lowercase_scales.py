# cell: convert_temperature_answer
# A correct alternative worded differently: lower-case scale letters ("use c or f"), the range written
# "−100…1,000" with a typographic minus, a capitalised "Value" in the wrong-type message.
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
    scale = from_scale.strip().lower()
    if scale not in {"c", "f"}:
        raise ToolException(f"{from_scale!r} is not a scale I know: use c or f (any case).")
    if not (math.isfinite(value) and -100 <= value <= 1000):
        raise ToolException(f"{value} cannot be converted: only finite temperatures in −100…1,000 are accepted.")
    if scale == "c":
        return f"{value * 9 / 5 + 32:.1f}°F"
    return f"{(value - 32) * 5 / 9:.1f}°C"


def wrong_arguments(error: ValidationError) -> str:
    named = ", ".join(str(issue["loc"][0]).capitalize() if issue["loc"] else "Input" for issue in error.errors())
    return f"{named}: not what this tool takes. Send a number (−100…1,000) and a scale, c or f."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = wrong_arguments
