# cell: convert_temperature_answer
# A correct alternative in another structure: response_format="content_and_artifact" (the text for the model,
# the number as an artifact); failures raised as a ToolException subclass; a handler function for each kind.
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError


class BadTemperature(ToolException):
    pass


@tool(response_format="content_and_artifact")
def convert_temperature(value: float, from_scale: str) -> tuple[str, dict]:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature to convert, from -100 to 1000 in its own scale.
        from_scale: "C" or "F".
    """
    scale = from_scale.strip().casefold()
    if scale not in {"c", "f"}:
        raise BadTemperature(f"from_scale must be C or F, and {from_scale!r} is neither")
    if not math.isfinite(value):
        raise BadTemperature(f"value {value} is not finite; allowed values go from -100 to 1000")
    if value < -100 or value > 1000:
        raise BadTemperature(f"value {value} lies outside -100...1000")
    result, unit = (value * 9 / 5 + 32, "F") if scale == "c" else ((value - 32) * 5 / 9, "C")
    return f"{result:.1f}°{unit}", {"value": round(result, 1), "unit": unit}


convert_temperature.handle_tool_error = lambda err: f"Error: {err}."
convert_temperature.handle_validation_error = lambda err: "Error: " + ", ".join(
    f"{e['loc'][0] if e['loc'] else 'input'} ({e['msg'].lower()})" for e in err.errors())
