# cell: search_with_fallback_answer
# mistake: keeps asking the later sources after one has answered (keeps the first answer)
# expect: after 'primary' had answered
# expect-es: después de que 'primary' respondiera
def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    failed, answered, result = [], None, None
    for name, source in sources:
        try:
            answer = source(query)
            if answered is None:
                answered, result = name, answer
        except Exception:
            failed.append(name)
    if answered is None:
        return {"ok": False, "source": None, "result": None, "failed": failed,
                "message": f"All sources failed: {', '.join(failed)}."}
    message = f"Answer from {answered}."
    if failed:
        message += f" Failed: {', '.join(failed)}."
    if "cache" in answered.lower():
        message += " The data may be stale."
    return {"ok": True, "source": answered, "result": result, "failed": failed, "message": message}
