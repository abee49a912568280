"""The grader's parses hold one lock: CPython 3.11's AST constructor is not safe in threads (gh-106905)."""

from __future__ import annotations

import ast

import pytest

from autograder import pyast


@pytest.mark.parametrize("call", [lambda: pyast.parse("x = 1"), lambda: pyast.literal_eval("{'a': [1, 2]}")],
                         ids=["parse", "literal_eval"])
def test_each_parse_holds_the_lock(monkeypatch, call):
    held = []
    real = ast.parse

    def watched(*args, **kwargs):
        held.append(pyast._lock.locked())
        return real(*args, **kwargs)

    monkeypatch.setattr(ast, "parse", watched)
    call()
    assert held and all(held), "ast.parse ran without the lock"
    assert not pyast._lock.locked()


def test_errors_are_the_usual_ones_and_release_the_lock():
    with pytest.raises(SyntaxError):
        pyast.parse("def (")
    with pytest.raises(ValueError):
        pyast.literal_eval("os.system('x')")
    assert not pyast._lock.locked()
    assert pyast.literal_eval("{'kind': 'done'}") == {"kind": "done"}
