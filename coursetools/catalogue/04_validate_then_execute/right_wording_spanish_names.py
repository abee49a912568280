# cell: convert_temperature_answer
# A correct alternative worded in Spanish: the scales by name ("grados Celsius o Fahrenheit"), the range as
# "el mínimo es -100 y el máximo, 1.000" (Spanish thousands separator), the field quoted in upper case
# ("el parámetro 'VALUE'"), accents everywhere; one handler for both kinds of error. Keeps full marks in
# both editions.
import math

from langchain_core.tools import ToolException, tool
from pydantic import ValidationError

MINIMO, MAXIMO = -100, 1000


@tool
def convert_temperature(value: float, from_scale: str) -> str:
    """Convierte una temperatura de Celsius a Fahrenheit o al revés.

    Args:
        value: la temperatura, de -100 a 1000 en su propia escala.
        from_scale: "C" (Celsius) o "F" (Fahrenheit).
    """
    origen = from_scale.strip().lower()
    if origen not in ("c", "f"):
        raise ToolException(f"No conozco la escala {from_scale!r}: sólo acepto grados Celsius o Fahrenheit.")
    if value != value or not MINIMO <= value <= MAXIMO:
        raise ToolException(f"Temperatura inválida ({value}): el mínimo es {MINIMO} y el máximo, 1.000.")
    if origen == "c":
        return "Resultado: " + format(value * 9 / 5 + 32, ".1f") + "°F"
    return "Resultado: " + format((value - 32) * 5 / 9, ".1f") + "°C"


def explicar(error) -> str:
    if isinstance(error, ValidationError):
        campos = ", ".join(f"'{str(e['loc'][0]).upper()}'" for e in error.errors() if e["loc"])
        return (f"Revisa el parámetro {campos}: la temperatura es un número (mínimo {MINIMO}, máximo 1.000) "
                "y la escala, Celsius o Fahrenheit.")
    return f"Error: {error}"


convert_temperature.handle_tool_error = explicar
convert_temperature.handle_validation_error = explicar
