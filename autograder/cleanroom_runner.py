"""The clean-room runner: executes one notebook's cells in a plain ``python`` process.

This file is *not imported by the grader*: :mod:`autograder.cleanroom` reads its text
and runs it with ``python -I -c`` inside the sandbox, where the repository is not
visible. It reads one JSON payload on stdin::

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
replacing a builtin or a module attribute does not change the runner.
"""


#: What a zygote in kernel mode imports before it forks kernels, besides the notebooks' setup
#: imports (``autograder.kernelfork.PRELOAD``): ipykernel, and the kernel's debugger (debugpy),
#: which a kernel otherwise imports as it starts, 0.1 s of CPU each (tests/sandbox/test_kernel_fork.py
#: checks that a kernel started from these imports nothing more of ipykernel or debugpy).
KERNEL_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.debugger")


def _cleanroom(payload=None):  # noqa: C901 - one self-contained function: nothing else runs in the sandbox
    """Run one payload (read from stdin when not given) and exit; never returns."""
    import ast
    import asyncio
    import builtins
    import dis
    import importlib
    import json
    import os
    import signal
    import sys
    import threading
    import types

    # The clean room never outlives the grader that started it (a grading worker stopped at its
    # time limit, a test run interrupted): killed with its parent, and at most the notebook's
    # time limit of CPU even if that fails (a cell that loops forever never reaches the
    # between-cells time check below).
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

    def send(kind, _token=token, _fd=channel, _write=os.write, _repr=repr, **data):
        # One line per message, as a Python literal: repr of plain dicts, lists, str and bool is
        # C code that the notebook cannot patch (json's shared encoder is an object it could).
        data["kind"] = kind
        line = (_token + _repr(data) + "\n").encode("utf-8", "backslashreplace")
        while line:
            line = line[_write(_fd, line):]

    # -- what the tests rely on: import it all first ------------------------------------
    always = ["unittest", "unittest.mock", "json", "json.encoder", "time", "threading", "random", "math"]
    for name in always + payload["watch"] + payload.get("preload", []):
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
    strict_roots = ("toolfaults",)
    watched = sorted({n for n in sys.modules if n.split(".")[0] in strict_roots}
                     | {n for n in always + payload["watch"] if n in sys.modules})
    FunctionType = types.FunctionType
    MISSING = object()

    def functions_of(value):
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            return [f for f in (value.fget, value.fset, value.fdel) if isinstance(f, FunctionType)]
        return [value] if isinstance(value, FunctionType) else []

    def behaviour(value):
        """Whether a module or class attribute is code (a function, descriptor, class or module)."""
        return isinstance(value, (FunctionType, staticmethod, classmethod, property, type, types.ModuleType,
                                  types.BuiltinFunctionType, types.MethodType)) or callable(value)

    def state_of(func):
        cells = []
        for cell in func.__closure__ or ():
            try:
                cells.append(cell.cell_contents)
            except ValueError:
                cells.append(MISSING)
        return (func.__code__, func.__defaults__, func.__kwdefaults__, tuple(cells))

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
            classes[id(klass)] = (klass, members, strict or klass.__module__.split(".")[0] in strict_roots, label)
            for key, value in members.items():
                for func in functions_of(value):
                    add_function(func, f"{label}.{key}")

    for name in watched:
        module = sys.modules[name]
        strict = name.split(".")[0] in strict_roots
        members = dict(vars(module))
        modules[name] = (module, members, strict)
        for key, value in members.items():
            if isinstance(value, type):
                add_class(value, strict and getattr(value, "__module__", "") == name)
            for func in functions_of(value):
                add_function(func, f"{name}.{key}")

    builtins_dict = builtins.__dict__
    builtins_saved = dict(builtins_dict)
    meta_path, path_hooks = list(sys.meta_path), list(sys.path_hooks)
    hooks = {"excepthook": sys.excepthook, "displayhook": sys.displayhook}
    monitoring = getattr(sys, "monitoring", None)
    tools_in_use = {t for t in range(6) if monitoring is not None and monitoring.get_tool(t) is not None}
    alarm = signal.getsignal(signal.SIGALRM)

    # -- the check: put everything back, say what was changed -----------------------------
    def restore_builtins(found, bdict=builtins_dict, saved=builtins_saved, keys=list, get=dict.get,
                         missing=MISSING, append=list.append):
        for key in keys(bdict):
            if key not in saved and key != "_":
                append(found, f"the built-in name {key} was added")
                del bdict[key]
        for key in keys(saved):
            value = saved[key]
            if get(bdict, key, missing) is not value:
                append(found, f"the built-in {key} was replaced")
                bdict[key] = value

    def differs(old, new):
        return old is not new

    def check():
        found = []
        restore_builtins(found)
        if sys.gettrace() is not None:
            found.append("the interpreter's tracing was switched on")
            sys.settrace(None)
        if sys.getprofile() is not None:
            found.append("the interpreter's profiling was switched on")
            sys.setprofile(None)
        if getattr(threading, "_trace_hook", None) is not None or getattr(threading, "_profile_hook", None) is not None:
            found.append("tracing or profiling was switched on for new threads")
            threading.settrace(None)
            threading.setprofile(None)
        if monitoring is not None:
            for tool in range(6):
                if tool not in tools_in_use and monitoring.get_tool(tool) is not None:
                    found.append("the interpreter's monitoring was switched on")
                    monitoring.set_events(tool, 0)
                    for event in range(32):
                        try:
                            monitoring.register_callback(tool, 1 << event, None)
                        except ValueError:
                            pass
                    monitoring.free_tool_id(tool)
        if list(sys.meta_path) != meta_path or any(a is not b for a, b in zip(sys.meta_path, meta_path)):
            found.append("the import system was changed")
            sys.meta_path[:] = meta_path
        if any(a is not b for a, b in zip(sys.path_hooks, path_hooks)) or len(sys.path_hooks) != len(path_hooks):
            found.append("the import system was changed")
            sys.path_hooks[:] = path_hooks
        for name, hook in hooks.items():
            if getattr(sys, name) is not hook:
                setattr(sys, name, hook)  # harmless here; put back silently
        for name, (module, members, strict) in modules.items():
            if sys.modules.get(name) is not module:
                found.append(f"the module {name} was replaced")
                sys.modules[name] = module
            live = vars(module)
            for key, value in members.items():
                now = live.get(key, MISSING)
                if now is value:
                    continue
                if strict or behaviour(value):
                    found.append(f"{name}.{key} was {'removed' if now is MISSING else 'replaced'}")
                    setattr(module, key, value)
            if strict:
                for key in [k for k in live if k not in members]:
                    value = live[key]
                    submodule = isinstance(value, types.ModuleType) and sys.modules.get(f"{name}.{key}") is value
                    if behaviour(value) and not key.startswith("__") and not submodule:
                        found.append(f"{name}.{key} was added")
                        delattr(module, key)
        for klass, members, strict, label in classes.values():
            live = dict(vars(klass))
            for key, value in members.items():
                if key.startswith(("__pydantic", "_abc")) or key in ("__signature__", "__slotnames__"):
                    continue
                now = live.get(key, MISSING)
                if now is not value and (strict or behaviour(value) or behaviour(now)):
                    found.append(f"{label}.{key} was {'removed' if now is MISSING else 'replaced'}")
                    type.__setattr__(klass, key, value)
            for key, value in live.items():
                if key not in members and not key.startswith(("__pydantic", "_abc")) \
                        and key not in ("__signature__", "__slotnames__") \
                        and (functions_of(value) or isinstance(value, (type, types.BuiltinFunctionType))
                             or (key.startswith("__") and key.endswith("__") and callable(value))):
                    found.append(f"{label}.{key} was added")
                    type.__delattr__(klass, key)
        for func, saved, label in funcs.values():
            now = state_of(func)
            if any(differs(a, b) for a, b in zip(saved[:3], now[:3])) or \
                    any(differs(a, b) for a, b in zip(saved[3], now[3])):
                found.append(f"the code of {label} was changed")
                func.__code__, func.__defaults__, func.__kwdefaults__ = saved[:3]
                for cell, value in zip(func.__closure__ or (), saved[3]):
                    if value is not MISSING:
                        cell.cell_contents = value
        if signal.getsignal(signal.SIGALRM) is not alarm:
            signal.signal(signal.SIGALRM, alarm)
        return sorted(set(found))

    # -- running cells ---------------------------------------------------------------------
    class CellTimeout(BaseException):
        pass

    def on_alarm(signum, frame):
        raise CellTimeout()

    signal.signal(signal.SIGALRM, on_alarm)
    alarm = on_alarm

    class _Shell:  # the few IPython calls an honest notebook makes (magics, shell commands)
        def run_cell_magic(self, name, line, cell):
            exec(compile(cell, "<cell magic>", "exec"), namespace)

        def __getattr__(self, name):
            return lambda *args, **kwargs: None

    main = types.ModuleType("__main__")
    namespace = main.__dict__
    namespace["__builtins__"] = builtins
    shell = _Shell()
    namespace["get_ipython"] = lambda: shell
    namespace["display"] = lambda *args, **kwargs: None
    sys.modules["__main__"] = main
    sys.argv = [""]
    loop = asyncio.new_event_loop()
    flags = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    CO_COROUTINE = 0x80 | 0x100 | 0x200  # CO_COROUTINE | CO_ITERABLE_COROUTINE | CO_ASYNC_GENERATOR

    def global_names(code):
        """Names the test reads from the notebook's globals and does not define itself."""
        names, own, stack = set(), set(), [code]
        while stack:
            c = stack.pop()
            for ins in dis.get_instructions(c):
                if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
                    names.add(ins.argval)
                elif ins.opname == "STORE_GLOBAL" or (c is code and ins.opname == "STORE_NAME"):
                    own.add(ins.argval)
            stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        return names - own

    def execute(code, ns, limit, run=exec, evaluate=eval, setitimer=signal.setitimer, timer=signal.ITIMER_REAL):
        setitimer(timer, limit)
        try:
            if code.co_flags & CO_COROUTINE:
                loop.run_until_complete(evaluate(code, ns))  # top-level await, as IPython runs it
            else:
                run(code, ns)
        finally:
            setitimer(timer, 0)

    def describe(err):
        try:
            text = str(err)
        except BaseException:  # noqa: BLE001
            text = ""
        if isinstance(err, CellTimeout):
            return "CellTimeoutError: the test did not finish within the time limit in the clean run"
        name = type(err).__name__
        return (f"{name}: {text}" if text else name)[:2000]

    locked = {}  # names bound by read-only cells -> their values when those cells finished
    real_builtins = dict(builtins_saved)
    cell_timeout = float(payload["cell_timeout"])
    left = float(payload["notebook_timeout"])
    import time as _time

    clock = _time.monotonic
    _max, _min, _BaseException = max, min, BaseException
    send("ready")
    for index, cell in enumerate(payload["cells"]):
        send("cell", index=index)
        started = clock()
        limit = _max(0.5, _min(cell_timeout, left))
        if cell["kind"] == "test":
            before = check()
            if namespace.get("__builtins__") is not builtins:
                before.append("the notebook's built-in functions were replaced")
                namespace["__builtins__"] = builtins
            try:
                code = compile(cell["source"], f"<test {cell['id']}>", "exec", flags)
            except SyntaxError as err:
                send("test", id=cell["id"], passed=False, message=describe(err), what=[])
                continue
            ns = dict(namespace)
            for name in global_names(code):
                value = ns.get(name, MISSING)
                if name in locked and value is not locked[name]:
                    if callable(value) or isinstance(value, type):
                        before.append(f"{name}, defined by a read-only cell, was redefined")
                    ns[name] = locked[name]
                elif name in real_builtins and value is not MISSING and value is not real_builtins[name]:
                    if callable(value):
                        before.append(f"a notebook variable named {name} hid the built-in the tests use")
                    del ns[name]
            if before:
                send("finding", cell=index, when="before", what=sorted(set(before)))
            error = None
            try:
                execute(code, ns, limit)
            except _BaseException as err:  # noqa: BLE001 - a test's failure, whatever it raised
                error = err
            during = check()
            passed, message = error is None, "" if error is None else describe(error)
            if during:
                passed = False
                message = message or "the code the test called changed what the tests rely on"
            for key, value in ns.items():  # what the test defined stays, as in a notebook
                if namespace.get(key, MISSING) is not value and key not in real_builtins and key not in locked:
                    namespace[key] = value
            send("test", id=cell["id"], passed=passed, message=message, what=during)
        else:
            earlier = dict(namespace) if cell["kind"] == "locked" else {}
            try:
                code = compile(cell["source"], f"<cell {index}>", "exec", flags)
                execute(code, namespace, limit)
            except _BaseException:  # noqa: BLE001 - the notebook's own errors: its tests will show them
                pass
            if cell["kind"] == "locked":
                restore_builtins([])
                for name, value in namespace.items():
                    if earlier.get(name, MISSING) is not value and not name.startswith("_"):
                        locked[name] = value
                # A setting a read-only cell makes in a watched module (use_language("es") sets
                # toolfaults.language._current) is the assignment's own: the tests run with it.
                for module, members, _ in modules.values():
                    for key, value in list(vars(module).items()):
                        if not behaviour(value) and members.get(key, MISSING) is not value:
                            members[key] = value
        left -= clock() - started
        if left <= 0:
            send("stopped", reason="time limit")
            break
    check()
    send("done")
    os.close(channel)
    os._exit(0)


def _zygote():  # noqa: C901 - self-contained, as _cleanroom
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

    forks one ipykernel, started as ``python -m ipykernel_launcher -f <connection file>``
    would start it, in ``workdir`` (the grader's copy of the notebook's folder, in a folder
    the sandbox binds read-only). It answers
    ``{"started": <pid>}`` at once; while the kernel runs it takes ``{"signal": <number>}``
    lines (sent to the kernel's process group); once the kernel has exited and its leftovers
    are gone (as after a clean run, plus whatever it left in ``scratch``, the folder of the
    kernels' sockets, except ``keep``), it answers a header as above, with no data.
    """
    import base64
    import importlib
    import json
    import os
    import selectors
    import signal
    import sys
    import time

    # argv: -c zygote <max channel> sandboxed|plain [kernel <modules as JSON>]
    sandboxed = sys.argv[3] == "sandboxed"
    max_channel = int(sys.argv[2])
    kernel_modules = json.loads(sys.argv[5]) if len(sys.argv) > 5 and sys.argv[4] == "kernel" else None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: gone with the grader
        libc.prctl(4, 0)  # PR_SET_DUMPABLE 0: a run cannot open this process's pipes through /proc
    except (OSError, AttributeError):
        pass
    requests = os.dup(0)
    replies = os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    tmp = "/tmp" if sandboxed else os.getcwd()  # the sandbox's own /tmp; without it, the grader's private folder
    keep = set(os.listdir(tmp)) if sandboxed else set()
    for name in ["unittest", "unittest.mock", "json", "json.encoder", "time", "threading", "random", "math",
                 "asyncio", "dis", "ast", "resource", "ctypes"] if kernel_modules is None else \
            [*KERNEL_MODULES, *kernel_modules]:
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001 - a run imports it again and fails as a fresh process would
            pass
    pending = [b""]
    waiting = selectors.DefaultSelector()
    waiting.register(requests, selectors.EVENT_READ)

    def next_line(wait=True):
        """The next request line; None when none has come (``wait=False``); b"" once the grader is gone."""
        while b"\n" not in pending[0]:
            if not wait and not waiting.select(timeout=0):
                return None
            chunk = os.read(requests, 65536)
            if not chunk:
                return b""
            pending[0] += chunk
        line, pending[0] = pending[0].split(b"\n", 1)
        return line + b"\n"

    def answer(header, data=b""):
        out = json.dumps(header).encode() + b"\n" + data
        while out:
            out = out[os.write(replies, out):]

    def reply(data, reason, status):
        answer({"size": len(data), "reason": reason, "status": status}, data)

    def remove(path):
        """Delete a file or a folder tree, whatever permissions the run gave it."""
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                os.chmod(path, 0o700)
                for name in os.listdir(path):
                    remove(os.path.join(path, name))
                os.rmdir(path)
            else:
                os.unlink(path)
        except (OSError, RecursionError):
            pass

    def identity(path):
        try:
            info = os.lstat(path)
            return (info.st_dev, info.st_ino)
        except OSError:
            return None

    home = os.path.join(tmp, "home")  # the sandbox's HOME (sandbox_command: --dir /tmp/home)
    tmp_device = identity(tmp)[0] if sandboxed else None

    def tree(path, found):
        """Every entry under ``path`` on /tmp's own file system (not inside the binds mounted there)."""
        ident = identity(path)
        found[path] = ident
        if ident is not None and ident[0] == tmp_device and os.path.isdir(path) and not os.path.islink(path):
            for name in os.listdir(path):
                tree(os.path.join(path, name), found)
        return found

    # What the sandbox put in /tmp before any run: HOME, and the folders holding its binds (a course
    # kept under /tmp, the kernels' sockets): never removed, and checked to be the very same entries
    # after each run, down to the mount points; anything a run added among them is removed.
    kept = {}
    for name in keep:
        if os.path.join(tmp, name) != home:
            tree(os.path.join(tmp, name), kept)

    def sysv_ipc():
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

    def wipe():
        """Put the sandbox's writable places back as they were: /tmp, its HOME (empty) and /dev/shm.

        Returns whether that worked; if not, this process stops after answering (the grader
        starts another in a new sandbox).
        """
        if not sandboxed:
            return True
        for name in os.listdir(tmp):
            path = os.path.join(tmp, name)
            if path == home:
                if os.path.islink(path) or not os.path.isdir(path):
                    remove(path)
                else:
                    try:
                        os.chmod(path, 0o755)
                    except OSError:
                        pass
                    for inner in os.listdir(path):
                        remove(os.path.join(path, inner))
            elif path not in kept:
                remove(path)
        for name in keep:
            if os.path.join(tmp, name) != home:
                try:
                    for added in sorted(set(tree(os.path.join(tmp, name), {})) - set(kept), key=len):
                        remove(added)
                except (OSError, RecursionError):
                    pass  # the check below fails
        sysv_ipc()
        if "home" in keep and not os.path.isdir(home):
            try:
                os.mkdir(home, 0o755)
            except OSError:
                pass
        try:
            for name in os.listdir("/dev/shm"):
                remove(os.path.join("/dev/shm", name))
        except OSError:
            pass
        try:
            return sorted(os.listdir(tmp)) == sorted(keep) \
                and all(identity(path) == ident for path, ident in kept.items()) \
                and all(set(tree(os.path.join(tmp, name), {})) <= set(kept)
                        for name in keep if os.path.join(tmp, name) != home) \
                and ("home" not in keep or (not os.path.islink(home) and not os.listdir(home))) \
                and not (os.path.isdir("/dev/shm") and os.listdir("/dev/shm"))
        except (OSError, RecursionError):
            return False

    def leftovers(pid):  # whatever the run started: killed once it has exited (it may hold the pipe open)
        try:
            if sandboxed:
                os.kill(-1, signal.SIGKILL)  # in the sandbox's own process namespace: all but us and its init
            else:
                os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass

    def kernel(spec, workdir):
        """Fork one ipykernel, relay signals to it until it exits; its exit status, and whether the grader is gone."""
        pid = os.fork()
        if pid == 0:  # the kernel
            code = 1
            try:
                waiting.close()
                os.close(requests)
                os.close(replies)
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
        answer({"started": pid})
        try:
            exited = os.pidfd_open(pid)  # readable once the kernel has exited
        except (AttributeError, OSError):
            exited = None
        gone, status = False, None
        with selectors.DefaultSelector() as sel:
            sel.register(requests, selectors.EVENT_READ)
            if exited is not None:
                sel.register(exited, selectors.EVENT_READ)
            while status is None:
                events = sel.select(timeout=None if exited is not None else 0.05)
                done, raw = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = raw
                    break
                if not gone and any(key.fd == requests for key, _ in events):
                    while True:
                        line = next_line(wait=False)
                        if line is None:
                            break
                        if not line:  # the grader is gone: so is its kernel
                            gone = True
                            sel.unregister(requests)
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
        if exited is not None:
            os.close(exited)
        leftovers(pid)
        scratch, keep_dir = spec.get("scratch"), spec.get("keep")
        if scratch:
            try:
                for name in os.listdir(scratch):
                    if os.path.join(scratch, name) != keep_dir:
                        remove(os.path.join(scratch, name))
            except OSError:
                pass  # not ours to list (a grader running as root): nothing a kernel could write either
        return os.waitstatus_to_exitcode(status), gone

    number = 0
    while True:
        line = next_line()
        if not line:
            os._exit(0)
        request = json.loads(line)
        if "signal" in request:  # for a kernel that has exited since
            continue
        if "kernel" in request:  # its folder is the grader's copy, in a read-only bind of this sandbox
            code, gone = kernel(request["kernel"], request["kernel"]["workdir"])
            clean = wipe()
            if gone:
                os._exit(0)
            reply(b"", "", code)
            if not clean:
                os._exit(0)
            continue
        payload = request["payload"]
        # What the tests import (the assignment's modules and names, never the notebook's code): loaded
        # here once, as the run would load it first (a package's lazy names too), so that runs start with it.
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
        number += 1
        workdir = os.path.join(tmp, f"clean-room-run-{os.getpid()}-{number}")
        os.mkdir(workdir, 0o755)
        for name, text in request.get("files", {}).items():
            if "/" in name or name in ("", ".", ".."):
                continue
            path = os.path.join(workdir, name)
            with open(path, "wb") as f:
                f.write(base64.b64decode(text))
            os.chmod(path, 0o444)
        os.chmod(workdir, 0o555)  # read-only, as the kernel sees its folder
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the run
            try:
                waiting.close()
                os.close(requests)
                os.close(replies)
                os.close(read)
                os.dup2(write, 1)
                os.close(write)
                os.setsid()
                os.chdir(workdir)
                if kernel_modules is not None and sys.path and sys.path[0] == "":
                    del sys.path[0]  # as in a clean-room process (`python -I`): the run's folder is not on the path
                _cleanroom(payload)
            finally:
                os._exit(1)
        os.close(write)

        try:
            exited = os.pidfd_open(pid)  # readable once the run has exited
        except (AttributeError, OSError):
            exited = None
        chunks, size, reason, status = [], 0, "", None
        deadline = time.monotonic() + float(request.get("deadline", 150.0))
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
                        leftovers(pid)
                        if exited is not None:
                            sel.unregister(exited)
                if not any(key.fd == read for key, _ in events):
                    continue
                chunk = os.read(read, 65536)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > max_channel:
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
        code = os.waitstatus_to_exitcode(status)
        leftovers(pid)
        os.close(read)
        remove(workdir)
        if request.get("scratch"):  # a kernel process's sockets folder (a bind: wipe() leaves what is inside)
            try:
                for name in os.listdir(request["scratch"]):
                    remove(os.path.join(request["scratch"], name))
            except OSError:
                pass
        clean = wipe()
        reply(b"".join(chunks), reason, code)
        if not clean:
            os._exit(0)


if __name__ == "__main__":
    import sys as _sys

    if len(_sys.argv) > 1 and _sys.argv[1] == "zygote":
        _zygote()
    else:
        _cleanroom()
