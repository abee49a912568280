# cell: search_with_fallback_answer
# mistake: only a name that ends with "cache" (in any case) gets the stale warning, so "cache_v2" and "CacheDB" get none
# expect: anywhere in the name
# expect-es: en cualquier parte del nombre
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it.

    Returns a dict with ok, source, result, failed and message (see the contract above).
    """
    failed = []   # names of the sources that raised, in order
    reasons = []  # "name (ErrorType)", for the message
    for name, source in sources:
        try:
            answer = source(query)
        except Exception as exc:  # any failure of a source: note it and try the next one
            failed.append(name)
            reasons.append(f"{name} ({type(exc).__name__})")
            continue
        message = f"Answer from {name}."
        if failed:
            message += f" Tried before it and failed: {', '.join(reasons)}."
        if name.lower().endswith("cache"):
            message += f" {name} is a cache: this answer may be stale (out of date), so tell the user."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    if failed:
        message = (f"All {len(failed)} sources failed: {', '.join(reasons)}. "
                   "There is no answer to give; tell the user instead of guessing.")
    else:
        message = "No source was given, so there is no answer to give."
    return {"ok": False, "source": None, "result": None, "failed": failed, "message": message}
