"""Running the notebook's cells: a test between two checks (:mod:`.checks`), any other cell as it is.

A test cell runs in its own copy of the namespace with the real builtins and the values the read-only cells
defined, so a notebook global that shadows one of them (``isinstance = ...``) is not seen by the test. Each
function takes its helpers as default arguments, bound before notebook code runs.
"""

import ast
import builtins
import dis
import signal
import sys
import time
import types

from .checks import check, restore_builtins
from .watch import MISSING, behaviour


FLAGS = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


CO_COROUTINE = 0x80 | 0x100 | 0x200  # CO_COROUTINE | CO_ITERABLE_COROUTINE | CO_ASYNC_GENERATOR


class CellTimeout(BaseException):
    pass


def on_alarm(signum, frame, _timeout=CellTimeout):
    raise _timeout()


class Shell:  # the few IPython calls an honest notebook makes (magics, shell commands)
    def __init__(self, namespace):
        self._namespace = namespace

    def run_cell_magic(self, name, line, cell):
        exec(compile(cell, "<cell magic>", "exec"), self._namespace)

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


def notebook_namespace():
    """A fresh ``__main__`` for the notebook, with the real builtins and a stand-in ``get_ipython``."""
    main = types.ModuleType("__main__")
    namespace = main.__dict__
    namespace["__builtins__"] = builtins
    shell = Shell(namespace)
    namespace["get_ipython"] = lambda: shell
    namespace["display"] = lambda *args, **kwargs: None
    sys.modules["__main__"] = main
    sys.argv = [""]
    return namespace


def global_names(code, instructions=dis.get_instructions, code_type=types.CodeType):
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


def execute(code, ns, limit, loop, run=exec, evaluate=eval, setitimer=signal.setitimer, timer=signal.ITIMER_REAL,
             coroutine=CO_COROUTINE):
    setitimer(timer, limit)
    try:
        if code.co_flags & coroutine:
            loop.run_until_complete(evaluate(code, ns))  # top-level await, as IPython runs it
        else:
            run(code, ns)
    finally:
        setitimer(timer, 0)


def describe(err, _timeout=CellTimeout):
    try:
        text = str(err)
    except BaseException:  # noqa: BLE001
        text = ""
    if isinstance(err, _timeout):
        return "CellTimeoutError: the test did not finish within the time limit in the clean run"
    name = type(err).__name__
    return (f"{name}: {text}" if text else name)[:2000]


def test_namespace(room, code, before, missing=MISSING, global_names=global_names):
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


def run_test(room, index, cell, limit, check=check, describe=describe, test_namespace=test_namespace,
              execute=execute, real=builtins, missing=MISSING, flags=FLAGS, _BaseException=BaseException):
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


def run_other(room, index, cell, limit, execute=execute, restore_builtins=restore_builtins,
               behaviour=behaviour, missing=MISSING, flags=FLAGS, _BaseException=BaseException):
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


def run_cells(payload, room, check=check, run_test=run_test, run_other=run_other, clock=time.monotonic,
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
