"""The course's error contract: what a failed tool call tells the model.

Every failure the model reads is one :class:`ToolError` with three parts:

- ``code``: a stable, short name your program and your metrics can count on
  (``"not_found"``, ``"invalid_arguments"``);
- ``message``: one or two plain sentences for the model: what failed, what to do;
- ``recovery``: the next step, from one closed set (:data:`RECOVERIES`):

  ``correct_arguments``
      the call can work: fix the arguments and call again;
  ``choose_alternative``
      this call will not work: try another value, tool or source (a not-found:
      the nearest date, another lookup, the number the user checks);
  ``retry_later``
      a temporary failure: the same call may work later;
  ``stop_turn``
      stop here and tell the user (a denial, an internal failure, a write whose
      outcome is unknown).

The recovery is checked when the record is built, so a typo cannot invent a
fifth action::

    >>> err = ToolError("not_found", "No order A-2O481 exists. Do not retry it: search the orders of this "
    ...                 "customer, or ask the user to check the number.", "choose_alternative")
    >>> err.to_json()
    '{"code": "not_found", "message": "No order A-2O481 exists. Do not retry it: search the orders of this customer, or ask the user to check the number.", "recovery": "choose_alternative"}'
    >>> ToolError("timeout", "The service timed out.", "try_harder")
    Traceback (most recent call last):
    ...
    ValueError: recovery must be one of correct_arguments, choose_alternative, retry_later, stop_turn; got 'try_harder'

Text keeps its own characters (``ensure_ascii=False``): the model reads
"devolución", not ``devoluci\\u00f3n``::

    >>> ToolError("refund_denied", "La devolución no está permitida.", "stop_turn").to_json()
    '{"code": "refund_denied", "message": "La devolución no está permitida.", "recovery": "stop_turn"}'

The same record becomes a flagged result in each format, and can be read back
from one, so the decision survives a replay::

    >>> msg = err.to_tool_message("call_1")
    >>> msg.status, ToolError.from_result(msg) == err
    ('error', True)
    >>> err.to_tool_result("toolu_1")["is_error"]
    True

A tool reports a contract by raising :class:`ToolFailure`, a ``ToolException``
that carries the record (so LangChain's ``handle_tool_error`` handles it too).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from langchain_core.messages import ToolMessage
from langchain_core.tools import ToolException

from .language import say

__all__ = ["Recovery", "RECOVERIES", "ToolError", "ToolFailure"]

Recovery = Literal["correct_arguments", "choose_alternative", "retry_later", "stop_turn"]
RECOVERIES: tuple[str, ...] = get_args(Recovery)
"""The closed set of next steps, in the order the course introduces them."""

_CODE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class ToolError:
    """One failed tool call, as the model and the program see it.

    Args:
        code: stable snake_case name of the failure (``"not_found"``).
        message: plain text for the model: what failed and what to do. No
            traceback, no internals.
        recovery: the next step, one of :data:`RECOVERIES`.
        details: optional extra facts for the model (a field, an example).

    Raises:
        ValueError: a code that is not snake_case, an empty message, or a
            recovery outside :data:`RECOVERIES`.
    """

    code: str
    message: str
    recovery: Recovery
    details: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.code, str) or not _CODE.match(self.code):
            raise ValueError(say(f"code must be a short snake_case name such as 'not_found'; got {self.code!r}",
                                 f"code debe ser un nombre corto en snake_case, como 'not_found'; es {self.code!r}"))
        if not isinstance(self.message, str) or not self.message.strip():
            raise ValueError(say("message must be a non-empty text for the model",
                                 "message debe ser un texto no vacío para el modelo"))
        if self.recovery not in RECOVERIES:
            raise ValueError(say(f"recovery must be one of {', '.join(RECOVERIES)}; got {self.recovery!r}",
                                 f"recovery debe ser uno de {', '.join(RECOVERIES)}; es {self.recovery!r}"))

    def to_dict(self) -> dict[str, Any]:
        """``{"code", "message", "recovery"}``, plus ``"details"`` when there are any."""
        out: dict[str, Any] = {"code": self.code, "message": self.message, "recovery": self.recovery}
        if self.details:
            out["details"] = dict(self.details)
        return out

    def to_json(self) -> str:
        """The record as JSON text for the model, non-ASCII characters kept as they are."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def to_tool_message(self, tool_call_id: str, name: str | None = None) -> ToolMessage:
        """A LangChain ``ToolMessage`` with ``status="error"``, the JSON as content and the dict as artifact."""
        return ToolMessage(content=self.to_json(), tool_call_id=tool_call_id, name=name,
                           status="error", artifact=self.to_dict())

    def to_tool_result(self, tool_use_id: str) -> dict[str, Any]:
        """An Anthropic ``tool_result`` block with ``"is_error": true``."""
        return {"type": "tool_result", "tool_use_id": tool_use_id, "content": self.to_json(), "is_error": True}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToolError:
        """Rebuild a record from :meth:`to_dict` output (validated again)."""
        return cls(data["code"], data["message"], data["recovery"], data.get("details"))

    @classmethod
    def from_result(cls, result: ToolMessage | Mapping[str, Any]) -> ToolError | None:
        """The contract of a flagged result (``ToolMessage`` or ``tool_result`` block), else ``None``.

        Only a result flagged as an error has one: the flag, not the text,
        says the call failed. The record is read from the message's artifact,
        else from its JSON content.
        """
        if isinstance(result, ToolMessage):
            if result.status != "error":
                return None
            data: Any = result.artifact if isinstance(result.artifact, Mapping) else result.content
        else:
            if not result.get("is_error"):
                return None
            data = result.get("content")
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                return None
        if not isinstance(data, Mapping) or not {"code", "message", "recovery"} <= data.keys():
            return None
        return cls.from_dict(data)


class ToolFailure(ToolException):
    """Raised inside a tool to report a :class:`ToolError`.

    It is a ``ToolException``, so a tool with ``handle_tool_error=True`` turns it
    into a result carrying the message; a loop that catches it reads ``.error``.

    >>> try:
    ...     raise ToolFailure(ToolError("not_found", "No city 'Atlantis'.", "choose_alternative"))
    ... except ToolException as exc:
    ...     print(exc.error.recovery, "|", exc)
    choose_alternative | No city 'Atlantis'.
    """

    def __init__(self, error: ToolError) -> None:
        super().__init__(error.message)
        self.error = error
