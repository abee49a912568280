# cell: search_with_fallback_answer
# mistake: catches only ConnectionError and TimeoutError, so any other error of a source escapes
# expect: raised KeyError
# expect-es: lanzó KeyError
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    for name, source in sources:
        try:
            answer = source(query)
        except (ConnectionError, TimeoutError):
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
