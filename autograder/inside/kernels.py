"""Grading kernels forked from a zygote (:mod:`autograder.kernelfork` asks for them): one ipykernel a request,
the grader's signals relayed to it until it exits, its leftovers gone."""

import json
import os
import selectors
import signal
import sys
import zlib

from .channel import answer, next_line
from .wipe import empty


#: What a zygote in kernel mode imports before it forks kernels, besides the notebooks' setup
#: imports (``autograder.kernelfork.PRELOAD``): ipykernel, and the kernel's debugger (debugpy),
#: which a kernel otherwise imports as it starts, 0.1 s of CPU each (tests/sandbox/test_kernel_fork.py
#: checks that a kernel started from these imports nothing more of ipykernel or debugpy).
KERNEL_MODULES = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.debugger")


def cell_name_hash(data, seed):
    """What a forked kernel names each cell's code by, in place of ipykernel's ``murmur2_x86``: the same role
    (a 32-bit number per source, seeded as ipykernel seeds it; IPython shows ``Cell In[n]`` whatever the
    number), computed in C. ipykernel's is pure Python: 5.8 ms for the helper package check the grader puts
    twice in every test cell (31,000 characters), about a third of what a test cell costs the kernel."""
    return zlib.crc32(data.encode("utf-8", "surrogatepass"), seed & 0xFFFFFFFF)


def pidfd(pid):
    """A descriptor readable once ``pid`` has exited; None where there is none (then it is polled)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def leftovers(z, pid):
    """Whatever the run started: killed once it has exited (it may hold the pipe open)."""
    try:
        if z["sandboxed"]:
            os.kill(-1, signal.SIGKILL)  # in the sandbox's own process namespace: all but us and its init
        else:
            os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass


def kernel_child(z, spec, workdir):
    """In the forked child: become the kernel, as ``python -m ipykernel_launcher -f <file> <options>`` starts it
    (``spec["options"]``: the kernel manager's, such as ``--HistoryManager.hist_file=:memory:``); never returns."""
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
        sys.argv = ["ipykernel_launcher", "-f", spec["connection_file"], *spec.get("options", ())]
        from ipykernel import compiler, kernelapp

        compiler.murmur2_x86 = cell_name_hash
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


def relay_signals(z, pid, exited):
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
                    line = next_line(z, wait=False)
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


def kernel(z, spec):
    """Fork one ipykernel, relay signals to it until it exits; its exit code, and whether the grader is gone.

    The kernel works in ``spec["workdir"]``, the grader's copy of the notebook's folder, in a read-only bind
    of this sandbox; once it has exited, its leftovers and what it left in ``spec["scratch"]`` (the kernels'
    sockets folder) but ``spec["keep"]`` are gone.
    """
    pid = os.fork()
    if pid == 0:
        kernel_child(z, spec, spec["workdir"])
    answer(z, {"started": pid})
    exited = pidfd(pid)
    status, gone = relay_signals(z, pid, exited)
    if exited is not None:
        os.close(exited)
    leftovers(z, pid)
    if spec.get("scratch"):
        empty(spec["scratch"], spec.get("keep"))  # not ours to list (a grader running as root): nothing to do
    return os.waitstatus_to_exitcode(status), gone
