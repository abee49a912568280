"""The lessons that can call a real model run top to bottom in LIVE mode, against a local stand-in.

With ``ANTHROPIC_API_KEY`` set, a lesson's model calls go to Claude (``toolfaults.live``).
No test may reach the network or need a key, so here the live path is taken for real
(real ``anthropic.Anthropic`` and ``ChatAnthropic`` clients, real HTTP, a dummy key)
against :class:`toolfaults.standin.AnthropicStandIn` on loopback, which behaves like
the Messages API where the lessons rely on it: it rejects a request whose
``tool_use`` has no ``tool_result`` right after it (HTTP 400, the API's wording), and
otherwise answers with text, as a model may. A lesson must not depend on the
scripted words in live mode: every cell runs, the mode line says LIVE, the requests
reach the stand-in, and the key is never shown.
"""

from __future__ import annotations

import logging
import re
import warnings
from pathlib import Path

import nbformat
import pytest

from autograder.course import ROOT
from toolfaults.anthropic_offline import error_response, text_response
from toolfaults.progress import execute_notebook
from toolfaults.standin import REDACTED, AnthropicStandIn

COURSE = ROOT / "course"
MODEL_CALL = re.compile(r"\b(chat_model|anthropic_client)\(")


def _calls_a_model(path: Path) -> bool:
    """A code cell of the lesson asks toolfaults.live for a model or a client."""
    nb = nbformat.read(path, as_version=4)
    return any(c.cell_type == "code" and MODEL_CALL.search(c.source) for c in nb.cells)


LIVE_LESSONS = sorted(p for p in COURSE.glob("[0-9][0-9]_*.ipynb") if _calls_a_model(p))
KEY = "sk-ant-standin-live-lesson-test-0123456789"


def like_the_api(body: dict) -> dict:
    """HTTP 400 for a tool_use without its tool_result in the next message (as the API does), else text."""
    messages = body.get("messages", [])
    for i, message in enumerate(messages[:-1]):
        if message.get("role") != "assistant" or isinstance(message.get("content"), str):
            continue
        following = messages[i + 1].get("content")
        answered = ({b.get("tool_use_id") for b in following if b.get("type") == "tool_result"}
                    if isinstance(following, list) else set())
        missing = [b["id"] for b in message["content"] if b.get("type") == "tool_use" and b["id"] not in answered]
        if missing:
            return error_response(400, f"messages.{i}: `tool_use` ids were found without `tool_result` blocks "
                                       f"immediately after: {', '.join(missing)}. Each `tool_use` block must have a "
                                       "corresponding `tool_result` block in the next message.")
    return text_response("(a reply from the local stand-in of the Messages API)")


def test_some_lessons_have_a_live_path():
    """The lessons that call a model are found (a renamed helper would silently skip the live test)."""
    assert {p.name for p in LIVE_LESSONS} >= {"01_five_error_types.ipynb", "02_is_error_protocol.ipynb"}


@pytest.mark.slow
@pytest.mark.parametrize("path", LIVE_LESSONS, ids=lambda p: p.stem)
def test_lesson_runs_live_against_the_stand_in(path: Path, monkeypatch, caplog):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    with caplog.at_level(logging.WARNING, logger="toolfaults.progress"):
        with AnthropicStandIn([like_the_api] * 200) as api, api.live_environment(api_key=KEY):
            execute_notebook(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(COURSE)}})
    # A kernel that did not start is started again (60 s lost each time) and the test still passes: said in
    # the run's warnings summary, so that a slow run shows why (one run waited 120 s here, with no trace).
    for record in (r for r in caplog.records if r.name == "toolfaults.progress"):
        warnings.warn(f"{path.name}: {record.getMessage()}", stacklevel=1)
    texts, unexpected = [], []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            texts.append(out.get("text", "") + str(out.get("data", {}).get("text/plain", "")) +
                         " ".join(out.get("traceback", [])))
            if out.get("output_type") == "error" and "raises-exception" not in cell.metadata.get("tags", []):
                unexpected.append((i, out.get("ename"), out.get("evalue")))
    shown = "\n".join(texts)
    assert not unexpected, f"{path.name} in LIVE mode: cells raised errors: {unexpected}"
    assert re.search(r"^LIVE: calls go to http://127\.0\.0\.1:\d+", shown, re.M), \
        f"{path.name} does not say it is in LIVE mode:\n{shown[:500]}"
    assert api.requests, f"{path.name} made no request to the model in LIVE mode"
    assert all(KEY not in str(h) and REDACTED in (h.get("x-api-key"), h.get("authorization")) for h in api.headers), \
        "every request should carry the key, and the stand-in should record it redacted"
    assert KEY not in shown, f"{path.name} shows the API key in LIVE mode"
