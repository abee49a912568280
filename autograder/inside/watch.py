"""What the tests rely on, imported first and recorded: the snapshot the checks put back (:mod:`.checks`).

Before any notebook code runs, a run imports every module the tests import (the payload's ``watch``), what the
read-only cells import from the same packages (``preload``) and :data:`ALWAYS`, and takes a snapshot
(:func:`snapshot`): the builtins, the tracing and profiling hooks, the import system (``sys.modules`` entries,
``sys.meta_path``), and the functions and classes of the watched modules (``toolfaults.*``, ``unittest.mock``,
everything a test imports). A zygote imports the same names once, before it forks a run (:func:`import_watched`).
"""

import builtins
import importlib
import signal
import sys
import types


#: What the tests rely on besides what they import: imported first, and watched.
ALWAYS = ("unittest", "unittest.mock", "json", "json.encoder", "time", "threading", "random", "math")


#: Packages whose every module is watched strictly (any change, any added name, is reported).
STRICT_ROOTS = ("toolfaults",)


MISSING = object()


CODE_KINDS = (types.FunctionType, staticmethod, classmethod, property, type, types.ModuleType,
              types.BuiltinFunctionType, types.MethodType)


SKIPPED_CLASS_KEYS = ("__signature__", "__slotnames__")


def import_watched(payload):
    """Import what the tests rely on (:data:`ALWAYS`, the payload's ``watch``, ``preload`` and ``names``: the
    assignment's modules and names, never the notebook's code, a package's lazy names too); the names of the
    modules to watch. A zygote calls it too, before it forks a run, so that the run starts with them loaded."""
    for name in [*ALWAYS, *payload["watch"], *payload.get("preload", [])]:
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001 - a test that imports it will fail the same way
            pass
    for module_name, attr in payload["names"]:
        module = sys.modules.get(module_name)
        if module is not None:
            try:
                sub = getattr(module, attr)
            except BaseException:  # noqa: BLE001
                sub = None
            if sub is None:
                try:
                    importlib.import_module(f"{module_name}.{attr}")
                except BaseException:  # noqa: BLE001
                    pass
    return sorted({n for n in sys.modules if n.split(".")[0] in STRICT_ROOTS}
                  | {n for n in [*ALWAYS, *payload["watch"]] if n in sys.modules})


def functions_of(value, _function=types.FunctionType):
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if isinstance(f, _function)]
    return [value] if isinstance(value, _function) else []


def behaviour(value, _kinds=CODE_KINDS):
    """Whether a module or class attribute is code (a function, descriptor, class or module)."""
    return isinstance(value, _kinds) or callable(value)


def state_of(func, _missing=MISSING):
    cells = []
    for cell in func.__closure__ or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:
            cells.append(_missing)
    return (func.__code__, func.__defaults__, func.__kwdefaults__, tuple(cells))


def snapshot(watched):
    """What the checks put back: the watched modules' members, their classes' and functions' code, the
    builtins, the import system, the interpreter's hooks (a dict; ``alarm`` is set once the runner's is in place)."""
    modules = {}  # name -> (module, dict copy, strict)
    classes = {}  # id -> (class, dict copy, strict, label)
    funcs = {}  # id -> (function, state, label)

    def add_function(func, label):
        if id(func) not in funcs:
            funcs[id(func)] = (func, state_of(func), label)

    def add_class(cls, strict):
        for klass in cls.__mro__:
            if klass is object or id(klass) in classes or klass.__module__ == "builtins":
                continue
            label = f"{klass.__module__}.{klass.__qualname__}"
            members = dict(vars(klass))
            classes[id(klass)] = (klass, members, strict or klass.__module__.split(".")[0] in STRICT_ROOTS, label)
            for key, value in members.items():
                for func in functions_of(value):
                    add_function(func, f"{label}.{key}")

    for name in watched:
        module = sys.modules[name]
        strict = name.split(".")[0] in STRICT_ROOTS
        members = dict(vars(module))
        modules[name] = (module, members, strict)
        for key, value in members.items():
            if isinstance(value, type):
                add_class(value, strict and getattr(value, "__module__", "") == name)
            for func in functions_of(value):
                add_function(func, f"{name}.{key}")
    monitoring = getattr(sys, "monitoring", None)
    return {"modules": modules, "classes": classes, "funcs": funcs, "builtins": dict(builtins.__dict__),
            "meta_path": list(sys.meta_path), "path_hooks": list(sys.path_hooks),
            "hooks": {"excepthook": sys.excepthook, "displayhook": sys.displayhook}, "monitoring": monitoring,
            "tools_in_use": {t for t in range(6) if monitoring is not None and monitoring.get_tool(t) is not None},
            "alarm": signal.getsignal(signal.SIGALRM)}
