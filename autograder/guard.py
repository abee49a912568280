"""Catch a submission that tampers with the course's helper package.

A learner's notebook runs in the same kernel as the tests, so it could make the
tests pass without a correct answer by patching what the tests rely on::

    RecordingSleep.__call__ = lambda self, seconds: None     # sleeps are not recorded
    MockTool._run = lambda self, *a, **k: "ok"               # tools never fail
    toolfaults.tools.flaky_tool = lambda *a, **k: working    # "flaky" tools that work
    sys.modules["toolfaults.clock"] = my_fake_module

The grader injects a check at the start and at the end of every test cell
(:func:`wrap_test`). The grader compiles the helper package's source files (and
LangChain's ``BaseTool`` / ``StructuredTool``, which the mocked tools inherit from)
and passes, as a literal, a fingerprint of every function and method they define.
In the kernel, the check fingerprints what the live modules hold: anything
replaced, added by the notebook, or removed makes it raise an ``AssertionError``
whose message starts with :data:`TAMPERED`, so the test fails and the engine
marks the submission "needs attention". Fingerprints are computed from the files
on disk when the notebook is graded, so a package edited between two gradings is
not mistaken for tampering; nor is one edited during a grading run: a warm kernel process
that imported an older version is not used again (:func:`package_stamp`).

The check travels as one string literal run by ``exec`` in a namespace of its own
(nothing it defines is left in the notebook). IPython tokenizes and compiles every
line of a cell before it runs it; as ~150 lines of code twice per test cell, that cost
about 30 ms of kernel time per test cell (0.4 s for a notebook of 14 tests); as one
literal, what the check itself costs (about 7 ms a run, twice a test cell: 50 runs
measured on the course's Python), plus what IPython does with a line of 31,000
characters, such as naming the cell by a hash of its source (a forked grading kernel
computes it in C, :func:`autograder.inside.kernels.cell_name_hash`, which says what it saves).

This is a guard against patching in the kernel, not a sandbox: a determined
learner could also patch the checker's own tools (``hashlib``, ``exec``, other
builtins); the clean-room re-run (:mod:`autograder.cleanroom`) puts those back and
says so, and the kernel sandbox (:mod:`autograder.sandbox`) is a separate layer.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import pyast

TAMPERED = "The course's helper package is not as the grader installed it"
BEGIN = "# >>> autograder: helper package check (added by the grader) >>>"
END = "# <<< autograder: helper package check <<<"

PACKAGES = ("toolfaults",)
# Modules whose classes the mocked tools inherit from, besides every toolfaults.* module.
EXTRA_MODULES = ("langchain_core.tools.base", "langchain_core.tools.structured")

# The fingerprint of a code object: the same function runs in the grader (on code
# compiled from the files) and in the kernel (on the live functions).
FINGERPRINT = r'''
def __autograder_fingerprint(code):
    import hashlib, types
    digest = hashlib.blake2b(digest_size=8)

    def canon(value):
        if isinstance(value, types.CodeType):
            feed(value)
            return "<code>"
        if isinstance(value, (frozenset, set)):
            return "{" + ",".join(sorted(canon(v) for v in value)) + "}"
        if isinstance(value, tuple):
            return "(" + ",".join(canon(v) for v in value) + ")"
        return repr(value)

    def feed(c):
        digest.update(c.co_qualname.encode())
        digest.update(c.co_code)
        digest.update(repr((c.co_names, c.co_varnames, c.co_freevars, c.co_argcount, c.co_kwonlyargcount)).encode())
        digest.update(canon(c.co_consts).encode())

    feed(code)
    return digest.hexdigest()
'''

# The check, run in the kernel. Everything it needs is passed as literals.
CHECKER = r'''
def __autograder_check(expected, packages, generated_roots, tampered, fingerprint):
    import json, os, sys, types

    expected = json.loads(expected)

    def real(path):
        return os.path.realpath(path) if path else ""

    def chain(value):
        seen = []
        for _ in range(8):
            if value is None or any(value is s for s in seen):
                break
            seen.append(value)
            value = getattr(value, "__wrapped__", None)
        return [f for f in seen if isinstance(f, types.FunctionType)]

    def functions(value):
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            return [f for f in (value.fget, value.fset, value.fdel) if isinstance(f, types.FunctionType)]
        return chain(value)[:1]

    def matches(func, qualname, codes):
        return any(fingerprint(f.__code__) in codes.get(qualname, ()) for f in chain(func))

    def generated(func):
        path = real(func.__code__.co_filename)
        return any(path.startswith(root + os.sep) for root in generated_roots)

    found = []
    watched = [n for n in list(sys.modules) if n.split(".")[0] in packages or n in expected]
    for name in sorted(watched):
        try:
            module = sys.modules.get(name)
            if module is None:
                continue
            info = expected.get(name)
            if info is None or not isinstance(module, types.ModuleType) or real(getattr(module, "__file__", None)) != info["file"]:
                found.append(f"sys.modules[{name!r}] was replaced")
                continue
            if info.get("skip"):
                continue
            codes, attrs = info["codes"], vars(module)
            for fname in info["functions"]:
                value = attrs.get(fname)
                if chain(value):
                    ok = matches(value, fname, codes)
                else:  # a decorator turned it into something else: its type must come from a library
                    ok = value is not None and not isinstance(value, type) and fname in info["decorated"] \
                        and type(value).__module__.split(".")[0] not in ("__main__", "builtins")
                if not ok:
                    found.append(f"{name}.{fname} was replaced")
            for cname, defined in info["classes"].items():
                cls = attrs.get(cname)
                if not isinstance(cls, type) or getattr(cls, "__module__", None) != name \
                        or getattr(cls, "__qualname__", None) != cname:
                    found.append(f"{name}.{cname} was replaced")
                    continue
                members = vars(cls)
                for method in defined:
                    if method not in members:
                        found.append(f"{name}.{cname}.{method} was removed")
                for key, value in list(members.items()):
                    for func in functions(value):
                        if key in defined:
                            ok = matches(func, f"{cname}.{key}", codes) or matches(func, func.__code__.co_qualname, codes)
                        else:  # made by a class decorator (its slot), by pydantic, or a function of the package
                            ok = matches(func, f"{cname}.{key}", codes) or generated(func) \
                                or matches(func, func.__code__.co_qualname, codes)
                        if not ok:
                            found.append(f"{name}.{cname}.{key} was replaced")
        except Exception as err:  # a patch that breaks the check is tampering too
            found.append(f"{name} could not be checked ({type(err).__name__}: {err})")
    if found:
        shown = "; ".join(found[:4]) + (f" (and {len(found) - 4} more)" if len(found) > 4 else "")
        raise AssertionError(f"{tampered}: {shown}. The tests need the original package, so this test cannot "
                             "pass here; the grader re-runs it against the original package and your instructor "
                             "reviews the score.")
'''


def _fingerprint():
    namespace: dict[str, Any] = {}
    exec(compile(FINGERPRINT, __file__, "exec"), namespace)  # noqa: S102 - our own code
    return namespace["__autograder_fingerprint"]


_FP = _fingerprint()


def _package_root(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"{name} is not an installed package")
    return Path(os.path.realpath(list(spec.submodule_search_locations)[0]))


def _module_file(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.origin:
        raise ImportError(f"{name} is not installed")
    return Path(os.path.realpath(spec.origin))


@lru_cache(maxsize=256)
def _describe(name: str, path: str, mtime: float, size: int) -> dict[str, Any]:
    """Fingerprints of what one module file defines (cached until the file changes)."""
    source = Path(path).read_text(encoding="utf-8")
    tree = pyast.parse(source)
    codes: dict[str, list[str]] = {}
    stack = [compile(source, path, "exec")]
    while stack:
        code = stack.pop()
        if code.co_qualname.count(".") <= 1 and "<" not in code.co_qualname:
            codes.setdefault(code.co_qualname, []).append(_FP(code))
        stack.extend(c for c in code.co_consts if hasattr(c, "co_qualname"))
    functions = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    decorated = [n.name for n in tree.body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.decorator_list]
    classes = {n.name: sorted({m.name for m in n.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))})
               for n in tree.body if isinstance(n, ast.ClassDef)}
    made = [n.name for n in tree.body if isinstance(n, ast.ClassDef) and n.decorator_list]
    for slot, fingerprints in _made_by_decorators(name, path, made, classes).items():
        codes.setdefault(slot, []).extend(fingerprints)
    return {"file": path, "functions": functions, "decorated": decorated, "classes": classes,
            "codes": {k: sorted(set(v)) for k, v in sorted(codes.items())}}


def _made_by_decorators(name: str, path: str, made: list[str], classes: dict[str, list[str]]) -> dict[str, list[str]]:
    """Fingerprints of the methods a class decorator writes into the module's own classes.

    ``@dataclass`` writes ``__init__``, ``__repr__``, ``__eq__`` (and, frozen,
    ``__setattr__``, ``__delattr__``, ``__hash__``) into the class when the module is
    imported: they are in no source file, so compiling the file cannot know them. The
    grader imports the module (same file, same Python as the kernel) and fingerprints
    what the decorators made, under ``Class.method``: the kernel's class must hold
    exactly those functions, so a learner's first import of the module is not a
    replacement, and a learner's own ``__init__`` put in their place still is.
    """
    if not made:
        return {}
    try:
        module = importlib.import_module(name)
    except Exception:  # noqa: BLE001 - a module that does not import here has nothing to compare with
        return {}
    if os.path.realpath(getattr(module, "__file__", "") or "") != path:
        return {}
    out: dict[str, list[str]] = {}
    for cname in made:
        cls = getattr(module, cname, None)
        if not isinstance(cls, type):
            continue
        for key, value in vars(cls).items():
            func = getattr(value, "__func__", value)
            if key in classes.get(cname, ()) or not hasattr(func, "__code__"):
                continue
            out.setdefault(f"{cname}.{key}", []).append(_FP(func.__code__))
    return out


def expected_modules(packages: tuple[str, ...] = PACKAGES,
                     extra: tuple[str, ...] = EXTRA_MODULES) -> dict[str, dict[str, Any]]:
    """``module name -> fingerprints`` for every module of ``packages`` and the ``extra`` modules."""
    files: dict[str, Path] = {}
    for package in packages:
        root = _package_root(package)
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join((package, *parts))] = path
    for name in extra:
        files[name] = _module_file(name)
    out = {}
    for name, path in files.items():
        try:
            stat = path.stat()
            out[name] = _describe(name, str(path), stat.st_mtime, stat.st_size)
        except (OSError, SyntaxError, ValueError):  # being edited: nothing to compare it with
            out[name] = {"file": str(path), "skip": True}
    return out


def package_stamp(packages: tuple[str, ...] = PACKAGES) -> tuple[tuple[str, int, int], ...]:
    """``(path, mtime_ns, size)`` of every source file the check fingerprints: when it changes, a process that
    imported the package earlier (a warm kernel process, :mod:`autograder.forkserver`) holds another version
    of it than the files the check compares with, and must not serve kernels any more."""
    out = []
    for package in packages:
        for path in sorted(_package_root(package).rglob("*.py")):
            try:
                stat = path.stat()
            except OSError:
                continue
            out.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(out)


def check_code(packages: tuple[str, ...] = PACKAGES) -> str:
    """The code the grader runs in the kernel to check the helper package."""
    generated = sorted({str(_package_root("pydantic"))})
    expected = json.dumps(expected_modules(packages), separators=(",", ":"))
    call = f"__autograder_check({expected!r}, {packages!r}, {generated!r}, {TAMPERED!r}, __autograder_fingerprint)"
    body = f"{FINGERPRINT.strip()}\n{CHECKER.strip()}\n{call}\n"
    return f"{BEGIN}\nexec({body!r}, {{'__name__': '__autograder_check__'}})\n{END}"


def wrap_test(source: str, check: str) -> str:
    """A test cell's source with the check run before and after the test itself."""
    return f"{check}\n{source.rstrip()}\n{check}"


def unwrap_test(source: str) -> str:
    """The test cell's own source, without the injected checks."""
    kept: list[str] = []
    inside = False
    for line in source.split("\n"):
        if line == BEGIN:
            inside = True
        elif line == END:
            inside = False
        elif not inside:
            kept.append(line)
    return "\n".join(kept).strip("\n")


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
CHECK_LINE = "'__name__': '__autograder_check__'})"  # how the check's one line ends


def unwrap_traceback(entry: str) -> str:
    """One traceback entry without the check's own line (IPython shows the lines around a failure).

    The check is one line of some 30,000 characters; a failing test's traceback would
    otherwise show it whenever the failure is near the start or the end of the cell.
    """
    if "__autograder_check__" not in entry:
        return entry
    lines = entry.split("\n")
    return "\n".join("    [the grader's helper package check]" if CHECK_LINE in _ANSI.sub("", line) else line
                     for line in lines)
