# cell: search_with_fallback_answer
# A correct alternative worded in Spanish without accents: "Todas las fuentes fallaron (a, b)", "es un
# dato de la cache, quiza antiguo"; a recursive walk down the chain. Full marks in both editions.
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Pregunta a las fuentes en orden (recursivamente) y devuelve la primera respuesta."""

    def probar(resto, fallidas):
        if not resto:
            nombres = ", ".join(fallidas) or "sin fuentes configuradas"
            return {"ok": False, "source": None, "result": None, "failed": fallidas,
                    "message": f"Todas las fuentes fallaron ({nombres}); no hay respuesta que dar."}
        nombre, fuente = resto[0]
        try:
            respuesta = fuente(query)
        except Exception:  # noqa: BLE001 - cualquier fallo de una fuente
            return probar(resto[1:], fallidas + [nombre])
        partes = [f"La respuesta viene de {nombre}"]
        if fallidas:
            partes.append(f"antes {'fallo' if len(fallidas) == 1 else 'fallaron'} {', '.join(fallidas)}")
        if "cache" in nombre.lower():
            partes.append("es un dato de la cache, quiza antiguo")
        return {"ok": True, "source": nombre, "result": respuesta, "failed": fallidas,
                "message": "; ".join(partes) + "."}

    return probar(list(sources), [])
