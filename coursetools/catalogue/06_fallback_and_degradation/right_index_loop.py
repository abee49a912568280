# cell: search_with_fallback_answer
# A correct alternative: an index loop, the dict built once at the end, failure reasons in the message.
import re


def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask each source in turn and return the first answer, saying which source gave it."""
    outcome = {"ok": False, "source": None, "result": None, "failed": [], "message": ""}
    problems = []
    i = 0
    while i < len(sources) and not outcome["ok"]:
        label, func = sources[i]
        i += 1
        try:
            outcome["result"] = func(query)
            outcome["ok"], outcome["source"] = True, label
        except BaseException as err:  # noqa: BLE001 - a source may raise anything but must not stop the chain
            if isinstance(err, (KeyboardInterrupt, SystemExit)):
                raise
            outcome["failed"].append(label)
            problems.append(f"{label} raised {err.__class__.__name__}")
    if outcome["ok"]:
        text = f"'{outcome['source']}' answered the query."
        if problems:
            text += " Earlier: " + "; ".join(problems) + "."
        if re.search("cache", outcome["source"], re.IGNORECASE):
            text += " This is cached data and may be stale; tell the user it might be out of date."
    else:
        text = "All sources failed (" + "; ".join(problems) + "). Tell the user no source is available." \
            if problems else "All sources failed: there were none to ask."
    outcome["message"] = text
    return outcome
