# cell: convert_temperature_answer
# A correct alternative worded in Spanish with Spanish decimals: the result with a decimal comma
# ("100 °C son 212,0°F"), the range as "de −100 a 1000" (U+2212 minus), the field in Spanish ("el valor"),
# the wrong type explained in Spanish ("debe ser numérico"). Keeps full marks in both editions.
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError


def coma(x: float) -> str:
    return f"{x:.1f}".replace(".", ",")


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
        raise ToolException("El valor está fuera del rango permitido: da una temperatura finita de −100 a 1000 grados.")
    if escala == "C":
        return f"{coma(value)} °C son {coma(value * 9 / 5 + 32)}°F"
    return f"{coma(value)} °F son {coma((value - 32) * 5 / 9)}°C"


def explicar(error: ValidationError) -> str:
    partes = []
    for e in error.errors():
        campo = ".".join(map(str, e["loc"])) or "argumentos"
        if e["type"] == "missing":
            partes.append(f"falta el argumento {campo}")
        elif campo == "value":
            partes.append(f"{campo} debe ser numérico")
        else:
            partes.append(f"{campo} debe ser un texto: C o F")
    return "Argumentos no válidos: " + "; ".join(partes) + "."


convert_temperature.handle_tool_error = True
convert_temperature.handle_validation_error = explicar
