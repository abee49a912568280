"""The check between cells: put back everything of the snapshot (:mod:`.watch`) that was changed, say what was.

Each part takes what it uses as default arguments, bound when this module is imported (before any notebook
code runs): replacing a builtin or a module's attribute does not change the check.
"""

import builtins
import signal
import sys
import threading
import types

from .watch import MISSING, SKIPPED_CLASS_KEYS, behaviour, functions_of, state_of


def restore_builtins(found, saved, bdict=builtins.__dict__, keys=list, get=dict.get, missing=MISSING,
                      append=list.append):
    for key in keys(bdict):
        if key not in saved and key != "_":
            append(found, f"the built-in name {key} was added")
            del bdict[key]
    for key in keys(saved):
        value = saved[key]
        if get(bdict, key, missing) is not value:
            append(found, f"the built-in {key} was replaced")
            bdict[key] = value


def check_tracing(found, snap, _sys=sys, _threading=threading):
    """Tracing, profiling and monitoring switched on: switched off."""
    if _sys.gettrace() is not None:
        found.append("the interpreter's tracing was switched on")
        _sys.settrace(None)
    if _sys.getprofile() is not None:
        found.append("the interpreter's profiling was switched on")
        _sys.setprofile(None)
    if getattr(_threading, "_trace_hook", None) is not None or getattr(_threading, "_profile_hook", None) is not None:
        found.append("tracing or profiling was switched on for new threads")
        _threading.settrace(None)
        _threading.setprofile(None)
    monitoring = snap["monitoring"]
    if monitoring is not None:
        for tool in range(6):
            if tool not in snap["tools_in_use"] and monitoring.get_tool(tool) is not None:
                found.append("the interpreter's monitoring was switched on")
                monitoring.set_events(tool, 0)
                for event in range(32):
                    try:
                        monitoring.register_callback(tool, 1 << event, None)
                    except ValueError:
                        pass
                monitoring.free_tool_id(tool)


def check_imports(found, snap, _sys=sys):
    """The import system and the interpreter's hooks, put back."""
    meta_path, path_hooks = snap["meta_path"], snap["path_hooks"]
    if list(_sys.meta_path) != meta_path or any(a is not b for a, b in zip(_sys.meta_path, meta_path)):
        found.append("the import system was changed")
        _sys.meta_path[:] = meta_path
    if any(a is not b for a, b in zip(_sys.path_hooks, path_hooks)) or len(_sys.path_hooks) != len(path_hooks):
        found.append("the import system was changed")
        _sys.path_hooks[:] = path_hooks
    for name, hook in snap["hooks"].items():
        if getattr(_sys, name) is not hook:
            setattr(_sys, name, hook)  # harmless here; put back silently


def check_modules(found, snap, _sys=sys, behaviour=behaviour, missing=MISSING, module_type=types.ModuleType):
    """The watched modules, and their members, put back; names added to a strict one removed."""
    for name, (module, members, strict) in snap["modules"].items():
        if _sys.modules.get(name) is not module:
            found.append(f"the module {name} was replaced")
            _sys.modules[name] = module
        live = vars(module)
        for key, value in members.items():
            now = live.get(key, missing)
            if now is value:
                continue
            if strict or behaviour(value):
                found.append(f"{name}.{key} was {'removed' if now is missing else 'replaced'}")
                setattr(module, key, value)
        if strict:
            for key in [k for k in live if k not in members]:
                value = live[key]
                submodule = isinstance(value, module_type) and _sys.modules.get(f"{name}.{key}") is value
                if behaviour(value) and not key.startswith("__") and not submodule:
                    found.append(f"{name}.{key} was added")
                    delattr(module, key)


def check_classes(found, snap, behaviour=behaviour, functions_of=functions_of, missing=MISSING,
                   skipped=SKIPPED_CLASS_KEYS, builtin_function=types.BuiltinFunctionType):
    """The watched classes' members put back; methods added to them removed."""
    for klass, members, strict, label in snap["classes"].values():
        live = dict(vars(klass))
        for key, value in members.items():
            if key.startswith(("__pydantic", "_abc")) or key in skipped:
                continue
            now = live.get(key, missing)
            if now is not value and (strict or behaviour(value) or behaviour(now)):
                found.append(f"{label}.{key} was {'removed' if now is missing else 'replaced'}")
                type.__setattr__(klass, key, value)
        for key, value in live.items():
            if key not in members and not key.startswith(("__pydantic", "_abc")) \
                    and key not in skipped \
                    and (functions_of(value) or isinstance(value, (type, builtin_function))
                         or (key.startswith("__") and key.endswith("__") and callable(value))):
                found.append(f"{label}.{key} was added")
                type.__delattr__(klass, key)


def check_functions(found, snap, state_of=state_of, missing=MISSING):
    """The watched functions' code, defaults and closures put back."""
    for func, saved, label in snap["funcs"].values():
        now = state_of(func)
        if any(a is not b for a, b in zip(saved[:3], now[:3])) or \
                any(a is not b for a, b in zip(saved[3], now[3])):
            found.append(f"the code of {label} was changed")
            func.__code__, func.__defaults__, func.__kwdefaults__ = saved[:3]
            for cell, value in zip(func.__closure__ or (), saved[3]):
                if value is not missing:
                    cell.cell_contents = value


def check(snap, restore=restore_builtins,
           parts=(check_tracing, check_imports, check_modules, check_classes, check_functions),
           getsignal=signal.getsignal, setsignal=signal.signal, sigalrm=signal.SIGALRM):
    """Put back everything of ``snap`` that was changed; what was (sorted, each once)."""
    found = []
    restore(found, snap["builtins"])
    for part in parts:
        part(found, snap)
    if getsignal(sigalrm) is not snap["alarm"]:
        setsignal(sigalrm, snap["alarm"])
    return sorted(set(found))
