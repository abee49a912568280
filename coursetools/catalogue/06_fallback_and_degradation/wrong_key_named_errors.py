# cell: search_with_fallback_answer
# mistake: calls the list of failed sources "errors" instead of "failed"
# expect: the dict has no key(s) ['failed']
# expect-es: la(s) clave(s) ['failed']
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    errors = []
    for name, source in sources:
        try:
            answer = source(query)
        except Exception:
            errors.append(name)
            continue
        message = f"Answer from {name}."
        if errors:
            message += f" These sources failed first: {', '.join(errors)}."
        if "cache" in name.lower():
            message += " Cached data: it may be stale."
        return {"ok": True, "source": name, "result": answer, "errors": errors, "message": message}
    return {"ok": False, "source": None, "result": None, "errors": errors,
            "message": f"All sources failed: {', '.join(errors)}."}
