"""The course's one error policy: each failure, its kind, whether it is retried, its recovery.

Every lesson, every exercise's visible contract, every hidden test and every helper of
this package follows this one table. A lesson shows it with :func:`table`; code asks
:func:`kind_of`, :func:`is_transient` and :func:`recovery_for`; the consistency test
feeds every row's :data:`EXAMPLES` to the lessons' own helpers and fails where they
disagree.

    >>> from toolfaults.errors import api_error
    >>> kind_of(TimeoutError("read timed out")), is_transient(api_error(503))
    ('transient', True)
    >>> kind_of(api_error(501)), recovery_for(kind_of(api_error(501)))
    ('permanent', 'stop_turn')
    >>> kind_of(KeyError("rates")), recovery_for("internal")
    ('internal', 'stop_turn')

A write (a tool with ``metadata={"side_effects": True}``) that ends in a transient or
internal error may have happened: its outcome is uncertain, so it is never retried::

    >>> kind_of(ConnectionError("reset"), write=True), recovery_for("uncertain_write")
    ('uncertain_write', 'stop_turn')

A ``ToolException`` is the tool's own, expected answer ("no such order"): never
retried, and its recovery is the tool's contract when it carries one
(:class:`toolfaults.contract.ToolFailure`), else ``choose_alternative``::

    >>> from langchain_core.tools import ToolException
    >>> kind_of(ToolException("No order 4417.")), recovery_for("expected", ToolException("No order 4417."))
    ('expected', 'choose_alternative')

A tool that turns a failure into its own contract follows one rule, whether the failure
reached it as an HTTP status or as a domain answer (:data:`STATUS_RECOVERY`). *Not found*
(404, "no such order") means this value will not work but another may: ``choose_alternative``,
and the message says where to find one (the nearest dates, another lookup, the number the
user checks) and not to retry this one. *Denied* (401, 403) is final: ``stop_turn``. So
``stop_turn`` is for what no other value can change: a denial, an internal failure, an
uncertain write, a log with no entries at all::

    >>> recovery_for_status(404), recovery_for_status(401), recovery_for_status(403)
    ('choose_alternative', 'stop_turn', 'stop_turn')

What a tool *returns* is never an error: ``None`` and ``""`` are an empty result, a
dict or a list (empty ones too) is JSON text (:func:`result_text`).
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .language import current_language

__all__ = [
    "KINDS", "ROWS", "Row", "TRANSIENT_STATUS", "PERMANENT_STATUS_EXAMPLES", "STATUS_RECOVERY", "EXAMPLES",
    "NO_RESULT", "status_of", "is_transient", "is_transient_status", "is_write", "kind_of", "recovery_for",
    "recovery_for_status", "retried", "result_text", "row", "table",
]

#: Status codes worth retrying: the request may work later as it is.
TRANSIENT_STATUS: frozenset[int] = frozenset({408, 429, 500, 502, 503, 504, 529})
#: Status codes that fail at once (a sample: every status not in :data:`TRANSIENT_STATUS` is permanent).
PERMANENT_STATUS_EXAMPLES: tuple[int, ...] = (400, 401, 403, 404, 409, 422, 501, 505, 507, 511)
#: The recovery of the ``ToolException`` a tool maps these permanent statuses to (and of the same failure met
#: as a domain answer): not found means another value may work; a denial is final.
STATUS_RECOVERY: Mapping[int, str] = MappingProxyType({404: "choose_alternative", 401: "stop_turn", 403: "stop_turn"})

#: The "no result" note a tool's empty output becomes (it is not an error).
NO_RESULT = {"en": "No result: the tool found nothing for these arguments.",
             "es": "Sin resultado: la herramienta no encontró nada con estos argumentos."}


@dataclass(frozen=True)
class Row:
    """One row of the policy: what the calling code sees, and what it does about it."""

    kind: str
    sees: str
    sees_es: str
    retried: str
    retried_es: str
    recovery: str
    then: str
    then_es: str

    @property
    def is_error(self) -> bool:
        """Whether this row's result goes back to the model flagged as an error."""
        return self.kind not in ("empty_result", "result")


ROWS: tuple[Row, ...] = (
    Row("bad_call", "a tool name that does not exist", "un nombre de herramienta que no existe",
        "never", "nunca", "choose_alternative",
        "the message lists the available tools", "el mensaje lista las herramientas disponibles"),
    Row("bad_arguments", "arguments the schema rejects; an invalid_tool_call (unparseable arguments)",
        "argumentos que el schema rechaza; una invalid_tool_call (argumentos ilegibles)",
        "never", "nunca", "correct_arguments",
        "the message names the field(s) and what is allowed", "el mensaje nombra el campo y lo que se admite"),
    Row("expected", "a ToolException raised by the tool: an expected, domain failure "
        "(no such order, access denied, no such file the model asked for)",
        "una ToolException de la herramienta: un fallo esperado del dominio "
        "(no existe el pedido, acceso denegado, no existe el archivo que pidió el modelo)",
        "never", "nunca", "choose_alternative",
        "unless the tool raises its own contract (ToolFailure): then that one's recovery, by the status rule "
        f"below (no such order → {STATUS_RECOVERY[404]}, access denied → {STATUS_RECOVERY[403]})",
        "salvo que la herramienta lance su propio contrato (ToolFailure): entonces, la recuperación de ese, "
        f"con la regla de los estados de abajo (no existe el pedido → {STATUS_RECOVERY[404]}, acceso denegado → "
        f"{STATUS_RECOVERY[403]})"),
    Row("transient", "ConnectionError, TimeoutError, status 408, 429, 500, 502, 503, 504, 529",
        "ConnectionError, TimeoutError, estado 408, 429, 500, 502, 503, 504, 529",
        "yes, in exactly one layer, with capped backoff and jitter; Retry-After honoured",
        "sí, en una sola capa, con backoff con tope y jitter; se respeta Retry-After", "retry_later",
        "after the retries run out", "cuando se acaban los reintentos"),
    Row("permanent", "any other status code (400, 401, 403, 404, 409, 422, 501, 505, 507, 511...)",
        "cualquier otro código de estado (400, 401, 403, 404, 409, 422, 501, 505, 507, 511...)",
        "never", "nunca", "stop_turn",
        f"a tool maps it to a ToolException with its own recovery (404 → {STATUS_RECOVERY[404]}: this value will "
        f"not work, another may, and the message says where to find it; 401/403 → {STATUS_RECOVERY[403]}); one that escapes "
        "the tool is internal",
        f"la herramienta lo convierte en una ToolException con su recuperación (404 → {STATUS_RECOVERY[404]}: este "
        f"valor no funcionará, otro quizá sí, y el mensaje dice dónde encontrarlo; 401/403 → {STATUS_RECOVERY[403]}); si escapa "
        "de la herramienta, es interno"),
    Row("internal", "any other exception escaping the tool (KeyError, FileNotFoundError of the tool's own "
        "files, ZeroDivisionError from unvalidated input...)",
        "cualquier otra excepción que escapa de la herramienta (KeyError, FileNotFoundError de sus propios "
        "archivos, ZeroDivisionError de una entrada sin validar...)",
        "never", "nunca", "stop_turn",
        "the tool failed internally; other argument values will not help; no traceback, path or exception text",
        "la herramienta falló por dentro; otros argumentos no ayudarán; sin traceback, rutas ni texto de la excepción"),
    Row("repeated_failure", "the same tool with the same arguments after two failures",
        "la misma herramienta con los mismos argumentos tras dos fallos",
        "not run again", "no se vuelve a ejecutar", "choose_alternative",
        "the message says not to repeat the call", "el mensaje dice que no se repita la llamada"),
    Row("uncertain_write", "a write (side_effects) that ends in a transient or internal error",
        "una escritura (side_effects) que termina en un error transitorio o interno",
        "never, not even by a retry layer", "nunca, tampoco una capa de reintentos", "stop_turn",
        "the loop stops; the answer says the outcome is unknown and the action was not repeated",
        "el bucle se detiene; la respuesta dice que el resultado es incierto y que no se repitió"),
    Row("empty_result", "None, \"\"", "None, \"\"", "—", "—", "",
        "not an error: a short \"no result\" note, status=\"success\"",
        "no es un error: una nota breve de \"sin resultado\", status=\"success\""),
    Row("result", "a dict or a list (empty ones too)", "un dict o una lista (también vacíos)", "—", "—", "",
        "not an error: JSON text", "no es un error: texto JSON"),
)
KINDS: tuple[str, ...] = tuple(r.kind for r in ROWS)


def row(kind: str) -> Row:
    """The policy's row for ``kind`` (one of :data:`KINDS`)."""
    for r in ROWS:
        if r.kind == kind:
            return r
    raise ValueError(f"unknown kind {kind!r}: one of {', '.join(KINDS)}")


def status_of(error: BaseException) -> int | None:
    """The HTTP status an exception carries (its ``status_code`` attribute), else ``None``."""
    status = getattr(error, "status_code", None)
    if isinstance(status, bool) or not isinstance(status, numbers.Integral):
        return None
    return int(status)


def is_transient_status(status: int) -> bool:
    """Whether a status code is worth retrying (:data:`TRANSIENT_STATUS`)."""
    return status in TRANSIENT_STATUS


def _is_tool_exception(error: BaseException) -> bool:
    from langchain_core.tools import ToolException
    return isinstance(error, ToolException)


def _is_validation_error(error: BaseException) -> bool:
    from pydantic import ValidationError
    return isinstance(error, ValidationError)


def is_transient(error: BaseException) -> bool:
    """Whether a failure may go away if the same call is made again later.

    ``ConnectionError`` and ``TimeoutError`` (and their subclasses), and any exception
    whose ``status_code`` is in :data:`TRANSIENT_STATUS`. A ``ToolException`` is the
    tool's own answer, never transient; nor is any other ``OSError`` (a missing file).
    """
    if _is_tool_exception(error):
        return False
    if isinstance(error, (ConnectionError, TimeoutError)):
        return True
    status = status_of(error)
    return status is not None and is_transient_status(status)


def is_write(tool: Any) -> bool:
    """Whether a tool declares side effects (``metadata={"side_effects": True}``)."""
    metadata = getattr(tool, "metadata", None)
    return isinstance(metadata, Mapping) and bool(metadata.get("side_effects"))


def kind_of(error: BaseException, *, write: bool = False) -> str:
    """The policy's kind for an exception that reached the calling code.

    Args:
        error: what the tool (or the schema) raised.
        write: whether the tool is a write; then a transient or internal failure is an
            ``"uncertain_write"`` (a ``ToolException`` or rejected arguments mean the write
            did not happen).

    Returns:
        ``"bad_arguments"``, ``"expected"``, ``"transient"``, ``"permanent"``, ``"internal"``
        or ``"uncertain_write"``.
    """
    if _is_validation_error(error):
        return "bad_arguments"
    if _is_tool_exception(error):
        return "expected"
    if write:
        return "uncertain_write"
    if is_transient(error):
        return "transient"
    if status_of(error) is not None:
        return "permanent"
    return "internal"


def recovery_for(kind: str, error: BaseException | None = None) -> str:
    """The recovery the model is told for a failure of ``kind``.

    For ``"expected"``, the tool's own contract wins when the exception carries one
    (``error.error.recovery``, as :class:`toolfaults.contract.ToolFailure` does).
    """
    if kind == "expected" and error is not None:
        own = getattr(getattr(error, "error", None), "recovery", None)
        if isinstance(own, str) and own:
            return own
    recovery = row(kind).recovery
    if not recovery:
        raise ValueError(f"{kind!r} is not an error: it has no recovery")
    return recovery


def recovery_for_status(status: int) -> str:
    """The recovery of the ``ToolException`` a tool maps a permanent status to (:data:`STATUS_RECOVERY`).

    A 404 is ``choose_alternative`` even when the other value must come from the user (the message
    then says to ask them); 401 and 403 are ``stop_turn``.

    Raises:
        ValueError: a status the policy gives no mapped recovery (a transient one is retried, not mapped).
    """
    try:
        return STATUS_RECOVERY[status]
    except KeyError:
        raise ValueError(f"the policy maps no recovery for status {status!r}: only "
                         f"{', '.join(map(str, sorted(STATUS_RECOVERY)))}") from None


def retried(kind: str) -> bool:
    """Whether the policy retries a failure of ``kind`` (only transient ones, in one layer)."""
    return kind == "transient"


def result_text(output: Any, language: str | None = None) -> str:
    """What the model reads for a tool's successful output.

    ``None`` and ``""`` become the :data:`NO_RESULT` note; a dict, a list or a tuple
    (empty ones too) JSON text; bytes their UTF-8 text (never ``"b'...'"``); a string
    stays as it is; anything else its ``str()``.

    >>> result_text({"temp": 21}), result_text([]), result_text(None)
    ('{"temp": 21}', '[]', 'No result: the tool found nothing for these arguments.')
    """
    if output is None or output == "":
        return NO_RESULT[language or current_language()]
    if isinstance(output, str):
        return output
    if isinstance(output, (bytes, bytearray)):
        return bytes(output).decode("utf-8", errors="replace")
    if isinstance(output, (Mapping, list, tuple)):
        return json.dumps(output, ensure_ascii=False, default=str)
    return str(output)


def table(language: str | None = None) -> str:
    """The policy as a Markdown table, in ``language`` (default: the notebook's)."""
    es = (language or current_language()) == "es"
    head = ("| lo que ve el código | tipo | ¿se reintenta? | recuperación |" if es
            else "| what the calling code sees | kind | retried? | recovery |")
    lines = [head, "|---|---|---|---|"]
    for r in ROWS:
        recovery = f"`{r.recovery}`; {r.then_es if es else r.then}" if r.recovery else (r.then_es if es else r.then)
        lines.append(f"| {r.sees_es if es else r.sees} | `{r.kind}` | {r.retried_es if es else r.retried} | {recovery} |")
    return "\n".join(lines)


def _examples() -> dict[str, tuple[Any, ...]]:
    from langchain_core.tools import ToolException
    from pydantic import BaseModel, ValidationError

    from .contract import ToolError, ToolFailure
    from .errors import api_error

    class _Args(BaseModel):
        city: str

    try:
        _Args.model_validate({})
    except ValidationError as err:
        invalid = err
    return {
        "bad_arguments": (invalid,),
        "expected": (ToolException("No order 4417 exists."),
                     ToolFailure(ToolError("access_denied", "Access to this folder is denied.", "stop_turn"))),
        "transient": (ConnectionError("connection reset"), TimeoutError("read timed out"),
                      *(api_error(s) for s in sorted(TRANSIENT_STATUS))),
        "permanent": tuple(api_error(s) for s in PERMANENT_STATUS_EXAMPLES),
        "internal": (KeyError("rates"), FileNotFoundError(2, "No such file or directory", "/srv/app/config.yaml"),
                     ValueError("invalid literal for int() with base 10: 'n/a'"), RuntimeError("cache corrupted")),
        "empty_result": (None, ""),
        "result": ({}, [], {"temp_c": 21}, [1, 2]),
    }


class _Examples(Mapping):
    """Concrete failures and outputs for each row, built on first use (for tests and lessons)."""

    _data: dict[str, tuple[Any, ...]] | None = None

    def _get(self) -> dict[str, tuple[Any, ...]]:
        if _Examples._data is None:
            _Examples._data = _examples()
        return _Examples._data

    def __getitem__(self, key: str) -> tuple[Any, ...]:
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


#: ``kind -> examples`` of what the calling code can see for that row (exceptions, or outputs).
EXAMPLES: Mapping[str, tuple[Any, ...]] = _Examples()
