# cell: search_with_fallback_answer
# mistake: the message names at most three failed sources and then says 'and N more', so with four or more failures some are not named
# expect: however many there are
# expect-es: por muchas que sean
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    reasons = []
    def short(items):
        return ", ".join(items[:3]) + (f" and {len(items) - 3} more" if len(items) > 3 else "")
    for name, source in sources:
        try:
            answer = source(query)
        except Exception as exc:
            failed.append(name)
            reasons.append(f"{name} ({type(exc).__name__})")
            continue
        message = f"Answer from {name}."
        if failed:
            message += f" Tried before it and failed: {short(reasons)}."
        if "cache" in name.lower():
            message += f" {name} is a cache: this answer may be stale (out of date), so tell the user."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    if failed:
        message = f"All {len(failed)} sources failed: {short(reasons)}."
    else:
        message = "No source was given, so there is no answer to give."
    return {"ok": False, "source": None, "result": None, "failed": failed, "message": message}
