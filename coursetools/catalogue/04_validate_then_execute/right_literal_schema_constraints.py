# cell: convert_temperature_answer
# A correct alternative in another structure: the schema does all the checking (Literal["C", "F"] after a
# before-validator that strips and upper-cases, Field(ge=-100, le=1000, allow_inf_nan=False)); the function
# only converts; one handler reads every ValidationError and adds the allowed range and scales.
from typing import Annotated, Literal

from langchain_core.tools import StructuredTool
from pydantic import BaseModel, BeforeValidator, Field, ValidationError


def _normal_scale(raw):
    return raw.strip().upper() if isinstance(raw, str) else raw


class Reading(BaseModel):
    value: Annotated[float, Field(ge=-100, le=1000, allow_inf_nan=False, description="-100 to 1000 in its own scale")]
    from_scale: Annotated[Literal["C", "F"], BeforeValidator(_normal_scale), Field(description="'C' or 'F'")]


def _convert(value: float, from_scale: str) -> str:
    if _normal_scale(from_scale) == "C":
        return f"{value:g}°C -> {value * 1.8 + 32:.1f}°F"
    return f"{value:g}°F -> {(value - 32) / 1.8:.1f}°C"


ALLOWED = {"value": "a finite number from -100 to 1000", "from_scale": "'C' or 'F'"}


def _explain(error: ValidationError) -> str:
    lines = []
    for issue in error.errors():
        field = str(issue["loc"][0]) if issue["loc"] else "arguments"
        shown = f" (got {issue['input']!r})" if issue["type"] != "missing" else ""
        lines.append(f"{field}{shown}: {issue['msg']}; allowed: {ALLOWED.get(field, 'see the schema')}")
        # shown input for a bad scale names it ('K'); for a range error, the value (5000.0)
    return "Rejected: " + " | ".join(lines)


convert_temperature = StructuredTool.from_function(
    func=_convert,
    name="convert_temperature",
    description="Convert a temperature between Celsius and Fahrenheit.",
    args_schema=Reading,
    handle_validation_error=_explain,
)
