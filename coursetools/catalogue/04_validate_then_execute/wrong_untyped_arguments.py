# cell: convert_temperature_answer
# mistake: declares no argument types ("I validate everything myself"): the schema the model sees says value and from_scale are Any, not value: float and from_scale: str
# expect: value: float
# expect-es: value: float
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError


@tool
def convert_temperature(value, from_scale) -> str:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature to convert, from -100 to 1000 in its own scale.
        from_scale: "C" or "F".
    """
    if isinstance(value, bool):
        raise ToolException(f"value {value!r} is not a number: give a temperature from -100 to 1000.")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ToolException(f"value {value!r} is not a number: give a temperature from -100 to 1000.") from None
    if not isinstance(from_scale, str):
        raise ToolException(f"from_scale {from_scale!r} is not a text: use 'C' or 'F'.")
    scale = from_scale.strip().upper()
    if scale not in ("C", "F"):
        raise ToolException(f"Unknown from_scale {from_scale!r}: use 'C' or 'F'.")
    if not math.isfinite(number) or not -100 <= number <= 1000:
        raise ToolException(f"value {number} is out of range: give a finite temperature from -100 to 1000.")
    if scale == "C":
        return f"{number:g}°C = {number * 9 / 5 + 32:.1f}°F"
    return f"{number:g}°F = {(number - 32) * 5 / 9:.1f}°C"


def explain_invalid_arguments(error: ValidationError) -> str:
    fields = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    return f"Invalid arguments ({fields}). Expected value: a number from -100 to 1000, from_scale: 'C' or 'F'."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explain_invalid_arguments
