# cell: convert_temperature_answer
# mistake: none: a BaseTool subclass with class-level handlers and a message table
import math

from langchain_core.tools import BaseTool, ToolException
from pydantic import BaseModel, ValidationError


class Args(BaseModel):
    value: float
    from_scale: str


def _bad_input(error: ValidationError) -> str:
    names = sorted({str(issue["loc"][0]) for issue in error.errors() if issue["loc"]}) or ["value", "from_scale"]
    return (f"Please fix {', '.join(names)}: value must be a number from -100 to 1000 and "
            "from_scale must be C or F.")


class ConvertTemperature(BaseTool):
    name: str = "convert_temperature"
    description: str = "Convert a temperature. from_scale C converts Celsius to Fahrenheit, F the other way."
    args_schema: type[BaseModel] = Args
    handle_tool_error: bool = True
    handle_validation_error: object = _bad_input

    def _run(self, value: float, from_scale: str) -> str:
        scale = "".join(from_scale.split()).upper() if from_scale.strip() else ""
        if scale == "C":
            target, converted = "F", value * 9 / 5 + 32
        elif scale == "F":
            target, converted = "C", (value - 32) * 5 / 9
        else:
            raise ToolException(f"from_scale must be C or F, but it was {from_scale!r}.")
        if not math.isfinite(value) or abs(value - 450) > 550:
            raise ToolException(f"value {value} rejected: temperatures must lie in [-100, 1000].")
        return "%.1f°%s" % (converted, target)


convert_temperature = ConvertTemperature()
