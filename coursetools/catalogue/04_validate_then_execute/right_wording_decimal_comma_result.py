# cell: convert_temperature_answer
# A correct alternative worded differently: the result written with a decimal comma ("100°C is 212,0°F"), as
# much of the world writes decimals; the messages name the value ("value 5000,0 is too high", "value inf is
# not finite") and the range with a thin space ("-100 to 1 000"). Keeps full marks in both editions.
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError


def comma(x: float) -> str:
    return f"{x:.1f}".replace(".", ",")


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature to convert, from -100 to 1000 in its own scale.
        from_scale: "C" or "F".
    """
    scale = from_scale.strip().upper()
    if scale not in ("C", "F"):
        raise ToolException(f"Unknown from_scale {from_scale!r}: it must be C or F.")
    if not math.isfinite(value):
        raise ToolException(f"value {value} is not finite: give a temperature from -100 to 1\u2009000.")
    if not -100 <= value <= 1000:
        raise ToolException(f"value {comma(value)} is too {'high' if value > 0 else 'low'}: "
                            "give a temperature from -100 to 1\u2009000.")
    if scale == "C":
        return f"{comma(value)}°C is {comma(value * 9 / 5 + 32)}°F"
    return f"{comma(value)}°F is {comma((value - 32) * 5 / 9)}°C"


def explain(error: ValidationError) -> str:
    fields = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    return f"Invalid arguments ({fields})."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explain
