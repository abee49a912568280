# cell: search_with_fallback_answer
# mistake: records the error texts in `failed` instead of the sources' names
# expect: it must list the names of the sources that failed
# expect-es: debe listar los nombres de las fuentes que fallaron
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    for name, source in sources:
        try:
            answer = source(query)
        except Exception as exc:
            failed.append(f"{name}: {type(exc).__name__}: {exc}")
            continue
        message = f"Answer from {name}."
        if failed:
            message += f" Failures before it: {'; '.join(failed)}."
        if "cache" in name.lower():
            message += " Cached data: it may be stale."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    return {"ok": False, "source": None, "result": None, "failed": failed,
            "message": f"All sources failed: {'; '.join(failed)}."}
