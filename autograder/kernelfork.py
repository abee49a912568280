"""Forked grading kernels: each notebook's kernel is a fork of a warm one.

A fresh sandboxed kernel pays, before its first cell, a Python start, ipykernel's imports
and then the notebook's setup imports (langchain-core, pydantic, the course's
``toolfaults``): 1.5 to 2 s of CPU per graded notebook, more than most notebooks' own
cells. So :class:`autograder.sandbox.SandboxedKernelManager` starts each kernel as a
fork of a long-lived process (a *zygote*, :class:`autograder.forkserver.Zygote` in kernel
mode) that has imported ipykernel and :data:`PRELOAD` once and never runs notebook code:

- the zygote runs in its own sandbox, with the kernel manager's limits; the kernel's
  private folder (connection file and sockets) is made in a folder bound into that
  sandbox (``Zygote.sockets``), and the kernel works in a read-only copy of the
  notebook's folder, as a fresh kernel works in a read-only bind of it;
- each kernel is a fork started as ``python -m ipykernel_launcher -f <connection file> <options>``
  would start it, with the modules loaded and nothing else: the options are the ones the kernel manager's
  command line gives (:func:`kernel_options`; nbclient's ``--HistoryManager.hist_file=:memory:`` among them);
- when a kernel exits, the zygote kills whatever else runs in its sandbox, empties
  ``/tmp``, ``/tmp/home``, ``/dev/shm`` and the System V IPC objects, and checks that
  the folders of its binds are as they were, before it serves another kernel; if it
  cannot, it exits and the grader starts another.

A notebook whose folder holds a subfolder, or more than ``forkserver.MAX_FILES`` bytes,
gets a fresh kernel, as does every notebook with ``c.SandboxedKernelManager.fork = False``.
The zygotes share the clean room's pool (``forkserver.take``, ``give_back``,
``close_zygotes``): a grading process keeps at most ``forkserver.KEEP_IDLE`` idle, and the
clean room's re-runs (``autograder.crosscheck``) are forks of an idle zygote too, between two
kernels, so that a grading process keeps one warm process, not two.

This module depends on :mod:`autograder.forkserver` only; :mod:`autograder.sandbox` uses it.
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Sequence
from typing import Any

from jupyter_client.provisioning import LocalProvisioner

from .forkserver import Zygote, ZygoteGone, give_back

#: What a forked kernel finds imported: what the graded notebooks' setup and test cells import
#: from the installed packages (tests/sandbox/test_kernel_fork.py checks the list covers them).
PRELOAD = (
    "langchain_core.messages", "langchain_core.tools", "pydantic",
    "toolfaults.catalog", "toolfaults.clock", "toolfaults.contract", "toolfaults.errors", "toolfaults.grading_text",
    "toolfaults.idempotency", "toolfaults.language", "toolfaults.models", "toolfaults.plain", "toolfaults.policy",
    "toolfaults.tools",
    "unittest.mock", "inspect", "collections", "threading", "json", "re", "random", "math", "uuid",
)


class ForkedKernel:
    """The grader's handle on one forked kernel, shaped like the ``subprocess.Popen`` a
    ``LocalProvisioner`` holds (``poll``, ``wait``, ``send_signal``, ``kill``, ``terminate``).

    The kernel is the zygote's child, in the zygote's sandbox: signals go through the
    zygote, and its exit status comes back from it once the sandbox is clean again.
    """

    stdin = stdout = stderr = None

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self.zygote: Zygote | None = zygote
        self.pid = pid
        self.returncode: int | None = None
        self.clean = False  # the zygote answered after the kernel's exit: it can serve another

    def _settle(self, deadline: float) -> None:
        if self.returncode is not None or self.zygote is None:
            return
        try:
            answer = self.zygote.header(deadline)
        except (ZygoteGone, ValueError):
            self.returncode = -signal.SIGKILL
            return
        if answer is not None:
            self.returncode = int(answer.get("status", -signal.SIGKILL))
            self.clean = "status" in answer

    def poll(self) -> int | None:
        self._settle(time.monotonic())
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._settle(time.monotonic() + (timeout if timeout is not None else 24 * 3600.0))
        if self.returncode is None:
            raise subprocess.TimeoutExpired(f"forked kernel {self.pid}", timeout or 0)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        if self.returncode is None and self.zygote is not None:
            try:
                self.zygote.send({"signal": int(signum)})
            except ZygoteGone:
                pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def release(self) -> None:
        """Give the zygote back once the kernel has exited and the sandbox is clean; otherwise stop it."""
        zygote = self.zygote
        if zygote is None:
            return
        if self.returncode is None:
            self.kill()
            try:
                self.wait(10)
            except subprocess.TimeoutExpired:
                pass
        self.zygote = None
        if self.clean:
            give_back(zygote)
        else:
            zygote.close()


def kernel_options(cmd: list[str]) -> list[str]:
    """The options a kernel's command line gives after its connection file (``... -f <file> --A.b=c ...``):
    what a forked kernel is started with too. nbclient adds ``--HistoryManager.hist_file=:memory:`` (no
    history file) and the grader's ``GuardedExecute.extra_arguments`` ``--IPKernelApp.log_level=ERROR``; a
    fork that dropped them would write every cell it runs to a history database and log what a fresh kernel
    does not."""
    if "-f" not in cmd:
        return []
    return [arg for arg in cmd[cmd.index("-f") + 2:] if arg.startswith("--")]


def start(zygote: Zygote, connection_file: str, log: str, keep: str, workdir: str, timeout: float,
          options: Sequence[str] = ()) -> ForkedKernel:
    """Ask ``zygote`` for a kernel reading ``connection_file``, writing to ``log``, working in ``workdir``,
    started with ``options`` (:func:`kernel_options`).

    ``keep`` (the kernel's folder, holding its connection file and log) is what the zygote
    leaves in its sockets folder when the kernel has exited. ``timeout``: the seconds the zygote may take
    to fork it (the kernel manager's ``startup_timeout``).

    Raises:
        ZygoteGone: the zygote died or did not answer (the caller may start another, or a fresh kernel).
    """
    zygote.send({"kernel": {"connection_file": connection_file, "log": log, "workdir": workdir,
                            "scratch": str(zygote.sockets), "keep": keep, "options": list(options)}})
    answer = zygote.header(time.monotonic() + timeout)
    if answer is None or "started" not in answer:
        zygote.close()
        raise ZygoteGone(f"the kernel process answered {answer!r} instead of starting a kernel")
    return ForkedKernel(zygote, int(answer["started"]))


class ForkedProvisioner(LocalProvisioner):  # type: ignore[misc]
    """A provisioner whose kernel is a fork (:class:`ForkedKernel`) of its kernel manager's zygote.

    The manager (:class:`autograder.sandbox.SandboxedKernelManager`) picks the zygote and
    the folders; everything else (connection file, polling, signals, shutdown) is
    ``LocalProvisioner``'s, working on the handle as on a ``Popen``.
    """

    forked: ForkedKernel | None = None

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> Any:
        self.forked = self.process = self.parent.launch_forked(kernel_options(cmd))
        self.pid = self.process.pid
        self.pgid = None  # signals go to the kernel's own group, through the zygote
        self.cwd = kwargs.get("cwd")
        return self.connection_info

    async def cleanup(self, restart: bool = False) -> None:
        await super().cleanup(restart=restart)
        if self.forked is not None:
            self.forked.release()
            self.forked = None
