"""One switch between scripted replay and a real model.

Lessons call :func:`chat_model` and :func:`anthropic_client` with a script. With
no ``ANTHROPIC_API_KEY`` (the default, and always in the tests) they get the
scripted model and the offline client, which replay the script. With a key set,
they get a real Claude model and a real client, and the script is ignored.
``TOOLFAULTS_MODE=offline`` forces replay even when a key is set (the test suite
sets it). The key itself is never printed or returned.

In live mode both clients go to the same place: ``ANTHROPIC_BASE_URL`` when it is
set (else ``ANTHROPIC_API_URL``, langchain-anthropic's own variable), else the
real API. Pointing it at a :class:`toolfaults.standin.AnthropicStandIn` runs the
whole live path on this machine::

    >>> from toolfaults.standin import AnthropicStandIn
    >>> from toolfaults.anthropic_offline import text_response
    >>> with AnthropicStandIn([text_response("Hi!")]) as api, api.live_environment():
    ...     print(describe_mode().split(":")[0], live_mode())
    ...     client = anthropic_client()
    ...     reply = client.messages.create(model=DEFAULT_MODEL, max_tokens=32,
    ...                                    messages=[{"role": "user", "content": "Hello"}])
    LIVE True
    >>> reply.content[0].text
    'Hi!'
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from .language import say

if TYPE_CHECKING:
    import anthropic

__all__ = ["live_mode", "describe_mode", "base_url", "anthropic_client", "chat_model", "DEFAULT_MODEL"]

#: The Claude model the lessons name, live and in the offline replies: current on the pinned SDK (no
#: DeprecationWarning in notebooks).
DEFAULT_MODEL = "claude-sonnet-4-6"

# The Anthropic SDK (about 0.8 s of CPU to import: thousands of response types) and LangChain are
# imported by the functions that use them, not here: a lesson that only prints the mode, or only
# uses the scripted chat model, starts without the SDK.


def live_mode() -> bool:
    """True when a real model should be used: a key is set and replay is not forced."""
    if os.environ.get("TOOLFAULTS_MODE", "").strip().lower() == "offline":
        return False
    return bool(os.environ.get("ANTHROPIC_API_KEY", "").strip())


def base_url() -> str | None:
    """The API base URL live clients use: ``ANTHROPIC_BASE_URL``, else ``ANTHROPIC_API_URL``, else ``None``.

    ``None`` means the SDK's default, the real Anthropic API.
    """
    for name in ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_URL"):
        value = os.environ.get(name, "").strip()
        if value:
            return value
    return None


def _shown_url(url: str) -> str:
    """``url`` without user, password, query or fragment: safe to print."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return say("a custom URL", "una URL propia")
    if not parts.scheme or not host:
        return say("a custom URL", "una URL propia")
    return f"{parts.scheme}://{host}{port}{parts.path}"


def describe_mode() -> str:
    """A one-line, key-free description of the current mode, for notebooks to print."""
    if live_mode():
        url = base_url()
        if url:
            return say(f"LIVE: calls go to {_shown_url(url)} (a custom base URL, model {DEFAULT_MODEL}).",
                       f"LIVE: las llamadas van a {_shown_url(url)} (una base URL propia, modelo {DEFAULT_MODEL}).")
        return say(f"LIVE: calls go to the real Anthropic API ({DEFAULT_MODEL}); answers will vary.",
                   f"LIVE: las llamadas van a la API real de Anthropic ({DEFAULT_MODEL}); las respuestas variarán.")
    if os.environ.get("ANTHROPIC_API_KEY", "").strip():
        return say("OFFLINE (forced by TOOLFAULTS_MODE=offline): scripted replay, no network.",
                   "OFFLINE (forzado por TOOLFAULTS_MODE=offline): respuestas de un guion, sin red.")
    return say("OFFLINE: scripted replay, no network, no key needed (set ANTHROPIC_API_KEY for a real model).",
               "OFFLINE: respuestas de un guion, sin red, sin clave (define ANTHROPIC_API_KEY para usar un modelo real).")


def anthropic_client(script: Sequence[Any] = (), **kwargs: Any) -> anthropic.Anthropic:
    """A real ``anthropic.Anthropic`` in live mode, else an :class:`OfflineAnthropic` on ``script``.

    In live mode ``kwargs`` go to ``anthropic.Anthropic`` (the key comes from the
    environment, the base URL from :func:`base_url`; ``sleep=`` is dropped, since a
    real client really waits). Offline they go to :class:`OfflineAnthropic`
    (``sleep=``, ``max_retries=``).
    """
    if live_mode():
        kwargs.pop("sleep", None)
        url = base_url()
        if url and "base_url" not in kwargs:
            kwargs["base_url"] = url
        import anthropic

        return anthropic.Anthropic(**kwargs)
    from .anthropic_offline import OfflineAnthropic

    return OfflineAnthropic(script, **kwargs)


def chat_model(script: Sequence[Any] = (), *, model: str = DEFAULT_MODEL, **kwargs: Any) -> Any:
    """A LangChain chat model: Claude in live mode, else a :class:`ScriptedChatModel`.

    In live mode ``kwargs`` go to ``ChatAnthropic`` (``max_retries=``,
    ``max_tokens=``, ...), with the base URL from :func:`base_url`. Live mode needs
    ``langchain-anthropic`` (installed by ``make setup``); without it, replay is
    used and a note says why.
    """
    if live_mode():
        try:
            from langchain_anthropic import ChatAnthropic
        except ImportError:  # pragma: no cover - the course pins it
            print(say("langchain-anthropic is not installed: using scripted replay instead.",
                      "langchain-anthropic no está instalado: se usan las respuestas del guion."))
        else:
            url = base_url()
            if url and "base_url" not in kwargs and "anthropic_api_url" not in kwargs:
                kwargs["base_url"] = url
            return ChatAnthropic(model=model, **kwargs)
    from .models import ScriptedChatModel

    return ScriptedChatModel(script=list(script))
