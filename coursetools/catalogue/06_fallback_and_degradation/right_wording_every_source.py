# cell: search_with_fallback_answer
# A correct alternative worded differently: "Every source failed (a, b, c)", "may be old" for a cache,
# the message built from parts at the end.
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    for name, source in sources:
        try:
            answer = source(query)
        except Exception:
            failed.append(name)
            continue
        parts = [f"{name} answered"]
        if failed:
            parts.append(f"{', '.join(failed)} did not")
        if "cache" in name.casefold():
            parts.append("the data comes from a cache and may be old")
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": "; ".join(parts) + "."}
    names = ", ".join(failed) or "no sources were configured"
    return {"ok": False, "source": None, "result": None, "failed": failed,
            "message": f"Every source failed ({names}). Do not guess an answer."}
