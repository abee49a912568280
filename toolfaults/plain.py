"""Is an answer made of plain values? A check the exercises' tests run on what an answer returns.

A test compares what a learner's function returns with ``==``, ``is`` and ``isinstance``.
An object can answer those questions itself: a subclass of ``int`` whose ``__eq__``
always says ``True`` equals every number a test expects, and a ``str`` subclass contains
every text. The contracts of the graded functions ask for plain values (a ``dict`` of
``bool``, ``int``, ``float``, ``str``, ``None``, lists and dicts of those, or the tool's
own output, itself plain in every test), so a test first checks that the answer is made of exactly those types and
works on a plain copy::

    from toolfaults.plain import plain

    outcome = plain(resilient_invoke(tool, args), "resilient_invoke's answer")

The same goes for the test's own objects: an answer must not swap the class of the mock
tool or of the recording ``sleep`` it was handed (:func:`same_class`).

>>> plain({"success": True, "attempts": 2, "result": ["a", 1.5, None]}, "the answer")
{'success': True, 'attempts': 2, 'result': ['a', 1.5, None]}
>>> class Yes(int):
...     def __eq__(self, other):
...         return True
>>> plain({"attempts": Yes(1)}, "the answer")
Traceback (most recent call last):
...
AssertionError: the answer['attempts'] has the type Yes, not plain int: return plain values (bool, int, float, str, None, lists and dicts of them).
"""

from __future__ import annotations

from typing import Any

from .language import current_language

_SCALARS = (bool, int, float, str, bytes, type(None))
_MESSAGE = {
    "en": ("{where} has the type {kind}, not plain {base}: return plain values (bool, int, float, str, None, "
           "lists and dicts of them)."),
    "es": ("{where} es de tipo {kind}, no {base} simple: devuelve valores simples (bool, int, float, str, None, "
           "listas y dicts de ellos)."),
}
_CLASS = {
    "en": "The answer changed the class of {what} it was given ({was} became {now}): leave the test's objects as they are.",
    "es": "La respuesta cambió la clase de {what} que recibió ({was} pasó a ser {now}): deja los objetos del test como están.",
}


def _say(table: dict[str, str], **values: str) -> str:
    return table.get(current_language(), table["en"]).format(**values)


def plain(value: Any, where: str, _depth: int = 0) -> Any:
    """A copy of ``value`` built from exact built-in types, or ``AssertionError`` naming the first odd value.

    Args:
        value: what the answer returned (or one part of it).
        where: how to name it in the message ("resilient_invoke's answer").

    Returns:
        The same data as fresh ``dict``/``list``/``tuple`` objects holding ``bool``/``int``/``float``/``str``/
        ``bytes``/``None``, so the test's comparisons are Python's own. Any other object (a subclass, an
        object of its own class) is refused: it could answer the test's comparisons itself.
    """
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return {plain(k, f"a key of {where}", _depth + 1): plain(v, f"{where}[{k!r}]", _depth + 1)
                for k, v in dict.items(value)}
    if kind in (list, tuple):
        return kind(plain(v, f"{where}[{i}]", _depth + 1) for i, v in enumerate(value))
    base = next((b.__name__ for b in (bool, int, float, str, bytes, dict, list, tuple) if isinstance(value, b)),
                "data")
    raise AssertionError(_say(_MESSAGE, where=where, kind=kind.__name__, base=base))


def same_class(obj: Any, was: type, what: str) -> None:
    """``AssertionError`` when the answer changed the class of a test's object (``tool.__class__ = ...``).

    Args:
        obj: the test's object, after the answer ran.
        was: its class before.
        what: how to name it ("the tool", "the sleep function").
    """
    now = type(obj)
    if now is not was:
        raise AssertionError(_say(_CLASS, what=what, was=was.__name__, now=now.__name__))
