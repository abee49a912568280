"""The clean-room runner: executes one notebook's cells in a plain ``python`` process.

This file is *not imported by the grader*: :mod:`autograder.cleanroom` and
:mod:`autograder.forkserver` read its text and run it with ``python -I -c`` inside the
sandbox, where the repository is not visible: it needs nothing but the standard library
(and, for a kernel process, ipykernel). A fresh run reads one JSON payload on stdin::

    {"token": "...", "cells": [{"kind": "test"|"answer"|"locked"|"other", "id": ..., "source": ...}],
     "watch": ["toolfaults.clock", ...], "names": [["toolfaults.tools", "flaky_tool"], ...],
     "preload": ["toolfaults.models", ...], "cell_timeout": 30, "notebook_timeout": 120}

and writes one line per message, each the token then a Python literal (a dict), on a
private copy of its stdout (the notebook's own prints go to /dev/null)::

    {"kind": "ready"}
    {"kind": "cell", "index": 0}                                        # before each cell
    {"kind": "finding", "cell": 3, "when": "before", "what": ["..."]}      # what was put back
    {"kind": "test", "id": "...", "passed": True, "message": "", "what": [...]}
    {"kind": "done"}

Before any notebook code runs, it imports every module the tests import (and what the
read-only cells import from the same packages: ``preload``) and takes a snapshot of what the tests rely on: the builtins, the tracing and profiling hooks
(``sys.settrace``, ``sys.setprofile``, ``threading``'s and ``sys.monitoring``'s), the
import system (``sys.modules`` entries, ``sys.meta_path``), and the functions and
classes of the watched modules (``toolfaults.*``, ``unittest.mock``, everything a test
imports). Before each test cell it puts all of that back and reports what it had to
put back; after each test cell it checks again: a change made *while the test ran*
fails that test. A test cell runs in its own copy of the namespace with the real
builtins and the values the read-only cells defined, so a notebook global that
shadows one of them (``isinstance = ...``) is not seen by the test.

Everything the checks use is bound before notebook code runs (default arguments), so
replacing a builtin or a module attribute does not change the runner: each function that
runs once notebook code has run takes its helpers, and the modules' functions it calls, as
default arguments, evaluated when this file is run. The parts, in the order they run:

- a clean run (:func:`_cleanroom`): :func:`_start` (the process and its results channel),
  :func:`_import_watched`, :func:`_snapshot`, :func:`_notebook_namespace`, then
  :func:`_run_cells`, one :func:`_run_test` or :func:`_run_other` per cell, each test
  between two :func:`_check` calls (:func:`_restore_builtins`, :func:`_check_tracing`,
  :func:`_check_imports`, :func:`_check_modules`, :func:`_check_classes`, :func:`_check_functions`);
- a zygote (:func:`_zygote`): :func:`_zygote_start`, then per request a kernel
  (:func:`_kernel`) or a clean run forked from it (:func:`_forked_run`), each followed by
  :func:`_wipe` of the sandbox.
"""

import ast
import asyncio
import builtins
import dis
import importlib
import json
import os
import selectors
import signal
import sys
import threading
import time
import types

#: What a zygote in kernel mode imports before it forks kernels, besides the notebooks' setup
#: imports (``autograder.kernelfork.PRELOAD``): ipykernel, and the kernel's debugger (debugpy),
#: which a kernel otherwise imports as it starts, 0.1 s of CPU each (tests/sandbox/test_kernel_fork.py
#: checks that a kernel started from these imports nothing more of ipykernel or debugpy).
KERNEL_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.debugger")

#: What the tests rely on besides what they import: imported first, and watched.
ALWAYS = ("unittest", "unittest.mock", "json", "json.encoder", "time", "threading", "random", "math")
#: Packages whose every module is watched strictly (any change, any added name, is reported).
STRICT_ROOTS = ("toolfaults",)
#: A clean-room zygote's imports before it forks runs (what a fresh run imports first).
ZYGOTE_MODULES = (*ALWAYS, "asyncio", "dis", "ast", "resource", "ctypes")
MISSING = object()
FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
CO_COROUTINE = 0x80 | 0x100 | 0x200  # CO_COROUTINE | CO_ITERABLE_COROUTINE | CO_ASYNC_GENERATOR
CODE_KINDS = (types.FunctionType, staticmethod, classmethod, property, type, types.ModuleType,
              types.BuiltinFunctionType, types.MethodType)
SKIPPED_CLASS_KEYS = ("__signature__", "__slotnames__")


# == a clean run ===========================================================================
def _start(payload):
    """Set this process up for one run; ``(payload, results channel, token)``.

    The clean room never outlives the grader that started it (a grading worker stopped at its
    time limit, a test run interrupted): killed with its parent, and at most the notebook's
    time limit of CPU even if that fails (a cell that loops forever never reaches the
    between-cells time check). The results channel is a private copy of stdout; stdin, stdout
    and stderr then go to /dev/null.
    """
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    channel = os.dup(1)
    if payload is None:
        payload = json.loads(sys.stdin.read())
    try:
        import resource

        cpu = int(payload["notebook_timeout"]) + 30
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    except (ImportError, ValueError, OSError):
        pass
    token = payload.pop("token")
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    return payload, channel, token


def _import_watched(payload):
    """Import what the tests rely on (:data:`ALWAYS`, the payload's ``watch``, ``preload`` and ``names``);
    the names of the modules to watch."""
    for name in [*ALWAYS, *payload["watch"], *payload.get("preload", [])]:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a test that imports it will fail the same way
            pass
    for module_name, attr in payload["names"]:
        module = sys.modules.get(module_name)
        if module is not None:
            try:
                sub = getattr(module, attr)
            except Exception:  # noqa: BLE001
                sub = None
            if sub is None:
                try:
                    importlib.import_module(f"{module_name}.{attr}")
                except Exception:  # noqa: BLE001
                    pass
    return sorted({n for n in sys.modules if n.split(".")[0] in STRICT_ROOTS}
                  | {n for n in [*ALWAYS, *payload["watch"]] if n in sys.modules})


def _functions_of(value, _function=types.FunctionType):
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if isinstance(f, _function)]
    return [value] if isinstance(value, _function) else []


def _behaviour(value, _kinds=CODE_KINDS):
    """Whether a module or class attribute is code (a function, descriptor, class or module)."""
    return isinstance(value, _kinds) or callable(value)


def _state_of(func, _missing=MISSING):
    cells = []
    for cell in func.__closure__ or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:
            cells.append(_missing)
    return (func.__code__, func.__defaults__, func.__kwdefaults__, tuple(cells))


def _snapshot(watched):
    """What the checks put back: the watched modules' members, their classes' and functions' code, the
    builtins, the import system, the interpreter's hooks (a dict; ``alarm`` is set once the runner's is in place)."""
    modules = {}  # name -> (module, dict copy, strict)
    classes = {}  # id -> (class, dict copy, strict, label)
    funcs = {}  # id -> (function, state, label)

    def add_function(func, label):
        if id(func) not in funcs:
            funcs[id(func)] = (func, _state_of(func), label)

    def add_class(cls, strict):
        for klass in cls.__mro__:
            if klass is object or id(klass) in classes or klass.__module__ == "builtins":
                continue
            label = f"{klass.__module__}.{klass.__qualname__}"
            members = dict(vars(klass))
            classes[id(klass)] = (klass, members, strict or klass.__module__.split(".")[0] in STRICT_ROOTS, label)
            for key, value in members.items():
                for func in _functions_of(value):
                    add_function(func, f"{label}.{key}")

    for name in watched:
        module = sys.modules[name]
        strict = name.split(".")[0] in STRICT_ROOTS
        members = dict(vars(module))
        modules[name] = (module, members, strict)
        for key, value in members.items():
            if isinstance(value, type):
                add_class(value, strict and getattr(value, "__module__", "") == name)
            for func in _functions_of(value):
                add_function(func, f"{name}.{key}")
    monitoring = getattr(sys, "monitoring", None)
    return {"modules": modules, "classes": classes, "funcs": funcs, "builtins": dict(builtins.__dict__),
            "meta_path": list(sys.meta_path), "path_hooks": list(sys.path_hooks),
            "hooks": {"excepthook": sys.excepthook, "displayhook": sys.displayhook}, "monitoring": monitoring,
            "tools_in_use": {t for t in range(6) if monitoring is not None and monitoring.get_tool(t) is not None},
            "alarm": signal.getsignal(signal.SIGALRM)}


# -- the check: put everything back, say what was changed ------------------------------------
def _restore_builtins(found, saved, bdict=builtins.__dict__, keys=list, get=dict.get, missing=MISSING,
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


def _check_tracing(found, snap, _sys=sys, _threading=threading):
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


def _check_imports(found, snap, _sys=sys):
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


def _check_modules(found, snap, _sys=sys, behaviour=_behaviour, missing=MISSING, module_type=types.ModuleType):
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


def _check_classes(found, snap, behaviour=_behaviour, functions_of=_functions_of, missing=MISSING,
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


def _check_functions(found, snap, state_of=_state_of, missing=MISSING):
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


def _check(snap, restore=_restore_builtins,
           parts=(_check_tracing, _check_imports, _check_modules, _check_classes, _check_functions),
           getsignal=signal.getsignal, setsignal=signal.signal, sigalrm=signal.SIGALRM):
    """Put back everything of ``snap`` that was changed; what was (sorted, each once)."""
    found = []
    restore(found, snap["builtins"])
    for part in parts:
        part(found, snap)
    if getsignal(sigalrm) is not snap["alarm"]:
        setsignal(sigalrm, snap["alarm"])
    return sorted(set(found))


# -- running cells -------------------------------------------------------------------------
class _CellTimeout(BaseException):
    pass


def _on_alarm(signum, frame, _timeout=_CellTimeout):
    raise _timeout()


class _Shell:  # the few IPython calls an honest notebook makes (magics, shell commands)
    def __init__(self, namespace):
        self._namespace = namespace

    def run_cell_magic(self, name, line, cell):
        exec(compile(cell, "<cell magic>", "exec"), self._namespace)

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def _notebook_namespace():
    """A fresh ``__main__`` for the notebook, with the real builtins and a stand-in ``get_ipython``."""
    main = types.ModuleType("__main__")
    namespace = main.__dict__
    namespace["__builtins__"] = builtins
    shell = _Shell(namespace)
    namespace["get_ipython"] = lambda: shell
    namespace["display"] = lambda *args, **kwargs: None
    sys.modules["__main__"] = main
    sys.argv = [""]
    return namespace


def _global_names(code, instructions=dis.get_instructions, code_type=types.CodeType):
    """Names the test reads from the notebook's globals and does not define itself."""
    names, own, stack = set(), set(), [code]
    while stack:
        c = stack.pop()
        for ins in instructions(c):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                names.add(ins.argval)
            elif ins.opname == "STORE_GLOBAL" or (c is code and ins.opname == "STORE_NAME"):
                own.add(ins.argval)
        stack.extend(k for k in c.co_consts if isinstance(k, code_type))
    return names - own


def _execute(code, ns, limit, loop, run=exec, evaluate=eval, setitimer=signal.setitimer, timer=signal.ITIMER_REAL,
             coroutine=CO_COROUTINE):
    setitimer(timer, limit)
    try:
        if code.co_flags & coroutine:
            loop.run_until_complete(evaluate(code, ns))  # top-level await, as IPython runs it
        else:
            run(code, ns)
    finally:
        setitimer(timer, 0)


def _describe(err, _timeout=_CellTimeout):
    try:
        text = str(err)
    except BaseException:  # noqa: BLE001
        text = ""
    if isinstance(err, _timeout):
        return "CellTimeoutError: the test did not finish within the time limit in the clean run"
    name = type(err).__name__
    return (f"{name}: {text}" if text else name)[:2000]


def _test_namespace(room, code, before, missing=MISSING, global_names=_global_names):
    """The test's own copy of the namespace: the read-only cells' values and the real builtins where the
    notebook redefined or hid them (said in ``before``)."""
    ns = dict(room["namespace"])
    locked, real_builtins = room["locked"], room["real_builtins"]
    for name in global_names(code):
        value = ns.get(name, missing)
        if name in locked and value is not locked[name]:
            if callable(value) or isinstance(value, type):
                before.append(f"{name}, defined by a read-only cell, was redefined")
            ns[name] = locked[name]
        elif name in real_builtins and value is not missing and value is not real_builtins[name]:
            if callable(value):
                before.append(f"a notebook variable named {name} hid the built-in the tests use")
            del ns[name]
    return ns


def _run_test(room, index, cell, limit, check=_check, describe=_describe, test_namespace=_test_namespace,
              execute=_execute, real=builtins, missing=MISSING, flags=FLAGS, _BaseException=BaseException):
    """One test cell, between two checks, its result sent; False when it did not compile (nothing ran)."""
    send, namespace = room["send"], room["namespace"]
    before = check(room["snap"])
    if namespace.get("__builtins__") is not real:
        before.append("the notebook's built-in functions were replaced")
        namespace["__builtins__"] = real
    try:
        code = compile(cell["source"], f"<test {cell['id']}>", "exec", flags)
    except SyntaxError as err:
        send("test", id=cell["id"], passed=False, message=describe(err), what=[])
        return False
    ns = test_namespace(room, code, before)
    if before:
        send("finding", cell=index, when="before", what=sorted(set(before)))
    error = None
    try:
        execute(code, ns, limit, room["loop"])
    except _BaseException as err:  # noqa: BLE001 - a test's failure, whatever it raised
        error = err
    during = check(room["snap"])
    passed, message = error is None, "" if error is None else describe(error)
    if during:
        passed = False
        message = message or "the code the test called changed what the tests rely on"
    for key, value in ns.items():  # what the test defined stays, as in a notebook
        if namespace.get(key, missing) is not value and key not in room["real_builtins"] and key not in room["locked"]:
            namespace[key] = value
    send("test", id=cell["id"], passed=passed, message=message, what=during)
    return True


def _run_other(room, index, cell, limit, execute=_execute, restore_builtins=_restore_builtins,
               behaviour=_behaviour, missing=MISSING, flags=FLAGS, _BaseException=BaseException):
    """A cell that is not a test; a read-only one's values are what the tests will see."""
    namespace = room["namespace"]
    earlier = dict(namespace) if cell["kind"] == "locked" else {}
    try:
        code = compile(cell["source"], f"<cell {index}>", "exec", flags)
        execute(code, namespace, limit, room["loop"])
    except _BaseException:  # noqa: BLE001 - the notebook's own errors: its tests will show them
        pass
    if cell["kind"] == "locked":
        restore_builtins([], room["snap"]["builtins"])
        for name, value in namespace.items():
            if earlier.get(name, missing) is not value and not name.startswith("_"):
                room["locked"][name] = value
        # A setting a read-only cell makes in a watched module (use_language("es") sets
        # toolfaults.language._current) is the assignment's own: the tests run with it.
        for module, members, _ in room["snap"]["modules"].values():
            for key, value in list(vars(module).items()):
                if not behaviour(value) and members.get(key, missing) is not value:
                    members[key] = value


def _run_cells(payload, room, check=_check, run_test=_run_test, run_other=_run_other, clock=time.monotonic,
               _max=max, _min=min):
    """Every cell of the plan, in order, within the time limits; ends with a last check and "done"."""
    send = room["send"]
    cell_timeout = float(payload["cell_timeout"])
    left = float(payload["notebook_timeout"])
    send("ready")
    for index, cell in enumerate(payload["cells"]):
        send("cell", index=index)
        started = clock()
        limit = _max(0.5, _min(cell_timeout, left))
        if cell["kind"] == "test":
            if not run_test(room, index, cell, limit):
                continue  # it did not compile: no time spent
        else:
            run_other(room, index, cell, limit)
        left -= clock() - started
        if left <= 0:
            send("stopped", reason="time limit")
            break
    check(room["snap"])
    send("done")


def _cleanroom(payload=None, _close=os.close, _exit=os._exit):
    """Run one payload (read from stdin when not given) and exit; never returns."""
    payload, channel, token = _start(payload)

    def send(kind, _token=token, _fd=channel, _write=os.write, _repr=repr, **data):
        # One line per message, as a Python literal: repr of plain dicts, lists, str and bool is
        # C code that the notebook cannot patch (json's shared encoder is an object it could).
        data["kind"] = kind
        line = (_token + _repr(data) + "\n").encode("utf-8", "backslashreplace")
        while line:
            line = line[_write(_fd, line):]

    snap = _snapshot(_import_watched(payload))
    signal.signal(signal.SIGALRM, _on_alarm)
    snap["alarm"] = _on_alarm
    room = {"send": send, "snap": snap, "namespace": _notebook_namespace(), "locked": {},
            "real_builtins": dict(snap["builtins"]), "loop": asyncio.new_event_loop()}
    _run_cells(payload, room)
    _close(channel)
    _exit(0)


# == a zygote ================================================================================
def _zygote_start():
    """Set a zygote up (``-c <runner> zygote <max channel> sandboxed|plain [kernel <modules as JSON>]``); its state.

    It dies with the grader and cannot be read or traced by its runs (not dumpable); its requests and
    replies go through private copies of stdin and stdout, then pointed at /dev/null. What its sandbox's
    /tmp holds before any run (HOME and the folders of its binds) is recorded, to be kept.
    """
    sandboxed = sys.argv[3] == "sandboxed"
    kernel_modules = json.loads(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "kernel" else None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: gone with the grader
        libc.prctl(4, 0)  # PR_SET_DUMPABLE 0: a run cannot open this process's pipes through /proc
    except (OSError, AttributeError):
        pass
    requests, replies = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    tmp = "/tmp" if sandboxed else os.getcwd()  # the sandbox's own /tmp; without it, the grader's private folder
    keep = set(os.listdir(tmp)) if sandboxed else set()
    for name in ZYGOTE_MODULES if kernel_modules is None else [*KERNEL_MODULES, *kernel_modules]:
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001 - a run imports it again and fails as a fresh process would
            pass
    waiting = selectors.DefaultSelector()
    waiting.register(requests, selectors.EVENT_READ)
    home = os.path.join(tmp, "home")  # the sandbox's HOME (sandbox_command: --dir /tmp/home)
    z = {"sandboxed": sandboxed, "max_channel": int(sys.argv[2]), "kernel_modules": kernel_modules,
         "requests": requests, "replies": replies, "waiting": waiting, "pending": b"", "tmp": tmp, "keep": keep,
         "home": home, "tmp_device": _identity(tmp)[0] if sandboxed else None}
    # What the sandbox put in /tmp before any run: HOME, and the folders holding its binds (a course
    # kept under /tmp, the kernels' sockets): never removed, and checked to be the very same entries
    # after each run, down to the mount points; anything a run added among them is removed.
    z["kept"] = kept = {}
    for name in keep:
        if os.path.join(tmp, name) != home:
            _tree(os.path.join(tmp, name), kept, z["tmp_device"])
    return z


def _next_line(z, wait=True):
    """The next request line; None when none has come (``wait=False``); b"" once the grader is gone."""
    while b"\n" not in z["pending"]:
        if not wait and not z["waiting"].select(timeout=0):
            return None
        chunk = os.read(z["requests"], 65536)
        if not chunk:
            return b""
        z["pending"] += chunk
    line, z["pending"] = z["pending"].split(b"\n", 1)
    return line + b"\n"


def _answer(z, header, data=b""):
    out = json.dumps(header).encode() + b"\n" + data
    while out:
        out = out[os.write(z["replies"], out):]


def _reply(z, data, reason, status):
    _answer(z, {"size": len(data), "reason": reason, "status": status}, data)


def _remove(path):
    """Delete a file or a folder tree, whatever permissions the run gave it."""
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
            for name in os.listdir(path):
                _remove(os.path.join(path, name))
            os.rmdir(path)
        else:
            os.unlink(path)
    except (OSError, RecursionError):
        pass


def _empty(folder, keep=None):
    """Remove what ``folder`` holds but ``keep``; a folder not ours to list is left alone."""
    try:
        for name in os.listdir(folder):
            if os.path.join(folder, name) != keep:
                _remove(os.path.join(folder, name))
    except OSError:
        pass


def _identity(path):
    try:
        info = os.lstat(path)
        return (info.st_dev, info.st_ino)
    except OSError:
        return None


def _tree(path, found, device):
    """Every entry under ``path`` on /tmp's own file system (``device``), not inside the binds mounted there."""
    ident = _identity(path)
    found[path] = ident
    if ident is not None and ident[0] == device and os.path.isdir(path) and not os.path.islink(path):
        for name in os.listdir(path):
            _tree(os.path.join(path, name), found, device)
    return found


def _sysv_ipc():
    """Remove the System V shared memory, semaphores and message queues of this IPC namespace."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
    except (OSError, AttributeError):
        return
    for kind, call in (("shm", "shmctl"), ("sem", "semctl"), ("msg", "msgctl")):
        try:
            with open(f"/proc/sysvipc/{kind}") as table:
                ids = [int(row.split()[1]) for row in table.readlines()[1:] if row.split()]
        except (OSError, ValueError, IndexError):
            continue
        for ipc_id in ids:
            if kind == "sem":
                libc.semctl(ipc_id, 0, 0)  # IPC_RMID
            else:
                getattr(libc, call)(ipc_id, 0, None)


def _wipe(z):
    """Put the sandbox's writable places back as they were: /tmp, its HOME (empty) and /dev/shm.

    Returns whether that worked (:func:`_is_clean`); if not, the zygote stops after answering (the
    grader starts another in a new sandbox).
    """
    if not z["sandboxed"]:
        return True
    tmp, home, keep, kept = z["tmp"], z["home"], z["keep"], z["kept"]
    for name in os.listdir(tmp):
        path = os.path.join(tmp, name)
        if path == home:
            if os.path.islink(path) or not os.path.isdir(path):
                _remove(path)
            else:
                try:
                    os.chmod(path, 0o755)
                except OSError:
                    pass
                _empty(path)
        elif path not in kept:
            _remove(path)
    for name in keep:
        if os.path.join(tmp, name) != home:
            try:
                for added in sorted(set(_tree(os.path.join(tmp, name), {}, z["tmp_device"])) - set(kept), key=len):
                    _remove(added)
            except (OSError, RecursionError):
                pass  # the check below fails
    _sysv_ipc()
    if "home" in keep and not os.path.isdir(home):
        try:
            os.mkdir(home, 0o755)
        except OSError:
            pass
    _empty("/dev/shm")
    return _is_clean(z)


def _is_clean(z):
    """Whether /tmp holds just what it held before any run, the very same entries, HOME empty, /dev/shm empty."""
    tmp, home, keep, kept = z["tmp"], z["home"], z["keep"], z["kept"]
    try:
        return sorted(os.listdir(tmp)) == sorted(keep) \
            and all(_identity(path) == ident for path, ident in kept.items()) \
            and all(set(_tree(os.path.join(tmp, name), {}, z["tmp_device"])) <= set(kept)
                    for name in keep if os.path.join(tmp, name) != home) \
            and ("home" not in keep or (not os.path.islink(home) and not os.listdir(home))) \
            and not (os.path.isdir("/dev/shm") and os.listdir("/dev/shm"))
    except (OSError, RecursionError):
        return False


def _leftovers(z, pid):
    """Whatever the run started: killed once it has exited (it may hold the pipe open)."""
    try:
        if z["sandboxed"]:
            os.kill(-1, signal.SIGKILL)  # in the sandbox's own process namespace: all but us and its init
        else:
            os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def _kernel_child(z, spec, workdir):
    """In the forked child: become the kernel, as ``python -m ipykernel_launcher -f <file>`` starts it; never returns."""
    code = 1
    try:
        z["waiting"].close()
        os.close(z["requests"])
        os.close(z["replies"])
        os.setsid()
        log = os.open(spec["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.chdir(workdir)
        # As `python -m ipykernel_launcher -f <file>` starts it: ipykernel puts '' back on the path.
        if sys.path and sys.path[0] in ("", os.getcwd()):
            del sys.path[0]
        sys.argv = ["ipykernel_launcher", "-f", spec["connection_file"]]
        from ipykernel import kernelapp

        kernelapp.launch_new_instance()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:  # noqa: BLE001
        import traceback

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _relay_signals(z, pid, exited):
    """Send the grader's ``{"signal": n}`` lines to the kernel's group until it exits (a grader gone: SIGKILL).

    Returns ``(wait status, whether the grader is gone)``.
    """
    gone, status = False, None
    with selectors.DefaultSelector() as sel:
        sel.register(z["requests"], selectors.EVENT_READ)
        if exited is not None:
            sel.register(exited, selectors.EVENT_READ)
        while status is None:
            events = sel.select(timeout=None if exited is not None else 0.05)
            done, raw = os.waitpid(pid, os.WNOHANG)
            if done:
                status = raw
                break
            if not gone and any(key.fd == z["requests"] for key, _ in events):
                while True:
                    line = _next_line(z, wait=False)
                    if line is None:
                        break
                    if not line:  # the grader is gone: so is its kernel
                        gone = True
                        sel.unregister(z["requests"])
                        line = b'{"signal": 9}'
                    try:
                        signum = int(json.loads(line)["signal"])
                        try:
                            os.killpg(pid, signum)
                        except OSError:
                            os.kill(pid, signum)
                    except (ValueError, KeyError, TypeError, OSError):
                        pass
                    if gone:
                        break
    return status, gone


def _pidfd(pid):
    """A descriptor readable once ``pid`` has exited; None where there is none (then it is polled)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _kernel(z, spec):
    """Fork one ipykernel, relay signals to it until it exits; its exit code, and whether the grader is gone.

    The kernel works in ``spec["workdir"]``, the grader's copy of the notebook's folder, in a read-only bind
    of this sandbox; once it has exited, its leftovers and what it left in ``spec["scratch"]`` (the kernels'
    sockets folder) but ``spec["keep"]`` are gone.
    """
    pid = os.fork()
    if pid == 0:
        _kernel_child(z, spec, spec["workdir"])
    _answer(z, {"started": pid})
    exited = _pidfd(pid)
    status, gone = _relay_signals(z, pid, exited)
    if exited is not None:
        os.close(exited)
    _leftovers(z, pid)
    if spec.get("scratch"):
        _empty(spec["scratch"], spec.get("keep"))  # not ours to list (a grader running as root): nothing to do
    return os.waitstatus_to_exitcode(status), gone


def _preimport(payload):
    """What the tests import (the assignment's modules and names, never the notebook's code): loaded here once,
    as the run would load it first (a package's lazy names too), so that runs start with it."""
    for name in payload.get("watch", []) + payload.get("preload", []):
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001 - the run imports it again and fails as a fresh process would
            pass
    for module_name, attr in payload.get("names", []):
        module = sys.modules.get(module_name)
        if module is not None:
            try:
                getattr(module, attr)
            except BaseException:  # noqa: BLE001
                pass


def _run_folder(z, files, number):
    """A fresh, read-only working folder for one run, holding ``files`` (the submission folder's copy)."""
    import base64

    workdir = os.path.join(z["tmp"], f"clean-room-run-{os.getpid()}-{number}")
    os.mkdir(workdir, 0o755)
    for name, text in files.items():
        if "/" in name or name in ("", ".", ".."):
            continue
        path = os.path.join(workdir, name)
        with open(path, "wb") as f:
            f.write(base64.b64decode(text))
        os.chmod(path, 0o444)
    os.chmod(workdir, 0o555)  # read-only, as the kernel sees its folder
    return workdir


def _run_child(z, payload, workdir, read, write):
    """In the forked child: the clean run, its results channel the pipe's ``write`` end; never returns."""
    try:
        z["waiting"].close()
        os.close(z["requests"])
        os.close(z["replies"])
        os.close(read)
        os.dup2(write, 1)
        os.close(write)
        os.setsid()
        os.chdir(workdir)
        if z["kernel_modules"] is not None and sys.path and sys.path[0] == "":
            del sys.path[0]  # as in a clean-room process (`python -I`): the run's folder is not on the path
        _cleanroom(payload)
    finally:
        os._exit(1)


def _collect(z, pid, read, deadline):
    """Read the run's results channel until it closes, the deadline passes or it says too much;
    ``(data, reason it was stopped, exit code)``, the run and its leftovers gone."""
    exited = _pidfd(pid)
    chunks, size, reason, status = [], 0, "", None
    with selectors.DefaultSelector() as sel:
        sel.register(read, selectors.EVENT_READ)
        if exited is not None:
            sel.register(exited, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                reason = "timeout"
                break
            events = sel.select(timeout=left if exited is not None or status is not None else min(left, 0.05))
            if status is None and (exited is None or any(key.fd == exited for key, _ in events)):
                done, raw = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = raw
                    _leftovers(z, pid)
                    if exited is not None:
                        sel.unregister(exited)
            if not any(key.fd == read for key, _ in events):
                continue
            chunk = os.read(read, 65536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > z["max_channel"]:
                reason = "too much"
                break
    if exited is not None:
        os.close(exited)
    if status is None:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
        _, status = os.waitpid(pid, 0)
    _leftovers(z, pid)
    return b"".join(chunks), reason, os.waitstatus_to_exitcode(status)


def _forked_run(z, request, number):
    """One clean run in a child forked from this process; ``(data, reason, exit code)`` once it is gone."""
    payload = request["payload"]
    _preimport(payload)
    workdir = _run_folder(z, request.get("files", {}), number)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        _run_child(z, payload, workdir, read, write)
    os.close(write)
    answer = _collect(z, pid, read, time.monotonic() + float(request.get("deadline", 150.0)))
    os.close(read)
    _remove(workdir)
    if request.get("scratch"):  # a kernel process's sockets folder (a bind: _wipe() leaves what is inside)
        _empty(request["scratch"])
    return answer


def _zygote():
    """Serve clean runs one after another, each in a fork of this process (``python -I -c <runner> zygote``).

    The process imports what the tests import once; each run is a child forked from it,
    so a run starts with those modules loaded and nothing else: no notebook code ever runs
    in this process. It reads one request per line on stdin::

        {"payload": <the runner's payload>, "files": {"name": "<base64>"}, "deadline": 140.0, "scratch": <folder>}

    and answers each with a header line and the child's results channel::

        {"size": <bytes that follow>, "reason": "" | "timeout" | "too much", "status": <exit status>}

    Each run gets a fresh working folder holding ``files`` (a copy of the submission's
    folder, read-only). Before the answer goes out, the child is gone and so is anything it
    left: in the sandbox (its own process namespace) every other process is killed and
    ``/tmp`` is emptied; without it, the child's process group. This process cannot be
    read or traced by the runs (not dumpable), and a run cannot reach the grader's pipes.

    Started as ``... zygote <max> sandboxed kernel '<modules as JSON>'``, it serves sandboxed
    grading kernels instead (:mod:`autograder.kernelfork`): it imports ipykernel and those
    modules once, and each request::

        {"kernel": {"connection_file": ..., "log": ..., "workdir": ..., "scratch": ..., "keep": ...}}

    forks one ipykernel (:func:`_kernel`). It answers ``{"started": <pid>}`` at once; while the
    kernel runs it takes ``{"signal": <number>}`` lines (sent to the kernel's process group); once
    the kernel has exited and its leftovers are gone, it answers a header as above, with no data.
    """
    z = _zygote_start()
    number = 0
    while True:
        line = _next_line(z)
        if not line:
            os._exit(0)
        request = json.loads(line)
        if "signal" in request:  # for a kernel that has exited since
            continue
        if "kernel" in request:
            code, gone = _kernel(z, request["kernel"])
            clean = _wipe(z)
            if gone:
                os._exit(0)
            _reply(z, b"", "", code)
        else:
            number += 1
            data, reason, code = _forked_run(z, request, number)
            clean = _wipe(z)
            _reply(z, data, reason, code)
        if not clean:
            os._exit(0)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "zygote":
        _zygote()
    else:
        _cleanroom()
