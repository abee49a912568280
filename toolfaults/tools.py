"""Real LangChain tools that fail on purpose, deterministically.

Every factory here returns a :class:`MockTool`: a genuine
:class:`~langchain_core.tools.StructuredTool` (so ``.invoke``, argument schemas,
``ToolCall`` input and ``handle_tool_error`` all behave as in production) that
also records every call that reached its function and follows a fixed script of
outcomes. A tool told to fail twice fails exactly twice::

    >>> from toolfaults.tools import flaky_tool
    >>> search = flaky_tool(failures=2, error=ConnectionError("search API unreachable"))
    >>> for _ in range(3):
    ...     try:
    ...         print(search.invoke({"query": "jitter"}))
    ...     except ConnectionError as err:
    ...         print("failed:", err)
    failed: search API unreachable
    failed: search API unreachable
    results for 'jitter'
    >>> search.call_count
    3

The five error types of tool calling map to these factories:

==========================  ===========================================
error type                  how to reproduce it
==========================  ===========================================
tool not found              a scripted model calls a name no tool has
invalid arguments           any tool: its schema rejects bad ``args``
timeout                     :func:`timeout_tool`
unexpected return format    :func:`odd_format_tool`
rate limiting               :func:`rate_limited_tool`
==========================  ===========================================

plus :func:`flaky_tool` (transient faults that pass), :func:`failing_tool`
(permanent faults) and :func:`write_tool` (a side effect that may or may not
have happened when the call fails).
"""

# No `from __future__ import annotations` here: LangChain reads a tool function's type hints on every
# call, and string annotations would be parsed anew each time.

import copy
from collections.abc import Callable, Sequence
from typing import Any, Literal

from langchain_core.callbacks import CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import StructuredTool
from pydantic import Field

from .errors import RateLimitError
from .language import current_language, say

__all__ = [
    "MockTool",
    "WriteTool",
    "Return",
    "make_tool",
    "flaky_tool",
    "failing_tool",
    "timeout_tool",
    "rate_limited_tool",
    "odd_format_tool",
    "write_tool",
    "fresh_exception",
    "CALL",
]


class Return:
    """A scripted outcome that returns ``value`` instead of calling the function.

    >>> Return(None).value is None
    True
    """

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Return({self.value!r})"


class _Call:
    """The scripted outcome 'run the real function' (the default)."""

    def __repr__(self) -> str:
        return "CALL"


CALL = _Call()
"""Outcome marker: run the tool's own function."""

Outcome = BaseException | type[BaseException] | Return | _Call


def _is_failure(outcome: Any) -> bool:
    """Whether a scripted outcome is an exception (instance or class) to raise."""
    return isinstance(outcome, BaseException) or (isinstance(outcome, type) and issubclass(outcome, BaseException))


def fresh_exception(error: BaseException | type[BaseException], default_message: str = "failed") -> BaseException:
    """A new exception to raise for a scripted failure.

    A class is instantiated with ``default_message``; an instance is copied (its
    attributes, such as ``status_code`` and ``retry_after``, are kept), so raising
    the same scripted error many times does not pile tracebacks onto one object.

    >>> err = ConnectionError("down")
    >>> fresh = fresh_exception(err)
    >>> fresh is not err, type(fresh).__name__, str(fresh)
    (True, 'ConnectionError', 'down')
    >>> str(fresh_exception(TimeoutError, "web_search failed"))
    'web_search failed'
    """
    if isinstance(error, type):
        return error(default_message)
    try:
        fresh = copy.copy(error)
    except Exception:  # pragma: no cover - exotic exceptions that cannot be copied
        return error
    return fresh if isinstance(fresh, BaseException) else error


def _raise(outcome: BaseException | type[BaseException], tool_name: str) -> None:
    raise fresh_exception(outcome, say(f"{tool_name} failed", f"{tool_name} falló"))


class MockTool(StructuredTool):
    """A StructuredTool that records its calls and follows a script of outcomes.

    Attributes:
        calls: the arguments of every call that passed schema validation and
            reached the tool (a call rejected by the schema is not recorded: the
            function never ran).
        outcomes: what happens on call 1, 2, 3, ...: an exception (instance or
            class) is raised, :class:`Return` returns its value, ``CALL`` runs
            the function.
        then: what happens on every call after ``outcomes`` runs out.
        latency: seconds each call "takes", passed to ``sleep`` when one is set.
        failure_latency: extra seconds a failing call "takes" before it raises
            (a timeout is slow to fail), passed to ``sleep`` when one is set.
        sleep: an injected sleep (for example a :class:`~toolfaults.clock.RecordingSleep`)
            used to simulate latency; ``None`` means no latency at all.
    """

    calls: list[dict[str, Any]] = Field(default_factory=list)
    outcomes: list[Any] = Field(default_factory=list)
    then: Any = CALL
    latency: float = 0.0
    failure_latency: float = 0.0
    sleep: Callable[[float], Any] | None = None

    @property
    def call_count(self) -> int:
        """How many calls reached the tool."""
        return len(self.calls)

    def reset(self) -> None:
        """Forget the calls, so the script starts again from the first outcome."""
        self.calls.clear()

    def _next_outcome(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        # A single-argument tool invoked with a bare string (``tool.invoke("x")``)
        # gets it positionally: record it under its field name all the same (``self.args``
        # builds a schema, so only then).
        recorded = {**dict(zip(self.args, args)), **kwargs} if args else dict(kwargs)
        index = len(self.calls)
        self.calls.append(recorded)
        outcome = self.outcomes[index] if index < len(self.outcomes) else self.then
        if self.sleep is not None:
            delay = self.latency + (self.failure_latency if _is_failure(outcome) else 0.0)
            if delay:
                self.sleep(delay)
        return outcome

    def _run(
        self,
        *args: Any,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
        **kwargs: Any,
    ) -> Any:
        outcome = self._next_outcome(args, kwargs)
        if isinstance(outcome, Return):
            return outcome.value
        return self._execute(outcome, lambda: StructuredTool._run(
            self, *args, config=config, run_manager=run_manager, **kwargs))

    def _execute(self, outcome: Any, call: Callable[[], Any]) -> Any:
        """Raise a scripted failure, or run the function (``call``)."""
        if _is_failure(outcome):
            _raise(outcome, self.name)
        return call()


class WriteTool(MockTool):
    """A tool with a side effect, marked ``metadata={"side_effects": True}``.

    Its function performs the effect (``effects`` records the arguments of every
    effect that happened). A scripted failure strikes ``fail`` the effect:
    ``"before"`` (nothing happened, safe to repeat) or ``"after"`` (the effect
    happened but the caller only sees the error: an *uncertain write*).
    """

    effects: list[dict[str, Any]] = Field(default_factory=list)
    fail: Literal["before", "after"] = "after"

    @property
    def effect_happened(self) -> bool:
        """Whether the side effect happened at least once."""
        return bool(self.effects)

    def reset(self) -> None:
        super().reset()
        self.effects.clear()

    def _execute(self, outcome: Any, call: Callable[[], Any]) -> Any:
        """A scripted failure strikes before the effect, or after it (the effect happened)."""
        failing = _is_failure(outcome)
        if failing and self.fail == "before":
            _raise(outcome, self.name)
        result = call()
        self.effects.append(dict(self.calls[-1]))  # as recorded (a bare-string input included)
        if failing:
            _raise(outcome, self.name)
        return result


def web_search(query: str) -> str:
    """Search the web for a query and return the top results."""
    return say(f"results for {query!r}", f"resultados para {query!r}")


def send_email(to: str, body: str) -> str:
    """Send an e-mail message to one recipient."""
    return say(f"message sent to {to}", f"mensaje enviado a {to}")


# The descriptions (what the model reads) of toolfaults' own default functions, in Spanish.
_DESCRIPTIONS_ES: dict[Callable[..., Any], str] = {
    web_search: "Busca en la web una consulta y devuelve los mejores resultados.",
    send_email: "Envía un mensaje de correo electrónico a un destinatario.",
}


# Description and argument schema of toolfaults' own functions, by (function, name, description). Building
# a schema makes a pydantic model (milliseconds), and the exercises' tests build hundreds of tools from the
# same few functions. A function defined elsewhere (a learner's) is never cached: it can be redefined.
_SCHEMAS: dict[tuple[Any, str, str | None], tuple[str, Any]] = {}


def _described(func: Callable[..., Any], name: str, description: str | None) -> tuple[str, Any]:
    """The description and argument schema ``@tool`` would give ``func``."""
    key = (func, name, description)
    own = (getattr(func, "__module__", None) or "").partition(".")[0] == __name__.partition(".")[0]
    if own and key in _SCHEMAS:
        return _SCHEMAS[key]
    base = StructuredTool.from_function(func, name=name, description=description)
    if own:
        _SCHEMAS[key] = (base.description, base.args_schema)
    return base.description, base.args_schema


def make_tool(
    func: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    outcomes: Sequence[Outcome] = (),
    then: Outcome = CALL,
    latency: float = 0.0,
    sleep: Callable[[float], Any] | None = None,
    metadata: dict[str, Any] | None = None,
    cls: type[MockTool] = MockTool,
    **fields: Any,
) -> MockTool:
    """Build a :class:`MockTool` from a plain function and a script of outcomes.

    The function's signature and docstring become the tool's argument schema and
    description, exactly as with ``@tool``. Without a function, the tool is a
    web search taking ``query: str``.

    Args:
        func: the function run when the script says ``CALL``.
        name: the tool's name (default: the function's name, or ``"web_search"``).
        description: the tool's description (default: the function's docstring).
        outcomes: the outcome of call 1, 2, 3, ... (see :class:`MockTool`).
        then: the outcome of every later call.
        latency, sleep: simulated latency, see :class:`MockTool`.
        metadata: the tool's metadata (``{"side_effects": True}`` marks a write).
        cls: :class:`MockTool` or a subclass.
        **fields: further fields of ``cls`` (for example ``fail=`` of :class:`WriteTool`).
    """
    func = func or web_search
    if description is None and func in _DESCRIPTIONS_ES and current_language() == "es":
        description = _DESCRIPTIONS_ES[func]
    tool_name = name or func.__name__
    tool_description, args_schema = _described(func, tool_name, description)
    return cls(
        name=tool_name,
        description=tool_description,
        args_schema=args_schema,
        func=func,
        outcomes=list(outcomes),
        then=then,
        latency=latency,
        sleep=sleep,
        metadata=metadata,
        **fields,
    )


def flaky_tool(
    func: Callable[..., Any] | None = None,
    *,
    failures: int = 2,
    error: BaseException | type[BaseException] | None = None,
    **kwargs: Any,
) -> MockTool:
    """A tool that raises ``error`` on its first ``failures`` calls, then works.

    The default error is ``ConnectionError("connection reset by peer")`` (in Spanish,
    "el servidor cortó la conexión").

    >>> tool = flaky_tool(failures=1)
    >>> try:
    ...     tool.invoke({"query": "x"})
    ... except ConnectionError:
    ...     pass
    >>> tool.invoke({"query": "x"})
    "results for 'x'"
    """
    if error is None:
        error = ConnectionError(say("connection reset by peer", "el servidor cortó la conexión"))
    return make_tool(func, outcomes=[error] * failures, **kwargs)


def failing_tool(
    func: Callable[..., Any] | None = None,
    *,
    error: BaseException | type[BaseException] | None = None,
    **kwargs: Any,
) -> MockTool:
    """A tool that raises ``error`` on every call (a permanent fault).

    The default error is ``RuntimeError("internal failure")`` (in Spanish, "fallo interno").
    """
    if error is None:
        error = RuntimeError(say("internal failure", "fallo interno"))
    return make_tool(func, then=error, **kwargs)


def timeout_tool(
    func: Callable[..., Any] | None = None,
    *,
    timeout: float = 5.0,
    failures: int | None = None,
    sleep: Callable[[float], Any] | None = None,
    **kwargs: Any,
) -> MockTool:
    """A tool that times out: raises :class:`TimeoutError` after ``timeout`` seconds.

    The waiting is simulated: with an injected ``sleep`` each timed-out call asks it
    for ``timeout`` seconds; without one it returns at once. ``failures=None``
    times out forever; a number times out that many calls, then works.
    """
    tool_name = kwargs.get("name") or (func.__name__ if func else "web_search")
    error = TimeoutError(say(f"{tool_name} did not answer within {timeout:g} s",
                             f"{tool_name} no respondió en {timeout:g} s"))
    script: dict[str, Any] = {"then": error} if failures is None else {"outcomes": [error] * failures}
    return make_tool(func, **script, sleep=sleep, failure_latency=timeout, **kwargs)


def rate_limited_tool(
    func: Callable[..., Any] | None = None,
    *,
    failures: int | None = 1,
    retry_after: float | None = 2.0,
    **kwargs: Any,
) -> MockTool:
    """A tool that answers HTTP 429 with a ``retry_after`` for ``failures`` calls.

    ``failures=None`` keeps it rate-limited forever.
    """
    tool_name = kwargs.get("name") or (func.__name__ if func else "web_search")
    error = RateLimitError(say(f"{tool_name}: rate limit exceeded", f"{tool_name}: límite de peticiones superado"),
                           retry_after=retry_after)
    script: dict[str, Any] = {"then": error} if failures is None else {"outcomes": [error] * failures}
    return make_tool(func, **script, **kwargs)


def odd_format_tool(value: Any, func: Callable[..., Any] | None = None, **kwargs: Any) -> MockTool:
    """A tool that returns ``value`` (``None``, a dict, bytes, ...) instead of text.

    >>> odd_format_tool({"temp_c": 21}).invoke({"query": "Madrid"})
    {'temp_c': 21}
    """
    return make_tool(func, then=Return(value), **kwargs)


def write_tool(
    func: Callable[..., Any] | None = None,
    *,
    failures: int = 0,
    error: BaseException | type[BaseException] | None = None,
    fail: Literal["before", "after"] = "after",
    **kwargs: Any,
) -> WriteTool:
    """A tool with a side effect (default: ``send_email(to, body)``).

    Its first ``failures`` calls raise ``error`` (default: ``TimeoutError("mail server did
    not confirm within 10 s")``), either ``"before"`` the effect
    (nothing happened) or ``"after"`` it (the e-mail went out, yet the caller sees
    a failure). ``tool.effects`` shows what really happened. The tool carries
    ``metadata={"side_effects": True}``.

    >>> send = write_tool(failures=1)
    >>> try:
    ...     send.invoke({"to": "ana@example.com", "body": "hi"})
    ... except TimeoutError:
    ...     pass
    >>> send.effect_happened
    True
    """
    func = func or send_email
    if error is None:
        error = TimeoutError(say("mail server did not confirm within 10 s",
                                 "el servidor de correo no confirmó el envío en 10 s"))
    metadata = {"side_effects": True, **(kwargs.pop("metadata", None) or {})}
    tool = make_tool(func, outcomes=[error] * failures, metadata=metadata, cls=WriteTool, fail=fail, **kwargs)
    assert isinstance(tool, WriteTool)
    return tool
