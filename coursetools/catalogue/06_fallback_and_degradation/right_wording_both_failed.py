# cell: search_with_fallback_answer
# A correct alternative worded differently: when two sources fail, "Both sources failed: a and b"; otherwise "All N
# sources failed". Full marks in both editions.
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
        if "cache" in name.lower():
            message += f" {name} is a cache: this answer may be stale (out of date), so tell the user."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    if failed:
        message = (f"Both sources failed: {' and '.join(reasons)}." if len(failed) == 2 else f"All {len(failed)} sources failed: {', '.join(reasons)}.")
    else:
        message = "No source was given, so there is no answer to give."
    return {"ok": False, "source": None, "result": None, "failed": failed, "message": message}
