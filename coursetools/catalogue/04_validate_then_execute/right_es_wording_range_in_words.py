# cell: convert_temperature_answer
# A correct alternative worded in Spanish: the range in words ("de menos cien a mil grados"), the scales as
# "centígrados o Fahrenheit", a not-finite value called "no es finito"; one handler for both kinds of error.
# Keeps full marks in both editions.
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
        raise ToolException(f"No conozco la escala {from_scale!r}: elige centígrados (C) o Fahrenheit (F).")
    if not math.isfinite(value):
        raise ToolException("Ese número no es finito: la temperatura debe ir de menos cien a mil grados.")
    if not -100 <= value <= 1000:
        raise ToolException(f"{value:g} grados queda fuera: la temperatura debe ir de menos cien a mil grados.")
    if escala == "C":
        return f"{value:g}°C = {value * 9 / 5 + 32:.1f}°F"
    return f"{value:g}°F = {(value - 32) * 5 / 9:.1f}°C"


def explicar(error: ValidationError) -> str:
    campos = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    return f"Argumentos no válidos ({campos})."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explicar
