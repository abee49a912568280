# cell: search_with_fallback_answer
# mistake: the message names the source that answered but not the ones that failed before it
# expect: name every failed source
# expect-es: nombra todas las fuentes que fallaron
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    for name, source in sources:
        try:
            answer = source(query)
        except Exception:
            failed.append(name)
            continue
        message = f"Answer from {name}."
        if "cache" in name.lower():
            message += " Cached data: it may be stale."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    return {"ok": False, "source": None, "result": None, "failed": failed,
            "message": f"All sources failed: {', '.join(failed)}."}
