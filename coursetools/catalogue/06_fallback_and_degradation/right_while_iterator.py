# cell: search_with_fallback_answer
# A correct alternative an explicit iterator and a while loop, "It comes from a cache, so it may be out of date". Full
# marks in both editions.
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn."""
    failed, it = [], iter(sources)
    while True:
        try:
            name, fn = next(it)
        except StopIteration:
            break
        try:
            value = fn(query)
        except Exception:
            failed.append(name)
            continue
        msg = f"{name} answered." + (f" Before it, these failed: {', '.join(failed)}." if failed else "")
        if "cache" in name.lower():
            msg += " It comes from a cache, so it may be out of date."
        return {"ok": True, "source": name, "result": value, "failed": failed, "message": msg}
    return {"ok": False, "source": None, "result": None, "failed": failed,
            "message": f"Every source failed: {', '.join(failed)}." if failed else "No sources to try."}
