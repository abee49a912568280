"""Every example in the package's docstrings runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "toolfaults.errors",
    "toolfaults.clock",
    "toolfaults.tools",
    "toolfaults.models",
    "toolfaults.catalog",
    "toolfaults.anthropic_offline",
    "toolfaults.live",
    "toolfaults.standin",
    "toolfaults.contract",
    "toolfaults.plain",
    "toolfaults.policy",
]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests_pass(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} doctest example(s) in {name} failed (see the output above)"
    assert result.attempted > 0, f"{name} has no doctest examples"
