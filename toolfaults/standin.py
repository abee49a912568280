"""A local stand-in for the Anthropic Messages API, to test the LIVE path offline.

:class:`AnthropicStandIn` is a tiny HTTP server on ``127.0.0.1`` (a random free
port, stdlib :mod:`http.server`, one background thread) that answers
``POST /v1/messages`` from a script of Messages API response dicts, the same
script entries :class:`~toolfaults.anthropic_offline.OfflineAnthropic` takes
(:func:`~toolfaults.anthropic_offline.text_response`,
:func:`~toolfaults.anthropic_offline.tool_use_response`,
:func:`~toolfaults.anthropic_offline.error_response`, or a function of the
request body). Point a real client at it with ``ANTHROPIC_BASE_URL`` and the whole
live code path runs: environment switch, real ``anthropic.Anthropic`` or
``ChatAnthropic``, real HTTP, real retries. Nothing leaves the machine::

    >>> import anthropic
    >>> from toolfaults.anthropic_offline import text_response
    >>> with AnthropicStandIn([text_response("Hello from the stand-in.")]) as api:
    ...     client = anthropic.Anthropic(api_key="dummy", base_url=api.url, max_retries=0)
    ...     reply = client.messages.create(model="claude-sonnet-4-6", max_tokens=64,
    ...                                    messages=[{"role": "user", "content": "Hi"}])
    >>> reply.content[0].text
    'Hello from the stand-in.'
    >>> api.requests[0]["messages"][0]["content"]
    'Hi'

:meth:`AnthropicStandIn.live_environment` sets the variables that switch
:mod:`toolfaults.live` to LIVE mode against the stand-in, and restores them after.

Streaming (``"stream": true``) is not supported: such a request gets a 400 error
that says so, and uses up no script entry. Retry delays of a real client are real
waits, so scripts of errors for a live client should be short and carry a small
``retry_after`` (for example ``0``).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .anthropic_offline import ScriptEntry, _error_body, scripted_answer

__all__ = ["AnthropicStandIn", "MESSAGES_PATH", "REDACTED"]

MESSAGES_PATH = "/v1/messages"
"""The only path the stand-in answers."""

REDACTED = "<redacted>"
"""What the stand-in records instead of a credential header's value."""

_SECRET_HEADERS = frozenset({"x-api-key", "authorization", "proxy-authorization", "cookie"})
_LIVE_VARIABLES = ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_URL", "TOOLFAULTS_MODE")


class AnthropicStandIn:
    """A local HTTP server answering ``POST /v1/messages`` from a script.

    Args:
        script: one entry per ``/v1/messages`` request, as for
            :class:`~toolfaults.anthropic_offline.OfflineAnthropic`.
        host: the address to listen on; only loopback addresses are accepted.

    Attributes:
        requests: the JSON body of every ``/v1/messages`` request, in order.
        headers: the headers of each of those requests (lower-case names), with
            the values of credential headers (``x-api-key``, ``authorization``)
            replaced by :data:`REDACTED`.
        paths: the path of every request received, answered or not.

    Use it as a context manager (``with AnthropicStandIn(script) as api:``) or
    call :meth:`start` and :meth:`stop`. ``api.url`` is the base URL to give a
    client (``http://127.0.0.1:<port>``).
    """

    def __init__(self, script: Sequence[ScriptEntry] = (), *, host: str = "127.0.0.1") -> None:
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError(f"the stand-in listens on loopback only, not {host!r}")
        self.script: list[Any] = list(script)
        self.host = host
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------

    def start(self) -> AnthropicStandIn:
        """Start serving in a background thread (port chosen by the OS); returns ``self``."""
        if self._server is not None:
            raise RuntimeError("the stand-in is already running")
        server = ThreadingHTTPServer((self.host, 0), _make_handler(self))
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.02},  # shutdown() waits up to one poll: keep stop() quick
            name="anthropic-standin",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and free the port (safe to call twice)."""
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is not None:
            server.shutdown()
            server.server_close()
        if thread is not None:
            thread.join(timeout=5)

    def __enter__(self) -> AnthropicStandIn:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        """Whether the server is serving."""
        return self._server is not None

    @property
    def port(self) -> int:
        """The port the server listens on."""
        if self._server is None:
            raise RuntimeError("the stand-in is not running: use `with AnthropicStandIn(...)` or .start()")
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """The base URL for a client: ``http://127.0.0.1:<port>``."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def last_request(self) -> dict[str, Any]:
        """The body of the most recent ``/v1/messages`` request."""
        with self._lock:
            if not self.requests:
                raise LookupError("the stand-in has received no request yet")
            return self.requests[-1]

    @property
    def remaining(self) -> int:
        """How many script entries are still unused."""
        with self._lock:
            return max(0, len(self.script) - len(self.requests))

    @contextmanager
    def live_environment(self, api_key: str = "sk-ant-standin-dummy") -> Iterator[AnthropicStandIn]:
        """Switch :mod:`toolfaults.live` to LIVE mode against this stand-in, then restore.

        Sets ``ANTHROPIC_API_KEY`` (a dummy by default), ``ANTHROPIC_BASE_URL`` and
        ``ANTHROPIC_API_URL`` (langchain-anthropic reads the latter first) to
        :attr:`url`, and removes ``TOOLFAULTS_MODE``. Every variable gets its old
        value (or absence) back on exit.
        """
        saved = {name: os.environ.get(name) for name in _LIVE_VARIABLES}
        try:
            os.environ["ANTHROPIC_API_KEY"] = api_key
            os.environ["ANTHROPIC_BASE_URL"] = self.url
            os.environ["ANTHROPIC_API_URL"] = self.url
            os.environ.pop("TOOLFAULTS_MODE", None)
            yield self
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value

    def __repr__(self) -> str:
        where = self.url if self._server is not None else "stopped"
        return f"AnthropicStandIn({where}, requests={len(self.requests)}, script={len(self.script)})"

    # -- answering ---------------------------------------------------------

    def _answer(self, path: str, headers: dict[str, str], raw: bytes) -> tuple[int, dict[str, str], dict[str, Any]]:
        """Status, headers and JSON body for one request (runs on a server thread)."""
        with self._lock:
            self.paths.append(path)
        if path.split("?", 1)[0].rstrip("/") != MESSAGES_PATH:
            return 404, {}, _error_body(404, f"the stand-in only answers POST {MESSAGES_PATH}, not {path}")
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            return 400, {}, _error_body(400, "the request body is not valid JSON")
        if not isinstance(body, dict):
            return 400, {}, _error_body(400, "the request body must be a JSON object")
        if body.get("stream"):
            return 400, {"x-should-retry": "false"}, _error_body(400, "the stand-in does not support streaming")
        with self._lock:
            index = len(self.requests)
            self.requests.append(body)
            self.headers.append({k: (REDACTED if k in _SECRET_HEADERS else v) for k, v in headers.items()})
        try:
            return scripted_answer(self.script, index, body, owner="AnthropicStandIn")
        except Exception as err:  # a broken script entry: say so instead of dropping the connection
            return 500, {"x-should-retry": "false"}, _error_body(500, f"stand-in script entry failed: {err}")


def _make_handler(standin: AnthropicStandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "AnthropicStandIn/1.0"

        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            headers = {k.lower(): v for k, v in self.headers.items()}
            self._send(*standin._answer(self.path, headers, raw))

        def do_GET(self) -> None:  # noqa: N802
            with standin._lock:
                standin.paths.append(self.path)
            self._send(405, {}, _error_body(405, f"the stand-in only answers POST {MESSAGES_PATH}"))

        def _send(self, status: int, headers: dict[str, str], payload: dict[str, Any]) -> None:
            data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", f"req_standin_{len(standin.paths):04d}")
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # keep notebooks and test output quiet
            return

    return Handler
