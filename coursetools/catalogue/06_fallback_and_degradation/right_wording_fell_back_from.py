# cell: search_with_fallback_answer
# A correct alternative worded differently: "Answer from live_api, after falling back from cache (failed)." names
# a failed cache without warning about stale data (the answer came from a live source). Full marks in both editions.
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
        message = f"Answer from {name}"
        if failed:
            message += ", after falling back from " + ", ".join(f"{n} (failed)" for n in failed)
        message += "."
        if "cache" in name.lower():
            message += " That is a cached copy, possibly out of date."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    if failed:
        message = (f"All {len(failed)} sources failed: {', '.join(reasons)}. "
                   "There is no answer to give; tell the user instead of guessing.")
    else:
        message = "No source was given, so there is no answer to give."
    return {"ok": False, "source": None, "result": None, "failed": failed, "message": message}
