"""Is an answer made of plain values? A check the exercises' tests run on what an answer returns.

A test compares what a learner's function returns with ``==``, ``is`` and ``in``. An
object can answer those questions itself: a subclass of ``int`` whose ``__eq__`` always
says ``True`` equals every number a test expects, and a ``str`` subclass "contains" every
text. The contracts of the graded functions ask for plain values (a ``dict`` of ``bool``,
``int``, ``float``, ``str``, ``None``, lists and dicts of those, or the tool's own output,
itself plain in every test), so a test works on a plain copy of the answer::

    from toolfaults.plain import plain

    outcome = plain(resilient_invoke(tool, args), "resilient_invoke's answer")

The copy holds the values the answer really holds, read with the built-in types' own
methods: an ``OrderedDict`` or an ``IntEnum`` member becomes the ``dict`` or ``int`` it
is, and a subclass that lies in its ``__eq__`` becomes the plain value it wraps, which
compares honestly. An object of another class is refused with a message that says so.

The same goes for the test's own objects: an answer must not swap the class of the mock
tool or of the recording ``sleep`` it was handed (:func:`same_class`).

>>> plain({"success": True, "attempts": 2, "result": ["a", 1.5, None]}, "the answer")
{'success': True, 'attempts': 2, 'result': ['a', 1.5, None]}
>>> class Yes(int):
...     def __eq__(self, other):
...         return True
>>> plain({"attempts": Yes(1)}, "the answer")["attempts"] == 3
False
>>> class Anything:
...     def __eq__(self, other):
...         return True
>>> plain({"attempts": Anything()}, "the answer")
Traceback (most recent call last):
...
AssertionError: the answer['attempts'] has the type Anything: return plain values (bool, int, float, str, None, lists and dicts of them).
"""

from __future__ import annotations

from typing import Any

from .language import current_language

_MESSAGE = {
    "en": "{where} has the type {kind}: return plain values (bool, int, float, str, None, lists and dicts of them).",
    "es": ("{where} es de tipo {kind}: devuelve valores simples (bool, int, float, str, None, listas y dicts "
           "de ellos)."),
}
_CLASS = {
    "en": "The answer changed the class of {what} it was given ({was} became {now}): leave the test's objects as they are.",
    "es": "La respuesta cambió la clase de {what} que recibió ({was} pasó a ser {now}): deja los objetos del test como están.",
}
# How to read the value a built-in type holds without asking the object (its methods may be overridden).
_READ = ((bool, bool), (int, int.__int__), (float, float.__float__), (str, str.__str__),
         (bytes, lambda b: bytes.__getitem__(b, slice(None))))


def _say(table: dict[str, str], **values: str) -> str:
    return table.get(current_language(), table["en"]).format(**values)


def plain(value: Any, where: str) -> Any:
    """A copy of ``value`` built from exact built-in types, or ``AssertionError`` naming the first odd value.

    Args:
        value: what the answer returned (or one part of it).
        where: how to name it in the message ("resilient_invoke's answer").

    Returns:
        The same data as fresh ``dict``/``list``/``tuple`` objects holding exact ``bool``/``int``/``float``/
        ``str``/``bytes``/``None``, read with the built-in types' own methods, so the test's comparisons
        are Python's own.
    """
    return _copy(value, where, 0)


def _copy(value: Any, where: str, depth: int) -> Any:
    if depth > 50:
        raise AssertionError(_say(_MESSAGE, where=where, kind="nested more than 50 levels deep"))
    if value is None or type(value) is bool:
        return value
    for base, read in _READ:
        if isinstance(value, base):
            return read(value)
    if isinstance(value, dict):
        copy = {}
        for k, v in dict.items(value):
            key = _copy(k, f"a key of {where}", depth + 1)
            copy[key] = _copy(v, f"{where}[{key!r}]", depth + 1)
        return copy
    for base in (list, tuple):
        if isinstance(value, base):
            return base(_copy(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(base.__iter__(value)))
    raise AssertionError(_say(_MESSAGE, where=where, kind=type(value).__name__))


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
