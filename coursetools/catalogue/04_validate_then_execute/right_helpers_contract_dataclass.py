# cell: convert_temperature_answer
# mistake: none: lesson 03's contract imported first here (from toolfaults.contract import ...), a dataclass built on ToolError, failures raised as ToolFailure
from dataclasses import dataclass

from toolfaults.contract import ToolError, ToolFailure


@dataclass(frozen=True)
class FieldError(ToolError):
    """The course's contract plus the argument it is about."""

    field: str = ""


def reject(field: str, message: str) -> None:
    raise ToolFailure(FieldError("invalid_argument", message, "correct_arguments", field=field))


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convert a temperature between Celsius and Fahrenheit.

    Args:
        value: the temperature, from -100 to 1000 in its own scale.
        from_scale: "C" (Celsius to Fahrenheit) or "F" (Fahrenheit to Celsius).
    """
    scale = from_scale.strip().upper()
    if scale not in ("C", "F"):
        reject("from_scale", f"from_scale {from_scale!r} is not allowed: use 'C' or 'F'.")
    if not math.isfinite(value) or not -100 <= value <= 1000:
        reject("value", f"value {value} is out of range: give a finite temperature from -100 to 1000.")
    if scale == "C":
        return f"{value:g}°C is {value * 9 / 5 + 32:.1f}°F"
    return f"{value:g}°F is {(value - 32) * 5 / 9:.1f}°C"


def explain_invalid_arguments(error: ValidationError) -> str:
    fields = ", ".join(".".join(str(p) for p in issue["loc"]) or "arguments" for issue in error.errors())
    return (f"Invalid arguments ({fields}): value must be a number from -100 to 1000 "
            "and from_scale 'C' or 'F'.")


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explain_invalid_arguments
