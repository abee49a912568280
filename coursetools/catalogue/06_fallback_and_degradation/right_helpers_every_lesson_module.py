# cell: search_with_fallback_answer
# mistake: none: every helper module the lessons import, imported for the first time here, in several forms, before the answer
import importlib

import toolfaults.anthropic_offline
import toolfaults.backoff as backoff
import toolfaults.clock
import toolfaults.contract
import toolfaults.errors
import toolfaults.idempotency
import toolfaults.live
import toolfaults.models
import toolfaults.progress
import toolfaults.quiz
import toolfaults.standin
import toolfaults.tools
from toolfaults import catalog, language, policy
from toolfaults.contract import *  # noqa: F403

importlib.import_module("toolfaults.policy")


def search_with_fallback(query: str, sources: list[tuple[str, Callable[[str], str]]]) -> dict:
    """The first source that answers wins; every failure is recorded on the way."""
    failed: list[str] = []
    for name, ask in sources:
        try:
            answer = ask(query)
        except Exception:  # noqa: BLE001 - a failing source is the next one's turn
            failed.append(name)
            continue
        note = f"The answer comes from {name}."
        if failed:
            note += f" These sources failed first: {', '.join(failed)}."
        if "cache" in name.lower():
            note += " It came from a cache, so it may be stale: say so to the user."
        return {"ok": True, "source": name, "result": answer, "failed": failed, "message": note}
    listed = ", ".join(failed) if failed else "none were given"
    return {"ok": False, "source": None, "result": None, "failed": failed,
            "message": f"All sources failed ({listed}); there is no answer, so tell the user."}
