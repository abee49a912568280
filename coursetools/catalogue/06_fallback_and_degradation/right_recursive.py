# cell: search_with_fallback_answer
# A correct alternative: recursion over the chain, other wording ("outdated", "None of the sources").
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    def attempt(remaining, failed):
        if not remaining:
            listed = ", ".join(failed) or "(no sources were configured)"
            return {"ok": False, "source": None, "result": None, "failed": failed,
                    "message": f"None of the sources could answer; failed: {listed}."}
        (name, fetch), rest = remaining[0], remaining[1:]
        try:
            value = fetch(query)
        except Exception:
            return attempt(rest, failed + [name])
        notes = [f"Source used: {name}."]
        if failed:
            notes.append("Unavailable: " + ", ".join(failed) + ".")
        if name.casefold().find("cache") >= 0:
            notes.append("Warning: this comes from a cache and could be outdated.")
        return {"ok": True, "source": name, "result": value, "failed": failed, "message": " ".join(notes)}

    return attempt(list(sources), [])
