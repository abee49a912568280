# cell: convert_temperature_answer
# A correct alternative worded in Spanish: the scales by their usual Spanish names ("grados centígrados o
# Fahrenheit"; centígrado is the everyday Spanish name of Celsius), the range "de -100 a 1000".
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convierte una temperatura entre grados centígrados y Fahrenheit.

    Args:
        value: la temperatura, de -100 a 1000 en su escala.
        from_scale: "C" o "F".
    """
    escala = from_scale.strip().upper()
    if escala not in ("C", "F"):
        raise ToolException(f"La escala {from_scale!r} no existe aquí: sólo convierto desde grados centígrados o Fahrenheit.")
    if not math.isfinite(value) or not -100 <= value <= 1000:
        raise ToolException(f"El valor {value} no vale: la temperatura tiene que ser un número finito de -100 a 1000.")
    if escala == "C":
        return f"{value:g}°C = {value * 9 / 5 + 32:.1f}°F"
    return f"{value:g}°F = {(value - 32) * 5 / 9:.1f}°C"


def explicar(error: ValidationError) -> str:
    campos = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    return f"Argumentos no válidos ({campos})."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explicar
