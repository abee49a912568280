# cell: convert_temperature_answer
# A correct alternative worded in Spanish: the scales as letters ("Usa C o F"), the range "entre −100 y 1000"
# with a typographic minus, the field named inside a Spanish sentence ("el campo value no es un número");
# StructuredTool.from_function with handle_tool_error=True. Keeps full marks in both editions.
import math

from langchain_core.tools import StructuredTool, ToolException
from pydantic import ValidationError

MOTIVOS = {"float_parsing": "no es un número", "float_type": "no es un número", "missing": "falta",
           "string_type": "no es un texto"}


def convertir(value: float, from_scale: str) -> str:
    escala = from_scale.strip().upper()
    if escala not in {"C", "F"}:
        raise ToolException(f"Escala {from_scale!r} no reconocida. Usa C o F.")
    if not math.isfinite(value):
        raise ToolException(f"{value} no es una temperatura: tiene que ser un número entre −100 y 1000.")
    if value < -100 or value > 1000:
        raise ToolException(f"La temperatura debe estar entre −100 y 1000 grados; {value} se sale del rango.")
    if escala == "C":
        return f"{value} °C equivalen a {value * 9 / 5 + 32:.1f}°F"
    return f"{value} °F equivalen a {(value - 32) * 5 / 9:.1f}°C"


def explicar_argumentos(error: ValidationError) -> str:
    partes = [f"el campo {'.'.join(map(str, e['loc'])) or 'entrada'} {MOTIVOS.get(e['type'], 'no es válido')}"
              for e in error.errors()]
    return "Argumentos incorrectos: " + "; ".join(partes) + ". value es un número entre −100 y 1000; from_scale, C o F."


convert_temperature = StructuredTool.from_function(
    func=convertir,
    name="convert_temperature",
    description="Convierte una temperatura entre Celsius y Fahrenheit (value de -100 a 1000; from_scale 'C' o 'F').",
    handle_tool_error=True,
    handle_validation_error=explicar_argumentos,
)
