"""Parsing Python source in the grader, safely from several threads.

CPython 3.11 keeps the AST constructor's recursion depth in shared state, so two threads
that parse at the same time can fail with ``SystemError: AST constructor recursion depth
mismatch`` (python/cpython#106905). The grader parses in threads (the cross-checks of a
batch run in a thread pool), so every ``ast.parse`` and ``ast.literal_eval`` it makes goes
through this module's lock. The errors a parse can raise (``SyntaxError``, ``ValueError``...)
are unchanged.
"""

from __future__ import annotations

import ast
import threading
from typing import Any

_lock = threading.Lock()


def parse(source: str, mode: str = "exec") -> ast.AST:
    """``ast.parse(source, mode=mode)``, one thread at a time."""
    with _lock:
        return ast.parse(source, mode=mode)


def literal_eval(text: str) -> Any:
    """``ast.literal_eval(text)``, one thread at a time."""
    with _lock:
        return ast.literal_eval(text)
