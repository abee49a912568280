"""Catch a submission that tampers with the course's helper package.

A learner's notebook runs in the same kernel as the tests, so it could make the
tests pass without a correct answer by patching what the tests rely on::

    RecordingSleep.__call__ = lambda self, seconds: None     # sleeps are not recorded
    MockTool._run = lambda self, *a, **k: "ok"               # tools never fail
    toolfaults.tools.flaky_tool = lambda *a, **k: working    # "flaky" tools that work
    sys.modules["toolfaults.clock"] = my_fake_module

The grader injects a check at the start and at the end of every test cell
(:func:`wrap_test`). The check compiles the helper package's source files from
disk and compares every function and method that the live modules hold with the
code compiled from those files: anything replaced, added by the notebook or
removed makes the check raise an ``AssertionError`` whose message starts with
:data:`TAMPERED`, so the test fails and the engine marks the submission
"needs attention". It also covers LangChain's ``BaseTool`` / ``StructuredTool``,
which the mocked tools inherit from.

This is a guard against patching in the kernel, not a sandbox: a determined
learner could also patch the checker's own tools (``compile``, ``open``); the
kernel sandbox is a separate layer.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

TAMPERED = "The course's helper package was modified by the submission"
BEGIN = "# >>> autograder: helper package check (added by the grader) >>>"
END = "# <<< autograder: helper package check <<<"

# Modules whose functions and classes the tests rely on, besides every toolfaults.* module.
EXTRA_MODULES = ("langchain_core.tools.base", "langchain_core.tools.structured")

# The checker, run in the kernel. It only uses the standard library and reads the
# modules' own files; everything it needs is passed as literals.
CHECKER = r'''
def __autograder_check(packages, extra_modules, generated_roots, tampered):
    import ast, os, sys, types

    def real(path):
        return os.path.realpath(path) if path else ""

    def functions(value):
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            return [f for f in (value.fget, value.fset, value.fdel) if isinstance(f, types.FunctionType)]
        return chain(value)[:1] if chain(value) else []

    def chain(value):
        seen = []
        for _ in range(8):
            if value is None or any(value is s for s in seen):
                break
            seen.append(value)
            value = getattr(value, "__wrapped__", None)
        return [f for f in seen if isinstance(f, types.FunctionType)]

    def matches(func, qualname, codes):
        return any(f.__code__ == c for f in chain(func) for c in codes.get(qualname, ()))

    def generated(func):
        path = real(func.__code__.co_filename)
        return any(path.startswith(root + os.sep) for root in generated_roots)

    found = []
    watched = [n for n in list(sys.modules) if n.split(".")[0] in packages or n in extra_modules]
    for name in sorted(watched):
        module = sys.modules.get(name)
        if module is None:
            continue
        root = packages.get(name.split(".")[0])
        path = real(getattr(module, "__file__", None))
        parts = name.split(".")[1:]
        if root is not None:
            expected = [os.path.join(root, *parts) + ".py", os.path.join(root, *parts, "__init__.py")]
            if not isinstance(module, types.ModuleType) or path not in expected:
                found.append(f"sys.modules[{name!r}] was replaced")
                continue
        elif not isinstance(module, types.ModuleType) or not path.endswith(os.path.join(*name.split(".")) + ".py"):
            found.append(f"sys.modules[{name!r}] was replaced")
            continue
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
        tree = ast.parse(source)
        codes = {}
        stack = [compile(source, path, "exec")]
        while stack:
            code = stack.pop()
            codes.setdefault(code.co_qualname, []).append(code)
            stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
        attrs = vars(module)
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                value = attrs.get(node.name)
                if chain(value):
                    ok = matches(value, node.name, codes)
                else:  # a decorator turned it into something else: its type must come from a library
                    ok = bool(node.decorator_list) and value is not None and not isinstance(value, type) \
                        and type(value).__module__.split(".")[0] not in ("__main__", "builtins")
                if not ok:
                    found.append(f"{name}.{node.name} was replaced")
            elif isinstance(node, ast.ClassDef):
                cls = attrs.get(node.name)
                if not isinstance(cls, type) or cls.__module__ != name or cls.__qualname__ != node.name:
                    found.append(f"{name}.{node.name} was replaced")
                    continue
                defined = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
                members = vars(cls)
                for method in sorted(defined):
                    if method not in members:
                        found.append(f"{name}.{node.name}.{method} was removed")
                for key, value in list(members.items()):
                    for func in functions(value):
                        if key in defined:
                            ok = matches(func, f"{node.name}.{key}", codes) or matches(func, func.__code__.co_qualname, codes)
                        else:
                            ok = generated(func) or matches(func, func.__code__.co_qualname, codes)
                        if not ok:
                            found.append(f"{name}.{node.name}.{key} was replaced")
    if found:
        shown = "; ".join(found[:4]) + (f" (and {len(found) - 4} more)" if len(found) > 4 else "")
        raise AssertionError(f"{tampered}: {shown}. The tests run against the original package, "
                             "so this test cannot pass; ask your instructor if you did not mean to change it.")
'''


def _package_root(name: str) -> str:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"{name} is not an installed package")
    return os.path.realpath(list(spec.submodule_search_locations)[0])


def check_code(packages: tuple[str, ...] = ("toolfaults",)) -> str:
    """The code the grader runs in the kernel to check the helper package."""
    roots = {name: _package_root(name) for name in packages}
    generated = sorted({_package_root("pydantic")})
    call = (f"__autograder_check({roots!r}, {EXTRA_MODULES!r}, {generated!r}, {TAMPERED!r})\n"
            "del __autograder_check")
    return f"{BEGIN}\n{CHECKER.strip()}\n{call}\n{END}"


def wrap_test(source: str, check: str) -> str:
    """A test cell's source with the check run before and after the test itself."""
    return f"{check}\n{source.rstrip()}\n{check}"


def unwrap_test(source: str) -> str:
    """The test cell's own source, without the injected checks."""
    lines = source.split("\n")
    kept: list[str] = []
    inside = False
    for line in lines:
        if line == BEGIN:
            inside = True
        elif line == END:
            inside = False
        elif not inside:
            kept.append(line)
    return "\n".join(kept).strip("\n")


def check_in_process(packages: tuple[str, ...] = ("toolfaults",)) -> None:
    """Run the check in this process (raises ``AssertionError`` when something was modified)."""
    namespace: dict = {}
    exec(compile(check_code(packages), str(Path(__file__)), "exec"), namespace)  # noqa: S102 - our own code
