"""The code that runs inside the sandbox (``autograder/inside/``), one module at a time, with no sandbox and no kernel.

What it does as a whole, in the sandbox and against notebooks that try to get around it, is proven by the catalogue
of tricks (tests/tricks/) and the fork server's tests (tests/sandbox/test_kernel_fork.py); here each module is
called directly: the checks put back what was changed and say so, the cells run as in a notebook, a clean run
speaks its protocol, a zygote's channel and wipe do what they say. Nothing here waits for real time: time limits
are set through the functions' own ``setitimer`` argument.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import selectors
import signal
import subprocess
import sys
import types

import pytest

from autograder import forkserver
from autograder.inside import cells, channel, checks, kernels, main, run, watch, wipe, zygote

TOKEN = "t0k3n"


def _module(name: str, **members) -> types.ModuleType:
    """A module of our own in ``sys.modules`` (removed by the fixture below)."""
    module = types.ModuleType(name)
    vars(module).update(members)
    sys.modules[name] = module
    return module


@pytest.fixture
def fake():
    """A watched module with a function, a class and a setting; gone after the test."""
    def double(x):
        return 2 * x

    class Tool:
        def run(self):
            return "ok"

    yield _module("inside_fake", double=double, Tool=Tool, setting=1)
    sys.modules.pop("inside_fake", None)


def _snap(*names: str) -> dict:
    return watch.snapshot(list(names))


# -- watch ---------------------------------------------------------------------------------------
def test_the_snapshot_records_what_a_module_holds_and_its_functions_code(fake):
    snap = _snap("inside_fake")
    module, members, strict = snap["modules"]["inside_fake"]
    assert module is fake and members["double"] is fake.double and not strict
    assert any(label == "inside_fake.double" for _, _, label in snap["funcs"].values())
    assert any(label.endswith("Tool.run") for _, _, label in snap["funcs"].values())
    assert snap["builtins"]["len"] is len and snap["meta_path"] == list(sys.meta_path)


def test_what_the_tests_import_is_imported_and_watched_with_what_is_always_watched():
    watched = watch.import_watched({"watch": ["json"], "preload": ["no_such_module_x"], "names": [["json", "decoder"]]})
    assert "json" in watched and "json.decoder" in sys.modules and "unittest.mock" in watched
    assert "no_such_module_x" not in watched, "a module that does not import is left to the test that imports it"


def test_code_and_settings_are_told_apart_and_a_closure_is_part_of_a_function_s_state():
    assert watch.behaviour(len) and watch.behaviour(watch) and not watch.behaviour(3) and not watch.behaviour("x")
    prop = property(lambda self: 1)
    assert watch.functions_of(prop) == [prop.fget] and watch.functions_of(staticmethod(len)) == []

    def outer():
        y = 1

        def inner():
            return y
        return inner
    state = watch.state_of(outer())
    assert state[3] == (1,) and state[0] is outer().__code__


# -- checks --------------------------------------------------------------------------------------
def test_a_replaced_function_a_removed_name_and_an_added_one_are_put_back_and_said(fake):
    snap = _snap("inside_fake")
    original = fake.double
    fake.double = lambda x: 0
    del fake.Tool
    fake.setting = 2  # a setting, not code: a non-strict module may change it
    found = checks.check(snap)
    assert "inside_fake.double was replaced" in found and "inside_fake.Tool was removed" in found
    assert fake.double is original and fake.Tool is snap["modules"]["inside_fake"][1]["Tool"] and fake.setting == 2


def test_changed_code_a_patched_method_and_a_builtin_are_put_back(fake):
    snap = _snap("inside_fake")
    code = fake.double.__code__
    fake.double.__code__ = (lambda x: 0).__code__
    fake.Tool.run = lambda self: "forged"
    builtins.__dict__["inside_added"] = 1
    real_len = builtins.len
    builtins.len = lambda x: 0
    try:
        found = checks.check(snap)
    finally:
        builtins.len = real_len
        builtins.__dict__.pop("inside_added", None)
    assert "the code of inside_fake.double was changed" in found and fake.double.__code__ is code
    assert any(line.endswith("Tool.run was replaced") for line in found) and fake.Tool().run() == "ok"
    assert "the built-in len was replaced" in found and "the built-in name inside_added was added" in found
    assert checks.check(snap) == [], "once put back, nothing is left to say"


def test_replacing_the_checks_own_names_does_not_change_the_check(fake, monkeypatch):
    """Each part takes what it uses as default arguments: a notebook that replaces these modules' names (they are
    importable inside the sandbox) changes nothing of the check that runs."""
    snap = _snap("inside_fake")
    for name in ("check_modules", "check_functions", "restore_builtins", "check_classes"):
        monkeypatch.setattr(checks, name, lambda *args, **kwargs: None)
    monkeypatch.setattr(watch, "behaviour", lambda value: False)
    monkeypatch.setattr(checks, "behaviour", lambda value: False)
    fake.double = lambda x: 0
    assert "inside_fake.double was replaced" in checks.check(snap)


def test_the_import_system_put_back():
    snap = _snap()
    finder = type("Finder", (), {"find_spec": staticmethod(lambda *args: None)})()
    sys.meta_path.insert(0, finder)
    try:
        found = checks.check(snap)
    finally:
        if finder in sys.meta_path:
            sys.meta_path.remove(finder)
    assert found == ["the import system was changed"] and finder not in sys.meta_path


# -- cells ---------------------------------------------------------------------------------------
def test_a_test_reads_the_names_it_does_not_define_itself():
    code = compile("x = len(y)\ndef f():\n    return z + x\n", "<t>", "exec")
    assert cells.global_names(code) == {"len", "y", "z"}


def test_errors_are_described_as_a_test_failure_shows_them():
    assert cells.describe(AssertionError("double(2) must be 4")) == "AssertionError: double(2) must be 4"
    assert cells.describe(KeyError()) == "KeyError"
    assert "time limit" in cells.describe(cells.CellTimeout())
    assert len(cells.describe(ValueError("x" * 5000))) == 2000


def test_a_cell_runs_within_its_time_limit_and_top_level_await_works():
    timers = []
    ns = {"__builtins__": builtins}
    loop = __import__("asyncio").new_event_loop()
    try:
        cells.execute(compile("import asyncio\nx = await asyncio.sleep(0, 7)", "<c>", "exec", cells.FLAGS), ns, 2.5,
                      loop, setitimer=lambda timer, seconds: timers.append(seconds))
    finally:
        loop.close()
    assert ns["x"] == 7 and timers == [2.5, 0], "the timer is set to the limit, then switched off"


def _room(namespace: dict | None = None, snap: dict | None = None) -> tuple[dict, list]:
    sent: list = []
    snap = snap or _snap()
    room = {"send": lambda kind, **data: sent.append({"kind": kind, **data}), "snap": snap,
            "namespace": namespace if namespace is not None else {"__builtins__": builtins},
            "locked": {}, "real_builtins": dict(snap["builtins"]), "loop": __import__("asyncio").new_event_loop()}
    return room, sent


def _run_cells(plan: list[tuple[str, str]], room: dict) -> None:
    payload = {"cells": [{"kind": kind, "id": f"c{i}", "source": source} for i, (kind, source) in enumerate(plan)],
               "cell_timeout": 30, "notebook_timeout": 120}
    previous = signal.signal(signal.SIGALRM, cells.on_alarm)
    try:
        cells.run_cells(payload, room)
    finally:
        signal.signal(signal.SIGALRM, previous)
        room["loop"].close()


def test_the_cells_run_in_order_and_each_test_reports_once():
    room, sent = _room()
    _run_cells([("answer", "def f():\n    return 1"), ("test", "assert f() == 1"), ("test", "assert f() == 2, 'no'"),
                ("test", "def broken(:")], room)
    tests = [m for m in sent if m["kind"] == "test"]
    assert [m["kind"] for m in sent][0] == "ready" and sent[-1] == {"kind": "done"}
    assert [(t["id"], t["passed"]) for t in tests] == [("c1", True), ("c2", False), ("c3", False)]
    assert tests[1]["message"] == "AssertionError: no" and tests[2]["message"].startswith("SyntaxError")


def test_a_read_only_cell_s_helper_redefined_by_the_answer_is_not_what_the_test_sees():
    room, sent = _room()
    _run_cells([("locked", "def helper():\n    return 'real'"), ("answer", "def helper():\n    return 'fake'"),
                ("test", "assert helper() == 'real'"), ("test", "isinstance = None\nassert True")], room)
    findings = [m for m in sent if m["kind"] == "finding"]
    tests = [m for m in sent if m["kind"] == "test"]
    assert tests[0]["passed"] and findings and "helper, defined by a read-only cell, was redefined" in findings[0]["what"]


def test_a_change_made_while_a_test_runs_fails_that_test(fake):
    room, sent = _room(snap=_snap("inside_fake"))
    _run_cells([("test", "import inside_fake\ninside_fake.double = lambda x: 4\nassert True")], room)
    test = next(m for m in sent if m["kind"] == "test")
    assert not test["passed"] and "inside_fake.double was replaced" in test["what"]


# -- run: one clean run, its protocol -------------------------------------------------------------
def _payload(*plan: tuple[str, str]) -> dict:
    return {"token": TOKEN, "cells": [{"kind": k, "id": f"c{i}", "source": s} for i, (k, s) in enumerate(plan)],
            "watch": [], "names": [], "preload": [], "cell_timeout": 30, "notebook_timeout": 120}


def _messages(data: bytes) -> list[dict]:
    lines = data.decode().splitlines()
    assert all(line.startswith(TOKEN) for line in lines), lines
    return [ast.literal_eval(line[len(TOKEN):]) for line in lines]


def _in_child(call, stdin: bytes = b"") -> bytes:
    """``call()`` in a child of this process whose stdin and stdout are pipes, as a runner process's are; what it
    wrote on stdout (the results channel) once it has exited with status 0."""
    stdin_read, stdin_write = os.pipe()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            os.close(stdin_write)
            os.dup2(stdin_read, 0)
            os.dup2(write, 1)
            sys.stdin = os.fdopen(0, "r")  # pytest's stand-in stdin cannot be read
            call()
        finally:
            os._exit(3)
    os.close(write)
    os.close(stdin_read)
    os.write(stdin_write, stdin)
    os.close(stdin_write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return data


NOTEBOOK = (("answer", "print('not a result')\ndef f():\n    return 1"), ("test", "assert f() == 1"))


def test_a_clean_run_speaks_its_protocol_on_a_private_channel():
    """run.clean_run: the notebook's prints never reach the channel."""
    data = _in_child(lambda: run.clean_run(_payload(*NOTEBOOK)))
    kinds = [m["kind"] for m in _messages(data)]
    assert kinds == ["ready", "cell", "cell", "test", "done"] and b"not a result" not in data


def test_with_no_zygote_argument_main_makes_one_run_of_the_payload_on_stdin():
    data = _in_child(lambda: main.main(["-c"]), json.dumps(_payload(*NOTEBOOK)).encode())
    tests = [m for m in _messages(data) if m["kind"] == "test"]
    assert [(t["id"], t["passed"]) for t in tests] == [("c1", True)]


def test_the_boot_code_loads_the_package_by_its_folder_and_changes_nothing_a_notebook_sees(tmp_path):
    """``python -I -c <boot>`` with no argument is one fresh run (main.main): the grader's packages are not
    importable there, sys.path is what ``python -I`` gives, and the package runs under its own name."""
    plain = subprocess.run([sys.executable, "-I", "-c", "import sys; print(repr(sys.path))"],
                           capture_output=True, text=True, cwd=tmp_path, check=True).stdout.strip()
    probe = ("import sys\n"
             f"assert repr(sys.path) == {plain!r}, sys.path\n"
             f"assert {forkserver.INSIDE_NAME!r} + '.checks' in sys.modules\n"
             "assert not [n for n in sys.modules if n.split('.')[0] == 'autograder']\n")
    done = subprocess.run(forkserver.runner_argv(), input=json.dumps(_payload(("test", probe))).encode(),
                          capture_output=True, cwd=tmp_path, timeout=60)
    tests = [m for m in _messages(done.stdout) if m["kind"] == "test"]
    assert done.returncode == 0 and tests == [{"kind": "test", "id": "c0", "passed": True, "message": "", "what": []}]


# -- channel ---------------------------------------------------------------------------------------
def _zygote_state(tmp_path) -> tuple[dict, int, int]:
    requests, to_zygote = os.pipe()
    from_zygote, replies = os.pipe()
    waiting = selectors.DefaultSelector()
    waiting.register(requests, selectors.EVENT_READ)
    z = {"sandboxed": False, "max_channel": 1 << 20, "kernel_modules": None, "requests": requests,
         "replies": replies, "waiting": waiting, "pending": b"", "tmp": str(tmp_path), "keep": set(),
         "home": str(tmp_path / "home"), "tmp_device": None, "kept": {}}
    return z, to_zygote, from_zygote


def test_requests_come_a_line_at_a_time_and_a_reply_is_a_header_then_its_data(tmp_path):
    z, to_zygote, from_zygote = _zygote_state(tmp_path)
    os.write(to_zygote, b'{"a": 1}\n{"b"')
    assert channel.next_line(z) == b'{"a": 1}\n'
    assert channel.next_line(z, wait=False) is None, "half a line is not a request"
    os.write(to_zygote, b': 2}\n')
    assert json.loads(channel.next_line(z)) == {"b": 2}
    os.close(to_zygote)
    assert channel.next_line(z) == b"", "the grader is gone"
    channel.reply(z, b"DATA", "timeout", 9)
    header, data = os.read(from_zygote, 4096).split(b"\n", 1)
    assert json.loads(header) == {"size": 4, "reason": "timeout", "status": 9} and data == b"DATA"


# -- wipe ------------------------------------------------------------------------------------------
def test_a_tree_a_run_made_read_only_is_removed_and_a_kept_entry_stays(tmp_path):
    tree = tmp_path / "left" / "deep"
    tree.mkdir(parents=True)
    (tree / "f").write_text("x")
    (tree / "f").chmod(0o400)
    tree.chmod(0o500)
    (tmp_path / "left").chmod(0o500)
    (tmp_path / "keep").write_text("k")
    found = wipe.tree(str(tmp_path), {}, wipe.identity(str(tmp_path))[0])
    assert str(tree / "f") in found and found[str(tmp_path)] == wipe.identity(str(tmp_path))
    wipe.empty(str(tmp_path), keep=str(tmp_path / "keep"))
    assert os.listdir(tmp_path) == ["keep"]
    wipe.remove(str(tmp_path / "keep"))
    assert os.listdir(tmp_path) == [] and wipe.identity(str(tmp_path / "keep")) is None


def test_a_zygote_without_a_sandbox_leaves_the_host_alone():
    """Without a sandbox /tmp and /dev/shm are the host's: nothing is wiped (a run's group is killed instead)."""
    assert wipe.wipe({"sandboxed": False}) is True


# -- kernels ---------------------------------------------------------------------------------------
def test_the_grader_s_signals_reach_the_process_and_a_grader_gone_kills_it(tmp_path):
    z, to_zygote, _ = _zygote_state(tmp_path)
    child = subprocess.Popen(["sleep", "300"], start_new_session=True)
    os.write(to_zygote, b'{"signal": 15}\n')
    status, gone = kernels.relay_signals(z, child.pid, kernels.pidfd(child.pid))
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM and not gone
    other = subprocess.Popen(["sleep", "300"], start_new_session=True)
    os.close(to_zygote)
    status, gone = kernels.relay_signals(z, other.pid, kernels.pidfd(other.pid))
    assert gone and os.WTERMSIG(status) == signal.SIGKILL
    assert "ipykernel.kernelapp" in kernels.KERNEL_MODULES


def test_what_a_run_started_is_killed_with_it(tmp_path):
    child = subprocess.Popen(["sh", "-c", "sleep 300 & sleep 300"], start_new_session=True)
    kernels.leftovers({"sandboxed": False}, child.pid)
    assert child.wait(timeout=30) == -signal.SIGKILL


# -- zygote ----------------------------------------------------------------------------------------
def test_a_forked_run_sees_a_read_only_copy_of_its_folder_and_answers_once_it_is_gone(tmp_path):
    z, _, _ = _zygote_state(tmp_path)
    files = {"data.txt": "aGVsbG8=", "../escape": "eA==", "": "eA=="}  # base64 of "hello", and two bad names
    probe = ("import os, stat\nassert open('data.txt').read() == 'hello'\nassert os.listdir('.') == ['data.txt']\n"
             "assert stat.S_IMODE(os.stat('.').st_mode) == 0o555 and stat.S_IMODE(os.stat('data.txt').st_mode) == 0o444\n")
    data, reason, code = zygote.forked_run(z, {"payload": _payload(("test", probe)), "files": files,
                                               "deadline": 60}, 1)
    messages = _messages(data)
    tests = [m for m in messages if m["kind"] == "test"]
    # Once the channel closes the child is killed if it has not exited yet: its status matters only to a run that
    # did not say "done" (autograder.cleanroom.run).
    assert reason == "" and code in (0, -signal.SIGKILL) and messages[-1] == {"kind": "done"} and tests[0]["passed"]
    assert os.listdir(tmp_path) == [], "its folder is gone, and nothing was written beside it"


def test_the_zygote_imports_what_a_fresh_run_imports_first():
    assert set(watch.ALWAYS) <= set(zygote.ZYGOTE_MODULES)
