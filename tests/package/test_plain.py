"""toolfaults.plain: what an answer returns is checked for plain values before a test compares it."""

from __future__ import annotations

import pytest

from toolfaults.clock import RecordingSleep
from toolfaults.language import use_language
from toolfaults.plain import plain, same_class
from toolfaults.tools import flaky_tool


class Yes(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class Anything:
    def __eq__(self, other):
        return True


class Text(str):
    def __contains__(self, item):
        return True


@pytest.mark.parametrize("answer", [
    {"success": True, "result": "ok", "attempts": 1, "elapsed_ms": 0.5},
    {"ok": False, "source": None, "failed": ["a", "b"], "result": None},
    {"nested": {"log": [{"tool": "t", "args": {"x": 1}, "ok": True}], "pair": (1, 2.0)}, "raw": b"x"},
])
def test_plain_answers_come_back_equal_and_of_exact_types(answer):
    copy = plain(answer, "the answer")
    assert copy == answer

    def types(value):
        yield type(value)
        if isinstance(value, dict):
            for k, v in value.items():
                yield from types(k)
                yield from types(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from types(v)

    assert set(types(copy)) <= {dict, list, tuple, bool, int, float, str, bytes, type(None)}


def test_a_subclass_becomes_the_plain_value_it_holds_and_compares_honestly():
    from collections import OrderedDict
    from enum import IntEnum

    class Code(IntEnum):
        BUSY = 503

    class Lying(dict):
        def __getitem__(self, key):
            return True

    copy = plain(Lying(success=False, attempts=Yes(1), result=Text("x"), codes=[Code.BUSY],
                       order=OrderedDict(a=1)), "the answer")
    assert copy == {"success": False, "attempts": 1, "result": "x", "codes": [503], "order": {"a": 1}}
    assert copy["success"] is False and copy["attempts"] != 3 and "y" not in copy["result"]
    assert [type(v) for v in (copy, copy["attempts"], copy["result"], copy["codes"][0], copy["order"])] == \
        [dict, int, str, int, dict]


@pytest.mark.parametrize(("answer", "named"), [
    ({"log": [{"ok": Anything()}]}, "the answer['log'][0]['ok'] has the type Anything"),
    ({"result": object()}, "the answer['result'] has the type object"),
])
def test_objects_of_their_own_class_are_refused(answer, named):
    with pytest.raises(AssertionError) as caught:
        plain(answer, "the answer")
    assert named in str(caught.value)


def test_a_structure_that_holds_itself_is_refused_not_a_crash():
    loop = []
    loop.append(loop)
    with pytest.raises(AssertionError, match="nested more than 50 levels deep"):
        plain({"log": loop}, "the answer")


def test_the_message_follows_the_course_language():
    use_language("es")
    try:
        with pytest.raises(AssertionError, match="es de tipo Anything: devuelve valores simples"):
            plain({"attempts": Anything()}, "la respuesta")
    finally:
        use_language("en")


def test_a_swapped_class_is_refused_and_the_same_class_passes():
    tool, sleep = flaky_tool(failures=1), RecordingSleep()
    same_class(tool, type(tool), "the tool")
    sleep.__class__ = type("Liar", (RecordingSleep,), {"calls": property(lambda self: 0)})
    with pytest.raises(AssertionError, match=r"changed the class of the sleep function .*RecordingSleep became Liar"):
        same_class(sleep, RecordingSleep, "the sleep function")
