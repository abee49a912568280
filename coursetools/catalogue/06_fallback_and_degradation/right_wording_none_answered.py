# cell: search_with_fallback_answer
# A correct alternative worded differently: "None of the sources answered", "might be out of date",
# a recursive walk down the chain and one message template per outcome.
TEMPLATES = {
    "answered": "Result provided by {source}.",
    "after_failures": "Result provided by {source} once {failed} could not be reached.",
    "cached": " Heads-up: {source} serves saved copies, so this might be out of date.",
    "nothing": "None of the sources answered ({failed}). Let the user know the search is unavailable.",
}


def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]], _failed=None) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = list(_failed or [])
    if not sources:
        return {"ok": False, "source": None, "result": None, "failed": failed,
                "message": TEMPLATES["nothing"].format(failed=" / ".join(failed) or "no source given")}
    (name, source), rest = sources[0], sources[1:]
    try:
        answer = source(query)
    except Exception:
        return search_with_fallback(query, rest, failed + [name])
    key = "after_failures" if failed else "answered"
    message = TEMPLATES[key].format(source=name, failed=" and ".join(failed))
    if "CACHE" in name.upper():
        message += TEMPLATES["cached"].format(source=name)
    return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
