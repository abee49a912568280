# cell: search_with_fallback_answer
# mistake: when everything fails the message says so but does not name the sources
# expect: name each source
# expect-es: nombra cada fuente
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
        if failed:
            message += f" These sources failed first: {', '.join(failed)}."
        if "cache" in name.lower():
            message += " Cached data: it may be stale."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    return {"ok": False, "source": None, "result": None, "failed": failed,
            "message": "All sources failed. Try again later."}
