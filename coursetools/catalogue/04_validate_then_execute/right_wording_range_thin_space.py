# cell: convert_temperature_answer
# A correct alternative worded differently: SI typography, the thousand written with a thin space
# ("−100 to 1 000", U+2009) as the SI brochure and many style guides write it.
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError

THOUSAND = "1\u2009000"


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
        raise ToolException(f"value {value} is not allowed: give a finite temperature from −100 to {THOUSAND} °{scale}.")
    if scale == "C":
        return f"{value:g}°C = {value * 9 / 5 + 32:.1f}°F"
    return f"{value:g}°F = {(value - 32) * 5 / 9:.1f}°C"


def explain(error: ValidationError) -> str:
    fields = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    return f"Invalid arguments ({fields})."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explain
