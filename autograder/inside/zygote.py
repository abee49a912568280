"""A zygote: a process that imports once, then serves clean runs or kernels one after another, each a fork.

It reads one request per line on its stdin (:mod:`.channel`); no notebook code ever runs in it. Each clean run
is a child forked from it (:func:`forked_run`), each kernel too (:mod:`.kernels`); before it answers, the child
and anything it left are gone (:mod:`.wipe`).
"""

import importlib
import json
import os
import selectors
import signal
import sys
import time

from .channel import next_line, reply
from .kernels import KERNEL_MODULES, kernel, leftovers, pidfd
from .run import clean_run
from .watch import ALWAYS, import_watched
from .wipe import empty, identity, remove, tree, wipe


#: A clean-room zygote's imports before it forks runs (what a fresh run imports first).
ZYGOTE_MODULES = (*ALWAYS, "asyncio", "dis", "ast", "resource", "ctypes")


def zygote_start(argv):
    """Set a zygote up (``-c <runner> zygote <max channel> sandboxed|plain [kernel <modules as JSON>]``); its state.

    It dies with the grader and cannot be read or traced by its runs (not dumpable); its requests and
    replies go through private copies of stdin and stdout, then pointed at /dev/null. What its sandbox's
    /tmp holds before any run (HOME and the folders of its binds) is recorded, to be kept.
    """
    sandboxed = argv[3] == "sandboxed"
    kernel_modules = json.loads(argv[5]) if len(argv) > 5 and argv[4] == "kernel" else None
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
    z = {"sandboxed": sandboxed, "max_channel": int(argv[2]), "kernel_modules": kernel_modules,
         "requests": requests, "replies": replies, "waiting": waiting, "pending": b"", "tmp": tmp, "keep": keep,
         "home": home, "tmp_device": identity(tmp)[0] if sandboxed else None}
    # What the sandbox put in /tmp before any run: HOME, and the folders holding its binds (a course
    # kept under /tmp, the kernels' sockets): never removed, and checked to be the very same entries
    # after each run, down to the mount points; anything a run added among them is removed.
    z["kept"] = kept = {}
    for name in keep:
        if os.path.join(tmp, name) != home:
            tree(os.path.join(tmp, name), kept, z["tmp_device"])
    return z


def run_folder(z, files, number):
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


def run_child(z, payload, workdir, read, write):
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
        clean_run(payload)
    finally:
        os._exit(1)


def collect(z, pid, read, deadline):
    """Read the run's results channel until it closes, the deadline passes or it says too much;
    ``(data, reason it was stopped, exit code)``, the run and its leftovers gone."""
    exited = pidfd(pid)
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
                    leftovers(z, pid)
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
    leftovers(z, pid)
    return b"".join(chunks), reason, os.waitstatus_to_exitcode(status)


def forked_run(z, request, number):
    """One clean run in a child forked from this process; ``(data, reason, exit code)`` once it is gone."""
    payload = request["payload"]
    import_watched(payload)  # loaded once here, as the run would load it first
    workdir = run_folder(z, request.get("files", {}), number)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        run_child(z, payload, workdir, read, write)
    os.close(write)
    result = collect(z, pid, read, time.monotonic() + float(request.get("deadline", 150.0)))
    os.close(read)
    remove(workdir)
    if request.get("scratch"):  # a kernel process's sockets folder (a bind: wipe() leaves what is inside)
        empty(request["scratch"])
    return result


def serve(argv):
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

    forks one ipykernel (:func:`kernel`). It answers ``{"started": <pid>}`` at once; while the
    kernel runs it takes ``{"signal": <number>}`` lines (sent to the kernel's process group); once
    the kernel has exited and its leftovers are gone, it answers a header as above, with no data.
    """
    z = zygote_start(argv)
    number = 0
    while True:
        line = next_line(z)
        if not line:
            os._exit(0)
        request = json.loads(line)
        if "signal" in request:  # for a kernel that has exited since
            continue
        if "kernel" in request:
            code, gone = kernel(z, request["kernel"])
            clean = wipe(z)
            if gone:
                os._exit(0)
            reply(z, b"", "", code)
        else:
            number += 1
            data, reason, code = forked_run(z, request, number)
            clean = wipe(z)
            reply(z, data, reason, code)
        if not clean:
            os._exit(0)
