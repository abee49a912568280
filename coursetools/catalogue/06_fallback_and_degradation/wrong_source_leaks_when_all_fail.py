# cell: search_with_fallback_answer
# mistake: when every source fails, `source` holds the last name tried (the loop variable) instead of None
# expect: both must be None
# expect-es: los dos deben ser None
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    name = None
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
    return {"ok": False, "source": name, "result": None, "failed": failed,
            "message": f"All sources failed: {', '.join(failed)}."}
