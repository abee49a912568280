# cell: search_with_fallback_answer
# mistake: none: the contract (ToolError) imported first here, a subclass of it, and the message built from its parts
from toolfaults.contract import ToolError


class SourceFailure(ToolError):
    """A ToolError the fallback chain can report (a subclass adds nothing the tests see)."""


def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """Ask the sources in order; report the first answer, and which ones failed."""
    failed = []
    for name, source in sources:
        try:
            result = source(query)
        except Exception:  # noqa: BLE001
            failed.append(name)
            continue
        stale = " This is cached data and may be stale; tell the user." if "cache" in name.lower() else ""
        before = f" Failed before it: {', '.join(failed)}." if failed else ""
        return {"ok": True, "source": name, "result": result, "failed": failed,
                "message": f"{name} answered.{before}{stale}"}
    error = SourceFailure("all_sources_failed",
                          f"Every source failed: {', '.join(failed) or 'no source was given'}. Tell the user.",
                          "stop_turn")
    return {"ok": False, "source": None, "result": None, "failed": failed, "message": error.message}
