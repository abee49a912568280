# cell: convert_temperature_answer
# A correct alternative worded in Spanish with Spanish number formatting in its messages: the range as
# "de -100,0 a 1.000,0 grados" (decimal comma, full stop for thousands, as es-ES locale formatting writes it).
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError


def es_num(x: float) -> str:
    """1000.0 -> '1.000,0' (es-ES)."""
    return f"{x:,.1f}".replace(",", "_").replace(".", ",").replace("_", ".")


RANGO = f"de {es_num(-100)} a {es_num(1000)} grados"


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convierte una temperatura entre Celsius y Fahrenheit.

    Args:
        value: la temperatura, de -100 a 1000 en su escala.
        from_scale: "C" o "F".
    """
    escala = from_scale.strip().upper()
    if escala not in ("C", "F"):
        raise ToolException(f"La escala {from_scale!r} no es válida: usa C o F.")
    if not math.isfinite(value) or not -100 <= value <= 1000:
        raise ToolException(f"El valor {value} no es válido: la temperatura debe ser un número finito {RANGO}.")
    if escala == "C":
        return f"{value:g}°C = {value * 9 / 5 + 32:.1f}°F"
    return f"{value:g}°F = {(value - 32) * 5 / 9:.1f}°C"


def explicar(error: ValidationError) -> str:
    campos = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
    return f"Argumentos no válidos ({campos})."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explicar
