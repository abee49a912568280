# cell: convert_temperature_answer
# mistake: none: the helpers imported as modules under other names (import toolfaults.contract as contract), with a star import and importlib
import importlib

import toolfaults.contract as contract
import toolfaults.language as lang
from toolfaults.clock import *  # noqa: F403

errors = importlib.import_module("toolfaults.errors")


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature, from -100 to 1000 in its own scale.
        from_scale: "C" (Celsius to Fahrenheit) or "F" (Fahrenheit to Celsius).
    """
    scale = lang.fold(from_scale).upper()
    if scale not in ("C", "F"):
        raise contract.ToolFailure(contract.ToolError(
            "bad_scale", f"from_scale must be 'C' or 'F', not {from_scale!r}.", "correct_arguments"))
    if not (math.isfinite(value) and -100 <= value <= 1000):
        raise ToolException(f"value {value} is not allowed: the range is -100 to 1000.")
    converted, unit = (value * 9 / 5 + 32, "°F") if scale == "C" else ((value - 32) * 5 / 9, "°C")
    return f"{converted:.1f}{unit}"


def explain_invalid_arguments(error: ValidationError) -> str:
    names = sorted({str(issue["loc"][0]) for issue in error.errors() if issue["loc"]}) or ["arguments"]
    return f"Check {', '.join(names)}: value is a number from -100 to 1000, from_scale is 'C' or 'F'."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explain_invalid_arguments
