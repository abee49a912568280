# cell: search_with_fallback_answer
# mistake: raises an exception when every source has failed instead of returning ok=False
# expect: It must never raise
# expect-es: Nunca debe lanzar una excepción
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed = []
    for name, source in sources:
        try:
            answer = source(query)
        except Exception:
            failed.append(name)
            continue
        message = f"Answer from {name}."
        if failed:
            message += f" These sources failed first: {', '.join(failed)}."
        if "cache" in name.lower():
            message += " Cached data: it may be stale."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": message}
    raise RuntimeError(f"All sources failed: {', '.join(failed)}")
