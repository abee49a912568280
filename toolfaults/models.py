"""A chat model that follows a script, for tool-calling loops with no API key.

:class:`ScriptedChatModel` is a real LangChain ``BaseChatModel``: ``invoke``,
``bind_tools`` and message handling work as with a hosted model, but each call
returns the next entry of a script you write. The script decides which tools the
"model" calls, with which arguments, and whether a call itself fails::

    >>> from toolfaults.models import ScriptedChatModel, ai, tool_call
    >>> model = ScriptedChatModel(script=[
    ...     ai(tool_calls=[tool_call("get_weather", {"city": "Madrid"}, id="call_1")]),
    ...     "It is 22 °C and sunny in Madrid.",
    ... ])
    >>> first = model.invoke("Weather in Madrid?")
    >>> first.tool_calls[0]["name"], first.tool_calls[0]["id"]
    ('get_weather', 'call_1')
    >>> model.invoke("...").content
    'It is 22 °C and sunny in Madrid.'

A script entry may be an ``AIMessage``, a string (a plain text answer), an
exception instance or class (raised by the call, as an API failure would be) or a
function of the messages received that returns any of those (a model that reacts
to tool results).
The model records every message list it was called with in ``received``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.caches import BaseCache
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.tool import InvalidToolCall, ToolCall
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field

from .language import say

__all__ = ["ScriptedChatModel", "ScriptExhaustedError", "ai", "tool_call", "invalid_tool_call"]

_ids = itertools.count(1)

ScriptEntry = AIMessage | str | BaseException | Callable[[list[BaseMessage]], "AIMessage | str"]


class ScriptExhaustedError(RuntimeError):
    """The scripted model was called more times than its script has entries."""


def tool_call(name: str, args: dict[str, Any] | None = None, *, id: str | None = None) -> ToolCall:
    """A tool call as a model emits it (``{"type": "tool_call", "name", "args", "id"}``).

    Without ``id`` a fresh one (``call_1``, ``call_2``, ...) is made.
    """
    return ToolCall(name=name, args=dict(args or {}), id=id or f"call_{next(_ids)}", type="tool_call")


def invalid_tool_call(
    name: str | None, args: str, *, id: str | None = None, error: str | None = None
) -> InvalidToolCall:
    """A malformed tool call: ``args`` is the raw text the model produced (not JSON).

    LangChain puts such calls in ``AIMessage.invalid_tool_calls``; they still need
    a tool result.
    """
    return InvalidToolCall(
        name=name,
        args=args,
        id=id or f"call_{next(_ids)}",
        error=error or say("arguments are not valid JSON", "los argumentos no son JSON válido"),
        type="invalid_tool_call",
    )


def ai(
    content: str = "",
    *,
    tool_calls: Sequence[ToolCall] = (),
    invalid_tool_calls: Sequence[InvalidToolCall] = (),
) -> AIMessage:
    """An ``AIMessage`` with text and/or tool calls, for scripts."""
    return AIMessage(content=content, tool_calls=list(tool_calls), invalid_tool_calls=list(invalid_tool_calls))


class ScriptedChatModel(BaseChatModel):
    """A chat model that answers from a script and records what it was sent.

    Attributes:
        script: the entries returned (or raised) by call 1, 2, 3, ...
        received: one list of messages per call, as the model received them.
        bound_tools: the tools given to :meth:`bind_tools`, as OpenAI-style schemas.

    When the script runs out, the next call raises :class:`ScriptExhaustedError`
    with a message saying how many calls the script allowed.
    """

    script: list[Any] = Field(default_factory=list)
    received: list[list[BaseMessage]] = Field(default_factory=list)
    bound_tools: list[dict[str, Any]] = Field(default_factory=list)
    cache: BaseCache | bool | None = False
    """Never answer from a global LLM cache: every call must consume the script."""

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    def __repr_args__(self) -> Any:
        # Short: LangChain puts repr(model) into the trace of a model's first call
        # (BaseChatModel._serialized), and the script's messages in full made that cost milliseconds.
        yield "script", f"{len(self.script)} entries"
        yield "calls", len(self.received)
        if self.bound_tools:
            yield "tools", self.bound_tool_names

    @property
    def calls(self) -> int:
        """How many times the model was called (failed calls included)."""
        return len(self.received)

    @property
    def remaining(self) -> int:
        """How many script entries are still unused."""
        return max(0, len(self.script) - len(self.received))

    def bind_tools(self, tools: Sequence[Any], *, tool_choice: str | None = None, **kwargs: Any) -> ScriptedChatModel:
        """Record the tools' schemas and return this same model.

        The script and the record of calls are shared: binding does not start a
        new conversation. Each tool must be convertible to a tool schema.
        """
        self.bound_tools = [convert_to_openai_tool(t) for t in tools]
        return self

    @property
    def bound_tool_names(self) -> list[str]:
        """Names of the tools bound with :meth:`bind_tools`."""
        return [t["function"]["name"] for t in self.bound_tools]

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        index = len(self.received)
        self.received.append(list(messages))
        if index >= len(self.script):
            raise ScriptExhaustedError(say(
                f"ScriptedChatModel was called {index + 1} times but its script has only "
                f"{len(self.script)} response(s). The loop asked the model once more than the "
                "scenario expected: check its stop condition (an answer without tool calls, "
                "or the iteration limit).",
                f"ScriptedChatModel recibió {index + 1} llamadas, pero su guion solo tiene "
                f"{len(self.script)} respuesta(s). El bucle llamó al modelo una vez más de lo que "
                "preveía el escenario: revisa su condición de parada (una respuesta sin llamadas a herramientas "
                "o el límite de iteraciones).",
            ))
        entry = self.script[index]
        if callable(entry) and not isinstance(entry, (AIMessage, BaseException, type)):
            entry = entry(list(messages))
        if isinstance(entry, type) and issubclass(entry, BaseException):
            raise entry(say(f"scripted failure of model call {index + 1}",
                            f"fallo programado en la llamada {index + 1} al modelo"))
        if isinstance(entry, BaseException):
            raise entry
        if isinstance(entry, str):
            message = AIMessage(content=entry)
        elif isinstance(entry, AIMessage):
            message = entry.model_copy(deep=True)
        else:
            raise TypeError(say(
                f"script entry {index} is {type(entry).__name__}, not an AIMessage, str, exception "
                "or a function of the messages returning one of those",
                f"la entrada {index} del guion es un {type(entry).__name__}, no un AIMessage, un str, una "
                "excepción ni una función de los mensajes que devuelva uno de ellos",
            ))
        return ChatResult(generations=[ChatGeneration(message=message)])
