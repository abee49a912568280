# cell: search_with_fallback_answer
# mistake: only names that start with 'cache' get the stale warning, so 'local_cache' gets none
# expect: gives no stale warning although 'local_cache' answered
# expect-es: no avisa de que la respuesta puede estar desactualizada, y eso que respondió 'local_cache'
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    reasons = []
    for name, source in sources:
        try:
            answer = source(query)
        except Exception as exc:
            failed.append(name)
            reasons.append(f"{name} ({type(exc).__name__})")
            continue
        message = f"Answer from {name}."
        if failed:
            message += f" Tried before it and failed: {', '.join(reasons)}."
        if name.lower().startswith("cache"):
            message += f" {name} is a cache: this answer may be stale (out of date), so tell the user."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    if failed:
        message = (f"All {len(failed)} sources failed: {', '.join(reasons)}. "
                   "There is no answer to give; tell the user instead of guessing.")
    else:
        message = "No source was given, so there is no answer to give."
    return {"ok": False, "source": None, "result": None, "failed": failed, "message": message}
