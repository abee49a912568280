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


@pytest.mark.parametrize(("answer", "named"), [
    ({"attempts": Yes(1)}, "the answer['attempts'] has the type Yes, not plain int"),
    ({"result": Text("x")}, "the answer['result'] has the type Text, not plain str"),
    ({"log": [{"ok": Anything()}]}, "the answer['log'][0]['ok'] has the type Anything, not plain data"),
    (type("D", (dict,), {})(a=1), "the answer has the type D, not plain dict"),
])
def test_values_that_could_answer_a_comparison_themselves_are_refused(answer, named):
    with pytest.raises(AssertionError) as caught:
        plain(answer, "the answer")
    assert named in str(caught.value)


def test_the_message_follows_the_course_language():
    use_language("es")
    try:
        with pytest.raises(AssertionError, match="es de tipo Yes, no int simple: devuelve valores simples"):
            plain({"attempts": Yes(1)}, "la respuesta")
    finally:
        use_language("en")


def test_a_swapped_class_is_refused_and_the_same_class_passes():
    tool, sleep = flaky_tool(failures=1), RecordingSleep()
    same_class(tool, type(tool), "the tool")
    sleep.__class__ = type("Liar", (RecordingSleep,), {"calls": property(lambda self: 0)})
    with pytest.raises(AssertionError, match=r"changed the class of the sleep function .*RecordingSleep became Liar"):
        same_class(sleep, RecordingSleep, "the sleep function")
