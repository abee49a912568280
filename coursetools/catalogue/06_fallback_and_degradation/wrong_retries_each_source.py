# cell: search_with_fallback_answer
# mistake: gives every failing source a second try before moving on (doubling the calls to a dead source)
# expect: call each source at most once
# expect-es: llama a cada fuente como mucho una vez
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    for name, source in sources:
        answer, ok = None, False
        for _attempt in range(2):
            try:
                answer, ok = source(query), True
                break
            except Exception:
                pass
        if not ok:
            failed.append(name)
            continue
        message = f"Answer from {name}."
        if failed:
            message += f" These sources failed first: {', '.join(failed)}."
        if "cache" in name.lower():
            message += " Cached data: it may be stale."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    return {"ok": False, "source": None, "result": None, "failed": failed,
            "message": f"All sources failed: {', '.join(failed)}."}
