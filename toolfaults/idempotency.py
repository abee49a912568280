"""A write tool that de-duplicates on an idempotency key, so a retry of an uncertain write is safe.

A write that fails with a timeout may have happened: the charge went through, only
the confirmation was lost. Retrying it blindly charges twice. A service that takes an
**idempotency key** keeps a durable record of each key it has seen; a second request
with the same key gets the first request's result and does nothing new. The caller
makes one key per operation and sends it on every retry of that operation::

    >>> from toolfaults.idempotency import idempotent_write_tool
    >>> charge = idempotent_write_tool(failures=1)          # the 1st call charges, then times out
    >>> args = {"customer_id": "cus_42", "amount_eur": 30.0, "idempotency_key": "op-1"}
    >>> try:
    ...     charge.invoke(args)
    ... except TimeoutError as err:
    ...     print("failed:", err)
    failed: payment service did not confirm within 10 s
    >>> charge.invoke(args)                                 # the retry, same key
    'charged 30.00 EUR to cus_42 (payment op-1)'
    >>> len(charge.effects), charge.call_count              # two calls, one charge
    (1, 2)

A *new* key is a new operation, so it charges again; that is what a retry that
makes up a fresh key each time does::

    >>> _ = charge.invoke({**args, "idempotency_key": "op-2"})
    >>> len(charge.effects)
    2

Whether a tool takes a key is read from its argument schema: a tool without one
cannot be retried safely after an uncertain failure, and the caller must stop::

    >>> from toolfaults.tools import write_tool
    >>> takes_idempotency_key(charge), takes_idempotency_key(write_tool())
    (True, False)
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Literal

from langchain_core.tools import BaseTool
from pydantic import Field

from .language import current_language, say
from .tools import WriteTool, _is_failure, _raise, make_tool

__all__ = ["KEY_FIELD", "IdempotentWriteTool", "idempotent_write_tool", "takes_idempotency_key", "charge_card"]

KEY_FIELD = "idempotency_key"
"""The argument that carries the key, unless a tool names another one."""


class IdempotentWriteTool(WriteTool):
    """A :class:`~toolfaults.tools.WriteTool` whose service remembers every idempotency key.

    The first call with a key performs the effect and stores its result under the
    key (``results``, the service's durable record). Any later call with the same
    key returns that stored result and performs no effect. Scripted failures strike
    ``fail`` the effect as in ``WriteTool``: ``"before"`` (the request never
    arrived, nothing is stored) or ``"after"`` (the effect happened and was stored;
    only the answer was lost).

    Attributes:
        key_field: the argument holding the key (default ``"idempotency_key"``).
        results: key -> the result of the effect done for it.
    """

    key_field: str = KEY_FIELD
    results: dict[str, Any] = Field(default_factory=dict)

    def reset(self) -> None:
        super().reset()
        self.results.clear()

    def _execute(self, outcome: Any, call: Callable[[], Any]) -> Any:
        """Fail before, or replay a known key, or perform and record the effect; then maybe fail after."""
        failing = _is_failure(outcome)
        if failing and self.fail == "before":
            _raise(outcome, self.name)
        key = self.calls[-1].get(self.key_field)
        if key in self.results:
            result = self.results[key]          # a repeat of a known operation: no new effect
        else:
            result = call()
            self.effects.append(dict(self.calls[-1]))
            self.results[key] = result
        if failing:
            _raise(outcome, self.name)
        return result


def charge_card(customer_id: str, amount_eur: float, idempotency_key: str) -> str:
    """Charge a customer's card. Send the same idempotency_key on every retry of one charge."""
    return say(f"charged {amount_eur:.2f} EUR to {customer_id} (payment {idempotency_key})",
               f"cobrados {amount_eur:.2f} EUR a {customer_id} (pago {idempotency_key})")


def idempotent_write_tool(
    func: Callable[..., Any] | None = None,
    *,
    failures: int = 0,
    error: BaseException | type[BaseException] | None = None,
    fail: Literal["before", "after"] = "after",
    key_field: str = KEY_FIELD,
    **kwargs: Any,
) -> IdempotentWriteTool:
    """A write tool (default: :func:`charge_card`) that de-duplicates on ``key_field``.

    Its first ``failures`` calls raise ``error`` (default: ``TimeoutError("payment service did
    not confirm within 10 s")``), ``"before"`` or ``"after"`` the
    effect. It carries ``metadata={"side_effects": True}``; ``tool.effects`` shows
    what really happened, once per key.

    Raises:
        ValueError: ``func`` has no parameter named ``key_field``.
    """
    func = func or charge_card
    if error is None:
        error = TimeoutError(say("payment service did not confirm within 10 s",
                                 "el servicio de pagos no confirmó el cobro en 10 s"))
    if func is charge_card and current_language() == "es":
        kwargs.setdefault("description", "Cobra en la tarjeta de un cliente. Envía la misma idempotency_key "
                                         "en cada reintento de un mismo cobro.")
    if key_field not in inspect.signature(func).parameters:
        raise ValueError(say(f"{func.__name__} takes no {key_field!r} argument: an idempotent write needs one",
                             f"{func.__name__} no tiene argumento {key_field!r}: una escritura idempotente lo necesita"))
    metadata = {"side_effects": True, **(kwargs.pop("metadata", None) or {})}
    tool = make_tool(func, outcomes=[error] * failures, metadata=metadata, cls=IdempotentWriteTool,
                     fail=fail, key_field=key_field, **kwargs)
    assert isinstance(tool, IdempotentWriteTool)
    return tool


def takes_idempotency_key(tool: BaseTool, key_field: str = KEY_FIELD) -> bool:
    """Whether the tool's argument schema has ``key_field``: only then is a retry of a write safe."""
    return key_field in tool.args
