# cell: convert_temperature_answer
# A correct alternative worded differently: the range spelled out in words ("from minus one hundred to one
# thousand degrees"), as a person would say it; the scale message uses the names.
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
        raise ToolException(f"{from_scale!r} is not a scale I know: say C for Celsius or F for Fahrenheit.")
    if not math.isfinite(value) or not -100 <= value <= 1000:
        raise ToolException(f"The value {value} cannot be converted: it must be a real temperature "
                            "from minus one hundred to one thousand degrees.")
    if scale == "C":
        return f"{value:g}°C = {value * 9 / 5 + 32:.1f}°F"
    return f"{value:g}°F = {(value - 32) * 5 / 9:.1f}°C"


def explain(error: ValidationError) -> str:
    fields = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    return f"Invalid arguments ({fields})."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explain
