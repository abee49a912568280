# cell: convert_temperature_answer
# mistake: none: a pydantic args_schema validates everything; the schema's errors become the messages
import math

from langchain_core.tools import tool
from pydantic import BaseModel, Field, ValidationError, field_validator


class TemperatureInput(BaseModel):
    value: float = Field(description="Temperature to convert, -100 to 1000 in its own scale.")
    from_scale: str = Field(description="'C' (Celsius to Fahrenheit) or 'F' (Fahrenheit to Celsius).")

    @field_validator("from_scale")
    @classmethod
    def known_scale(cls, scale: str) -> str:
        normal = scale.strip().upper()
        if normal not in {"C", "F"}:
            raise ValueError(f"{scale!r} is not a scale; use C or F")
        return normal

    @field_validator("value")
    @classmethod
    def plausible(cls, value: float) -> float:
        if not (math.isfinite(value) and -100 <= value <= 1000):
            raise ValueError(f"{value} is not allowed; the range is -100 to 1000")
        return value


def describe(error: ValidationError) -> str:
    parts = [f"{'.'.join(str(p) for p in issue['loc'])}: {issue['msg']}" for issue in error.errors()]
    return "Bad input. " + " | ".join(parts)


@tool(args_schema=TemperatureInput)
def convert_temperature(value: float, from_scale: str) -> str:
    """Convert a temperature between Celsius and Fahrenheit."""
    if from_scale.strip().upper() == "C":
        return f"{value}°C is {value * 9 / 5 + 32:.1f}°F"
    return f"{value}°F is {(value - 32) * 5 / 9:.1f}°C"


convert_temperature.handle_validation_error = describe
