# cell: search_with_fallback_answer
# mistake: adds the stale-data warning to every answer, even from a live source
# expect: warn only when the answer comes from a cache
# expect-es: avisa solo cuando la respuesta viene de una caché
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    for name, source in sources:
        try:
            answer = source(query)
        except Exception:
            failed.append(name)
            continue
        message = f"Answer from {name} (it may be stale: check how recent it is)."
        if failed:
            message += f" These sources failed first: {', '.join(failed)}."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    return {"ok": False, "source": None, "result": None, "failed": failed,
            "message": f"All sources failed: {', '.join(failed)}."}
