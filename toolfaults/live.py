"""One switch between scripted replay and a real model.

Lessons call :func:`chat_model` and :func:`anthropic_client` with a script. With
no ``ANTHROPIC_API_KEY`` (the default, and always in the tests) they get the
scripted model and the offline client, which replay the script. With a key set,
they get a real Claude model and a real client, and the script is ignored.
``TOOLFAULTS_MODE=offline`` forces replay even when a key is set (the test suite
sets it). The key itself is never printed or returned.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import anthropic

from .anthropic_offline import DEFAULT_MODEL, OfflineAnthropic
from .models import ScriptedChatModel

__all__ = ["live_mode", "describe_mode", "anthropic_client", "chat_model", "DEFAULT_MODEL"]


def live_mode() -> bool:
    """True when a real model should be used: a key is set and replay is not forced."""
    if os.environ.get("TOOLFAULTS_MODE", "").strip().lower() == "offline":
        return False
    return bool(os.environ.get("ANTHROPIC_API_KEY", "").strip())


def describe_mode() -> str:
    """A one-line, key-free description of the current mode, for notebooks to print."""
    if live_mode():
        return f"LIVE: calls go to the real Anthropic API ({DEFAULT_MODEL}); answers will vary."
    if os.environ.get("ANTHROPIC_API_KEY", "").strip():
        return "OFFLINE (forced by TOOLFAULTS_MODE=offline): scripted replay, no network."
    return "OFFLINE: scripted replay, no network, no key needed (set ANTHROPIC_API_KEY for a real model)."


def anthropic_client(script: Sequence[Any] = (), **kwargs: Any) -> anthropic.Anthropic:
    """A real ``anthropic.Anthropic`` in live mode, else an :class:`OfflineAnthropic` on ``script``.

    In live mode ``kwargs`` go to ``anthropic.Anthropic`` (the key comes from the
    environment; ``ANTHROPIC_BASE_URL`` is honoured by the SDK). Offline they go to
    :class:`OfflineAnthropic` (``sleep=``, ``max_retries=``).
    """
    if live_mode():
        kwargs.pop("sleep", None)
        return anthropic.Anthropic(**kwargs)
    return OfflineAnthropic(script, **kwargs)


def chat_model(script: Sequence[Any] = (), *, model: str = DEFAULT_MODEL, **kwargs: Any) -> Any:
    """A LangChain chat model: Claude in live mode, else a :class:`ScriptedChatModel`.

    Live mode needs ``langchain-anthropic`` (installed by ``make setup``); without it,
    replay is used and a note says why.
    """
    if live_mode():
        try:
            from langchain_anthropic import ChatAnthropic
        except ImportError:  # pragma: no cover - the course pins it
            print("langchain-anthropic is not installed: using scripted replay instead.")
        else:
            return ChatAnthropic(model=model, **kwargs)
    return ScriptedChatModel(script=list(script))
