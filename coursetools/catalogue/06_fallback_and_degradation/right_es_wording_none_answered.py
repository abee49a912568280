# cell: search_with_fallback_answer
# A correct alternative worded in Spanish: "Ninguna fuente respondió (a, b, c)", "puede estar
# desactualizada" for a cache, "Antes fallaron: ...". Full marks in both editions.
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Pregunta a cada fuente por turnos y devuelve la primera respuesta, diciendo de dónde salió."""
    fallidas = []
    for nombre, fuente in sources:
        try:
            respuesta = fuente(query)
        except Exception:  # noqa: BLE001 - cualquier fallo de una fuente
            fallidas.append(nombre)
            continue
        mensaje = f"Respondió {nombre}."
        if fallidas:
            mensaje += f" Antes fallaron: {', '.join(fallidas)}."
        if "cache" in nombre.lower():
            mensaje += " Ojo: es una copia guardada y puede estar desactualizada."
        return {"ok": True, "source": nombre, "result": respuesta, "failed": fallidas, "message": mensaje}
    lista = ", ".join(fallidas) if fallidas else "no había ninguna configurada"
    return {"ok": False, "source": None, "result": None, "failed": fallidas,
            "message": f"Ninguna fuente respondió ({lista}). No te inventes la respuesta: díselo al usuario."}
