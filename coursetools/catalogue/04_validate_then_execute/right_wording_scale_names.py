# cell: convert_temperature_answer
# A correct alternative worded differently: the scales by name ("Celsius or Fahrenheit"), the range as
# "[-100.0, 1000.0]", the field named as "from scale"/"value" in a sentence; one error handler for both.
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError

RANGE = (-100.0, 1000.0)


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature to convert, from -100 to 1000 in its own scale.
        from_scale: "C" to convert Celsius to Fahrenheit, "F" to convert Fahrenheit to Celsius.
    """
    unit = from_scale.strip().upper()
    if unit not in ("C", "F"):
        raise ToolException(f"The from scale {from_scale!r} is unknown; it must be Celsius or Fahrenheit.")
    if math.isnan(value) or not RANGE[0] <= value <= RANGE[1]:
        raise ToolException(f"A temperature must lie in [{RANGE[0]}, {RANGE[1]}] degrees; {value} does not.")
    converted = value * 9 / 5 + 32 if unit == "C" else (value - 32) * 5 / 9
    return "{:.1f}°{}".format(converted, "F" if unit == "C" else "C")


def explain(error) -> str:
    if isinstance(error, ValidationError):
        fields = " and ".join(" ".join(str(part) for part in issue["loc"]).replace("_", " ") for issue in error.errors())
        return f"Please check {fields}: the value must be a number in [{RANGE[0]}, {RANGE[1]}] and the from scale Celsius or Fahrenheit."
    return str(error)


convert_temperature.handle_tool_error = explain
convert_temperature.handle_validation_error = explain
