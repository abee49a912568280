"""The real ``anthropic`` SDK, answering from a script instead of the network.

:class:`OfflineAnthropic` is an ``anthropic.Anthropic`` client whose HTTP
transport is an ``httpx2.MockTransport``: requests are built, validated and sent
by the real SDK, and each one is answered by the next entry of a script of
Messages API responses. Every request body is recorded, so a lesson can show the
exact ``tool_use`` / ``tool_result`` / ``is_error`` exchange::

    >>> client = OfflineAnthropic([
    ...     tool_use_response("get_weather", {"city": "Madrid"}, id="toolu_01"),
    ...     text_response("It is sunny in Madrid."),
    ... ])
    >>> msg = client.messages.create(model=DEFAULT_MODEL, max_tokens=256,
    ...                              messages=[{"role": "user", "content": "Weather?"}])
    >>> msg.stop_reason, msg.content[0].name
    ('tool_use', 'get_weather')

The SDK's own retries (429, 529, 5xx) run as in production, but their waiting
goes through an injected ``sleep`` (by default a :class:`RecordingSleep`), so a
scripted ``retry-after: 30`` costs no time and the delays can be inspected.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

import anthropic
import httpx2

from .clock import RecordingSleep
from .language import say
from .live import DEFAULT_MODEL

__all__ = [
    "OfflineAnthropic",
    "text_response",
    "tool_use_response",
    "error_response",
    "scripted_answer",
    "DEFAULT_MODEL",
]

_ids = itertools.count(1)


def _message(content: list[dict[str, Any]], stop_reason: str, model: str) -> dict[str, Any]:
    return {
        "id": f"msg_offline_{next(_ids):04d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 25, "output_tokens": 12},
    }


def text_response(text: str, *, model: str = DEFAULT_MODEL) -> dict[str, Any]:
    """A Messages API response that ends the turn with ``text``."""
    return _message([{"type": "text", "text": text}], "end_turn", model)


def tool_use_response(
    name: str,
    input: dict[str, Any],
    *,
    id: str | None = None,
    text: str | None = None,
    more: Sequence[tuple[str, dict[str, Any]]] = (),
    model: str = DEFAULT_MODEL,
) -> dict[str, Any]:
    """A Messages API response asking for one tool call (``more`` adds parallel calls)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    for i, (tool_name, tool_input) in enumerate([(name, input), *more]):
        block_id = id if (i == 0 and id) else f"toolu_offline_{next(_ids):04d}"
        content.append({"type": "tool_use", "id": block_id, "name": tool_name, "input": dict(tool_input)})
    return _message(content, "tool_use", model)


_ERROR_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    408: "timeout_error",
    413: "request_too_large",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


def _error_body(status: int, message: str) -> dict[str, Any]:
    """The JSON body the Messages API sends with an HTTP error."""
    return {"type": "error", "error": {"type": _ERROR_TYPES.get(status, "api_error"), "message": message}}


class _ErrorResponse:
    """A scripted HTTP error (see :func:`error_response`)."""

    def __init__(self, status: int, message: str, headers: dict[str, str]) -> None:
        self.status = status
        self.message = message
        self.headers = headers

    def body(self) -> dict[str, Any]:
        """The error's JSON body, shaped like the real API's."""
        return _error_body(self.status, self.message)

    def to_httpx(self) -> httpx2.Response:
        """The error as an ``httpx2.Response``."""
        return httpx2.Response(self.status, json=self.body(), headers=self.headers)

    def __repr__(self) -> str:
        return f"error_response({self.status}, {self.message!r}, headers={self.headers!r})"


def error_response(
    status: int,
    message: str | None = None,
    *,
    retry_after: float | None = None,
    should_retry: bool | None = None,
) -> _ErrorResponse:
    """A scripted API error: 429 rate limit, 529 overloaded, 500, 400, ...

    ``retry_after`` adds a ``retry-after`` header (seconds); ``should_retry`` adds
    ``x-should-retry``, which overrides the SDK's own decision.
    """
    headers: dict[str, str] = {}
    if retry_after is not None:
        headers["retry-after"] = f"{retry_after:g}"
    if should_retry is not None:
        headers["x-should-retry"] = "true" if should_retry else "false"
    default = {429: "Number of requests has exceeded your rate limit", 529: "Overloaded"}.get(status, "API error")
    return _ErrorResponse(status, message or default, headers)


ScriptEntry = dict[str, Any] | _ErrorResponse | Callable[[dict[str, Any]], "dict[str, Any] | _ErrorResponse"]


def scripted_answer(
    script: Sequence[Any], index: int, body: dict[str, Any], *, owner: str = "OfflineAnthropic"
) -> tuple[int, dict[str, str], dict[str, Any]]:
    """Answer request number ``index`` (0-based) from ``script``: ``(status, headers, json)``.

    Shared by :class:`OfflineAnthropic` and :class:`toolfaults.standin.AnthropicStandIn`.
    A function entry is called with the request body. When the script has run out
    the answer is an HTTP 500 whose message says so, with ``x-should-retry: false``
    so the SDK fails at once instead of retrying.

    >>> scripted_answer([text_response("hi")], 0, {})[0]
    200
    >>> status, headers, body = scripted_answer([], 0, {})
    >>> status, headers["x-should-retry"], "script exhausted" in body["error"]["message"]
    (500, 'false', True)
    """
    if index >= len(script):
        message = say(
            f"{owner} script exhausted: request {index + 1} arrived but only {len(script)} "
            "response(s) were scripted. The code under test called the API more often than "
            "the scenario expected.",
            f"{owner}: guion agotado (script exhausted): llegó la petición {index + 1}, pero solo hay "
            f"{len(script)} respuesta(s) en el guion. El código probado llamó a la API más veces de "
            "lo que preveía el escenario.",
        )
        return 500, {"x-should-retry": "false"}, _error_body(500, message)
    entry = script[index]
    if callable(entry) and not isinstance(entry, (dict, _ErrorResponse)):
        entry = entry(body)
    if isinstance(entry, _ErrorResponse):
        return entry.status, dict(entry.headers), entry.body()
    if isinstance(entry, dict):
        return 200, {}, entry
    raise TypeError(
        f"script entry {index} is {type(entry).__name__}, not a response dict (text_response, "
        "tool_use_response), an error_response or a function of the request body returning one"
    )


class OfflineAnthropic(anthropic.Anthropic):
    """An ``anthropic.Anthropic`` client answering from ``script``, with no network.

    Args:
        script: one entry per HTTP request: a response body (see
            :func:`text_response`, :func:`tool_use_response`), an
            :func:`error_response`, or a function of the request body returning
            either.
        sleep: receives the SDK's retry delays instead of ``time.sleep``
            (default: a new :class:`RecordingSleep`, available as ``.sleep``).
        max_retries: the SDK's retry budget (its default is 2).

    Attributes:
        requests: the JSON body of every request sent, in order.
    """

    def __init__(
        self,
        script: Sequence[ScriptEntry] = (),
        *,
        sleep: Callable[[float], Any] | None = None,
        max_retries: int = 2,
        **kwargs: Any,
    ) -> None:
        self.script: list[Any] = list(script)
        self.requests: list[dict[str, Any]] = []
        self.sleep = sleep if sleep is not None else RecordingSleep()
        http_client = kwargs.pop("http_client", None)
        if http_client is None:
            http_client = httpx2.Client(transport=httpx2.MockTransport(self._handle))
        super().__init__(
            api_key=kwargs.pop("api_key", None) or "sk-ant-offline-not-a-real-key",
            base_url=kwargs.pop("base_url", None) or "https://api.anthropic.invalid",
            http_client=http_client,
            max_retries=max_retries,
            **kwargs,
        )

    def copy(self, **kwargs: Any) -> OfflineAnthropic:  # type: ignore[override]
        """A copy with other options (``with_options``) that shares script, record and sleep.

        ``client.with_options(max_retries=5).messages.create(...)`` answers from
        the same script, its request lands in ``client.requests`` and its retry
        delays in ``client.sleep``, as a lesson expects.
        """
        client = super().copy(**kwargs)
        client.script = self.script
        client.requests = self.requests
        client.sleep = self.sleep
        return client

    with_options = copy  # type: ignore[assignment]

    @property
    def last_request(self) -> dict[str, Any]:
        """The body of the most recent request."""
        if not self.requests:
            raise LookupError("no request has been sent yet")
        return self.requests[-1]

    def _handle(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content or b"{}")
        index = len(self.requests)
        self.requests.append(body)
        status, headers, payload = scripted_answer(self.script, index, body)
        return httpx2.Response(status, json=payload, headers=headers)

    def _sleep_for_retry(
        self, *, retries_taken: int, max_retries: int, options: Any, response: httpx2.Response | None
    ) -> None:
        # The SDK's own schedule, computed by the SDK; only the waiting is injected.
        delay = self._calculate_retry_timeout(
            max_retries - retries_taken, options, response.headers if response else None
        )
        self.sleep(delay)
