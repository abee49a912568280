"""Sandboxed kernels: grade untrusted notebooks without trusting them.

Every graded notebook gets its own kernel inside a bubblewrap sandbox::

    no network              --unshare-all: a private network namespace with only its own
                            loopback; a server on the grader's 127.0.0.1 is unreachable
    almost nothing visible  read-only: /usr, the Python interpreter, the venv, the course's
                            toolfaults package, and the submission's own autograded copy
                            (the kernel's working directory); no gradebook, no other
                            students, no home folder, no /etc, no /root beyond the interpreter
    no secrets              the environment is rebuilt from scratch (--clearenv): no API
                            keys or tokens of the grader; HOME is an empty scratch folder
    limits (prlimit)        memory (--data, 1 GiB), size of any written file (--fsize,
                            64 MiB), CPU seconds, no core dumps; writable space is a
                            size-capped tmpfs (/tmp, 256 MiB) and nothing else
    nobody                  uid/gid 65534, every capability dropped, new session, killed
                            with its parent

The grader still talks to the kernel: with the network unshared, ZMQ over TCP cannot
work, so the kernel uses the ``ipc`` transport (Unix sockets) in a private folder that
only this kernel sees, bound into the sandbox alone. When the grader runs as root, that
folder is locked as soon as the kernel's sockets exist, so the notebook cannot write
there either.

How nbgrader uses it: ``Autograde.autograde_preprocessors`` gets :class:`SandboxedExecute`
in place of nbgrader's ``Execute``; it runs notebooks with :class:`SandboxedKernelManager`,
whose kernels run in :func:`autograder.jail.sandbox_command` (the notebook's kernelspec
metadata is ignored), each a fork of a warm kernel process where it can be
(:mod:`autograder.kernelfork`, :mod:`autograder.forkserver`). Learners are unaffected:
nothing changes in ``nbgrader_config.py`` or in JupyterLab.

The sandbox's configuration has one form, :func:`course_settings`::

    course = Course(config=course_settings())              # what the grade command builds
    course.configure(course_settings(memory_limit=2**30))  # an existing Course, in place
    where_available()                                      # course_settings() where the sandbox runs, else {}

Grading without it is only ever asked for (``--unsandboxed``), and said loudly
(:func:`warn_unsandboxed`). Limits are traits of :class:`SandboxedKernelManager`
(``c.SandboxedKernelManager.memory_limit`` and friends), :func:`course_settings`'s keyword arguments.

Layers (each depends only on those above it): :mod:`autograder.jail` (the command line),
:mod:`autograder.forkserver` (warm processes), :mod:`autograder.kernelfork` (a forked kernel),
this module (the kernel manager and nbgrader's configuration).
"""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from jupyter_client.kernelspec import KernelSpec
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from traitlets import Bool, Integer, List, Type, Unicode, default
from traitlets.config import Config

from . import forkserver
from .jail import GiB, MiB, NOBODY, SandboxUnavailable, _short_tmp, check_sandbox, sandbox_available, sandbox_command
from .kernelfork import PRELOAD, ForkedProvisioner, start

__all__ = ["SandboxError", "SandboxUnavailable", "SandboxedKernelClient", "SandboxedKernelManager",
           "check_sandbox", "course_settings", "is_sandboxed", "kernel_fork_settings", "sandbox_available",
           "sandbox_command", "sandbox_limits", "sandboxed_class", "startup_overhead", "warn_unsandboxed",
           "where_available"]

SOCKET_NAMES = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")

UNSANDBOXED_WARNING = """\
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!!  GRADING WITHOUT A SANDBOX (--unsandboxed).                                       !!
!!  Every student's code runs as you, with your files, your environment variables   !!
!!  (API keys included) and your network: it can read or change the gradebook and   !!
!!  other students' submissions. Only do this for code you trust.                    !!
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"""



class SandboxError(RuntimeError):
    """A sandboxed kernel did not start."""



#: The traits of :class:`SandboxedKernelManager` that are :func:`sandbox_command`'s keyword arguments.
LIMIT_TRAITS = ("memory_limit", "file_size_limit", "tmp_size", "cpu_limit", "open_files",
                "extra_readonly", "passthrough_env", "bwrap")


def sandbox_limits(read: Any) -> dict[str, Any]:
    """:func:`sandbox_command`'s keyword arguments, each trait of :data:`LIMIT_TRAITS` read with ``read(name)``
    (an empty ``bwrap`` is left out: found on PATH)."""
    limits = {name: read(name) for name in LIMIT_TRAITS}
    limits.update({name: list(limits[name]) for name in ("extra_readonly", "passthrough_env")})
    if not limits["bwrap"]:
        del limits["bwrap"]
    return limits


# -- the kernel manager ----------------------------------------------------------------------
class SandboxedKernelClient(AsyncKernelClient):
    """The grader's client of a sandboxed kernel: locks the kernel's folder once it is ready."""

    async def wait_for_ready(self, timeout: float | None = None) -> None:  # type: ignore[override]
        await self._until_ready(timeout)
        lock = getattr(self.parent, "lock", None)
        if lock is not None:
            lock()

    async def _until_ready(self, timeout: float | None) -> None:
        """jupyter_client's ``wait_for_ready`` but for its last step.

        As there, ask for ``kernel_info`` until the kernel replies and a message comes through
        IOPub (its subscription is live). jupyter_client then waits until IOPub has been silent
        for 0.2 s, which is 0.2 s of every graded notebook; here what is queued is drained without
        waiting. A status message that comes later belongs to a ``kernel_info`` request, and
        nbclient reads only the messages of the cell it runs.
        """
        from queue import Empty

        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            self.kernel_info()
            try:
                reply = await self.shell_channel.get_msg(timeout=1)
            except Empty:
                pass
            else:
                if reply["msg_type"] == "kernel_info_reply":
                    try:
                        await self.iopub_channel.get_msg(timeout=0.2)
                    except Empty:
                        pass  # IOPub not connected yet: ask again
                    else:
                        self._handle_kernel_info_reply(reply)
                        break
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")
        while True:
            try:
                await self.iopub_channel.get_msg(timeout=0)
            except Empty:
                return


class SandboxedKernelManager(AsyncKernelManager):
    """An async kernel manager whose kernels run in the sandbox over the ``ipc`` transport.

    Each kernel gets a private folder (connection file + Unix sockets) bound into its
    sandbox alone; the notebook's kernelspec is ignored: the kernel is always this
    interpreter's ipykernel.
    """

    memory_limit = Integer(1 * GiB, config=True, help="RLIMIT_DATA of the kernel, in bytes (prlimit --data).")
    file_size_limit = Integer(64 * MiB, config=True, help="Largest file the kernel may write (prlimit --fsize).")
    tmp_size = Integer(256 * MiB, config=True, help="Size of the kernel's writable /tmp (tmpfs), in bytes.")
    cpu_limit = Integer(600, config=True, help="CPU seconds before the kernel is killed (0: none).")
    open_files = Integer(1024, config=True, help="Open file descriptors (prlimit --nofile).")
    extra_readonly = List(Unicode(), config=True, help="More host folders the kernel may read.")
    passthrough_env = List(Unicode(), ["TOOLFAULTS_MODE", "PYTHONHASHSEED", "TZ"], config=True,
                           help="Variables copied from the grader's environment (never secrets).")
    bwrap = Unicode("", config=True, help="Path of bwrap (default: found on PATH).")
    lock_kernel_dir = Bool(True, config=True,
                           help="As root, make the kernel's folder unwritable once the kernel answers.")
    startup_timeout = Integer(60, config=True,
                              help="Seconds a kernel may take to start: for its warm process to fork it, then for "
                                   "its sockets to open. A grading task's time limit allows this much for each "
                                   "start attempt (GuardedExecute.start_attempts; autograder.grade.task_time_limit).")
    fork = Bool(True, config=True,
                help="Start each kernel as a fork of a warm kernel process that has imported `preload` "
                     "(autograder.kernelfork); False: a fresh Python and sandbox per kernel.")
    preload = List(Unicode(), config=True,
                   help="Modules a forked kernel finds imported (default: autograder.kernelfork.PRELOAD).")

    base_dir = Unicode("", help="Grader-only folder of this kernel (log) holding its private folder.")

    client_factory = Type(klass="jupyter_client.asynchronous.AsyncKernelClient",
                          default_value="autograder.sandbox.SandboxedKernelClient")

    @default("transport")
    def _transport_default(self) -> str:
        return "ipc"

    async def _async_wait(self, pollinterval: float = 0.1) -> None:
        # jupyter_client looks every 0.1 s whether a stopped kernel has exited: 0.1 s of every graded
        # notebook. Looking costs a non-blocking read (a forked kernel's exit is a message from its zygote).
        await super()._async_wait(pollinterval=min(pollinterval, 0.01))

    @default("kernel_name")
    def _kernel_name_default(self) -> str:
        return "python3"

    @property
    def kernel_spec(self) -> KernelSpec:  # type: ignore[override]
        # Whatever the notebook says, the kernel is this interpreter's ipykernel, in the sandbox.
        if self._kernel_spec is None or not getattr(self._kernel_spec, "_sandboxed", False):
            argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
            spec = KernelSpec(argv=argv, display_name="Python 3 (sandboxed)", language="python",
                              interrupt_mode="message", env={}, metadata={})
            spec._sandboxed = True  # type: ignore[attr-defined]
            self._kernel_spec = spec
        return self._kernel_spec

    @property
    def ipykernel(self) -> bool:  # type: ignore[override]
        return True

    @default("preload")
    def _preload_default(self) -> list[str]:
        return list(PRELOAD)

    # -- start -----------------------------------------------------------------------
    def _private_dir(self, parent: Path | None = None) -> Path:
        self._remove_dirs()  # a restart gets a fresh folder
        base = Path(tempfile.mkdtemp(prefix="nbsbx-", dir=parent or _short_tmp())).resolve()
        self.base_dir = str(base)
        private = base / "k"
        private.mkdir(mode=0o700)
        if os.geteuid() == 0:
            # The kernel maps to root on the host: it would own a root folder and could
            # unlock it. Owned by nobody, the kernel uses the "other" bits instead, which
            # the grader removes once the kernel has answered (see lock).
            os.chown(private, NOBODY, NOBODY)
            private.chmod(0o703)
        return private

    def _limits(self) -> dict[str, Any]:
        return sandbox_limits(lambda name: getattr(self, name))

    def _fork_settings(self) -> forkserver.Settings:
        return forkserver.Settings(sandboxed=True, limits=self._limits())

    def _take_zygote(self, workdir: Path) -> Any:
        """A warm kernel process for this kernel, with the notebook folder's files; None: start a fresh kernel."""
        self._zygote = None
        files = forkserver.flat_files(workdir) if self.fork else None
        if files is None:
            if isinstance(self.provisioner, ForkedProvisioner):
                self.provisioner = None
            return None
        try:
            self._zygote = forkserver.take(self._fork_settings(), tuple(self.preload))
        except OSError as err:
            self.log.warning("Could not start a warm kernel process (%s): starting a fresh kernel", err)
            return None
        self._files = files
        if not isinstance(self.provisioner, ForkedProvisioner):
            self.provisioner = ForkedProvisioner(kernel_id=self.kernel_id, kernel_spec=self.kernel_spec,
                                                 parent=self)
        return self._zygote

    def launch_forked(self, options: Sequence[str] = ()) -> Any:
        """The forked kernel (``ForkedProvisioner.launch_kernel``), started with ``options`` (the kernel command
        line's, :func:`autograder.kernelfork.kernel_options`): a process found dead is replaced once."""
        zygote = self._zygote
        self._zygote = None
        for attempt in (1, 2):
            try:
                # The kernel's working folder: a copy of the notebook's, in a folder the zygote's sandbox
                # binds read-only (a fresh kernel gets a read-only bind of the folder itself).
                self._remove_copy()
                self._copy = tempfile.mkdtemp(prefix="nb-", dir=zygote.workdir)
                os.chmod(self._copy, 0o755)
                for path in self._files:
                    shutil.copyfile(path, Path(self._copy) / path.name, follow_symlinks=False)
                    (Path(self._copy) / path.name).chmod(0o444)
                return start(zygote, self.connection_file, str(Path(self.base_dir) / "kernel.log"),
                             self.base_dir, self._copy, self.startup_timeout, options)
            except (forkserver.ZygoteGone, OSError) as err:
                zygote.close()
                if attempt == 2:
                    raise SandboxError(f"the warm kernel process could not start a kernel: {err}") from err
                zygote = forkserver.take(self._fork_settings(), tuple(self.preload))
        raise AssertionError("unreachable")

    def _remove_copy(self) -> None:
        copy, self._copy = getattr(self, "_copy", None), None
        if copy:
            shutil.rmtree(copy, ignore_errors=True)

    async def _async_pre_start_kernel(self, **kw: Any):  # type: ignore[override]
        self.transport = "ipc"
        workdir = Path(kw.get("cwd") or os.getcwd()).resolve()
        self.kernel_id = self.kernel_id or kw.pop("kernel_id", None) or str(uuid.uuid4())
        zygote = self._take_zygote(workdir)
        private = self._private_dir(zygote.sockets if zygote is not None else None)
        self.connection_file = str(private / "kernel.json")
        self.ip = str(private / "kernel")
        kernel_cmd, kw = await super()._async_pre_start_kernel(**kw)
        if zygote is not None:
            # The kernel writes its own log, in its grader-only folder (the kernel may reach that file alone).
            base = Path(self.base_dir)
            base.chmod(0o711)
            (base / "kernel.log").touch(0o622)
            (base / "kernel.log").chmod(0o622)
            return kernel_cmd, kw
        kernel_cmd = sandbox_command(kernel_cmd, workdir=workdir, kernel_dir=private, **self._limits())
        # bwrap itself needs nothing from the grader's environment either.
        kw["env"] = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        # The kernel's own stdout/stderr (and bwrap's errors) go to a grader-only log,
        # not to the grader's terminal; --fsize caps it too.
        log = open(Path(self.base_dir) / "kernel.log", "wb")  # noqa: SIM115 - closed in cleanup
        self._log_file = log
        kw["stdout"] = log
        kw["stderr"] = log
        kw["cwd"] = self.base_dir
        return kernel_cmd, kw

    async def _async_post_start_kernel(self, **kw: Any) -> None:  # type: ignore[override]
        try:
            await self._wait_for_sockets()
        except SandboxError:
            process = getattr(self.provisioner, "process", None)
            if process is not None and process.poll() is None:
                process.kill()
                process.wait()
            forked = getattr(self.provisioner, "forked", None)
            if forked is not None:  # its warm process goes back to the pool, or is stopped
                forked.release()
                self.provisioner.forked = None
            self._remove_dirs()
            raise
        await super()._async_post_start_kernel(**kw)

    def lock(self) -> None:
        """Take the kernel's write access to its private folder away (as root only).

        Called by the client once the kernel has answered: by then ipykernel has bound
        its sockets and read its connection file, and no cell has run yet.
        """
        if self.lock_kernel_dir and os.geteuid() == 0 and self.connection_file:
            Path(self.connection_file).parent.chmod(0o700)

    async def _wait_for_sockets(self) -> None:
        info = self.get_connection_info()
        sockets = [Path(f"{self.ip}-{info[name]}") for name in SOCKET_NAMES]
        deadline = time.monotonic() + self.startup_timeout
        while not all(s.exists() for s in sockets):
            process = getattr(self.provisioner, "process", None)
            if process is not None and process.poll() is not None:
                raise SandboxError(f"the sandboxed kernel exited at start-up (code {process.returncode}):\n"
                                   + self.kernel_log()[-2000:])
            if time.monotonic() > deadline:
                raise SandboxError("the sandboxed kernel did not open its sockets in time:\n"
                                   + self.kernel_log()[-2000:])
            await asyncio.sleep(0.005)

    def kernel_log(self) -> str:
        """What the kernel (and bwrap) wrote to stdout/stderr."""
        try:
            return (Path(self.base_dir) / "kernel.log").read_text(errors="replace")
        except (OSError, TypeError):
            return ""

    # -- stop ------------------------------------------------------------------------
    def _remove_dirs(self) -> None:
        self._remove_copy()
        log = getattr(self, "_log_file", None)
        if log is not None:
            log.close()
            self._log_file = None
        if self.base_dir:
            shutil.rmtree(self.base_dir, ignore_errors=True)
            self.base_dir = ""

    async def _async_cleanup_resources(self, restart: bool = False) -> None:  # type: ignore[override]
        await super()._async_cleanup_resources(restart=restart)
        zygote, self._zygote = getattr(self, "_zygote", None), None
        if zygote is not None:  # taken, but no kernel was forked from it
            forkserver.give_back(zygote)
        if not restart:
            self._remove_dirs()

    cleanup_resources = _async_cleanup_resources  # type: ignore[assignment]



# -- nbgrader ------------------------------------------------------------------------------
PREFIX = "Sandboxed__"


def _execute_class() -> type:
    from nbgrader.preprocessors import Execute

    return Execute


@functools.lru_cache(maxsize=None)
def sandboxed_class(base: type) -> type:
    """A subclass of an nbgrader ``Execute`` preprocessor (``base``) that runs every kernel
    in the sandbox.

    nbgrader's ``Execute`` forces ``kernel_manager_class`` through its constructor, so the
    config trait is ignored; the subclass forces :class:`SandboxedKernelManager` instead.
    It inherits ``base``'s config sections, and pickles by reference (its name encodes
    ``base``'s import path), so configs holding it can be sent to other processes.
    """
    if not issubclass(base, _execute_class()):
        raise TypeError(f"{base!r} is not an nbgrader Execute preprocessor")
    if getattr(base, "sandboxed", False):
        return base

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        kwargs["kernel_manager_class"] = SandboxedKernelManager
        base.__init__(self, *args, **kwargs)

    qualname = PREFIX + base.__module__.replace(".", "__") + "__" + base.__qualname__
    cls = type(f"Sandboxed{base.__name__}", (base,), {
        "__init__": __init__, "__module__": __name__, "__qualname__": qualname, "sandboxed": True,
        "__doc__": f"{base.__name__}, with every kernel in the sandbox (see autograder.sandbox)."})
    return cls


def __getattr__(name: str) -> Any:
    """Resolve the sandboxed classes by name (for pickle), e.g. ``SandboxedExecute``."""
    if name == "SandboxedExecute":
        return sandboxed_class(_execute_class())
    if name.startswith(PREFIX):
        module, _, qualname = name[len(PREFIX):].rpartition("__")
        import importlib

        return sandboxed_class(getattr(importlib.import_module(module.replace("__", ".")), qualname))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def sandboxed_pipeline(preprocessors: list | tuple) -> list:
    """``preprocessors`` with every nbgrader ``Execute`` step replaced by its sandboxed subclass."""
    Execute = _execute_class()
    replaced = [sandboxed_class(p) if isinstance(p, type) and issubclass(p, Execute) else p
                for p in preprocessors]
    if not any(getattr(p, "sandboxed", False) for p in replaced):
        raise SandboxUnavailable(f"no nbgrader Execute step to sandbox in {list(preprocessors)!r}")
    return replaced


def _autograde_preprocessors(config: Config) -> list:
    from nbgrader.converters import Autograde

    if "Autograde" in config and "autograde_preprocessors" in config.Autograde:
        return list(config.Autograde.autograde_preprocessors)
    return list(Autograde.class_traits()["autograde_preprocessors"].default())


def is_sandboxed(config: Config) -> bool:
    """Whether ``config``'s autograde runs every notebook in a sandboxed kernel."""
    Execute = _execute_class()
    steps = [p for p in _autograde_preprocessors(config) if isinstance(p, type) and issubclass(p, Execute)]
    return bool(steps) and all(getattr(p, "sandboxed", False) for p in steps)


def kernel_fork_settings(config: Config) -> tuple[Any, tuple[str, ...]] | None:
    """What ``config``'s autograde forks its kernels from: the warm process's settings and modules
    (:func:`autograder.forkserver.take`'s arguments); None when its kernels start fresh."""
    if not is_sandboxed(config):
        return None
    manager = SandboxedKernelManager(config=config)
    return (manager._fork_settings(), tuple(manager.preload)) if manager.fork else None


def _check_limits(limits: dict[str, Any]) -> None:
    known = SandboxedKernelManager.class_trait_names(config=True)
    unknown = sorted(set(limits) - set(known))
    if unknown:
        raise TypeError(f"unknown sandbox setting(s) {unknown}; known: {sorted(known)}")


def course_settings(pipeline: list | tuple | None = None, **limits: Any) -> dict[str, dict[str, Any]]:
    """The sandbox as ``{"Class": {"trait": value}}``: the one form of the sandbox's configuration.

    A :class:`autograder.engine.Course` takes it (``Course(config=...)``, or ``course.configure(...)``
    for one that exists: in place and in its ``spec()``, which each Dask worker rebuilds); the grade
    command builds its course from it (:func:`autograder.grade.grading_settings`), and so do the
    fairness and trick proofs (:func:`where_available`). There is no per-submission setting: each
    kernel's only visible course folder is the working directory nbgrader gives it.

    Args:
        pipeline: the ``Autograde.autograde_preprocessors`` whose ``Execute`` steps become sandboxed
            (default: the course's, :func:`autograder.preprocessors.autograde_pipeline`).
        limits: traits of :class:`SandboxedKernelManager` (memory_limit, file_size_limit, tmp_size,
            cpu_limit, open_files, extra_readonly, passthrough_env, bwrap, fork, preload...).

    Raises:
        TypeError: a limit that is not a trait of :class:`SandboxedKernelManager`.
        SandboxUnavailable: ``pipeline`` has no ``Execute`` step to sandbox.
    """
    _check_limits(limits)
    if pipeline is None:
        from .preprocessors import autograde_pipeline

        pipeline = autograde_pipeline()
    settings: dict[str, dict[str, Any]] = {
        "Autograde": {"autograde_preprocessors": sandboxed_pipeline(pipeline)},
        # Never let the notebook's metadata choose the kernel.
        "Execute": {"kernel_name": "python3"},
    }
    if limits:
        settings["SandboxedKernelManager"] = dict(limits)
    return settings


def warn_unsandboxed(stream: TextIO | None = None) -> None:
    """Say loudly, on ``stream`` (stderr), that students' code runs without the sandbox (``--unsandboxed``)."""
    print(UNSANDBOXED_WARNING, file=stream or sys.stderr, flush=True)


def where_available() -> dict[str, dict[str, Any]]:
    """`make grade`'s sandbox settings (:func:`course_settings`) where the sandbox runs here, else none: how the
    scratch courses of the fairness and trick proofs grade the course's own code, each kernel a fork of a warm
    one where the sandbox runs."""
    return course_settings() if sandbox_available() else {}


# -- what it costs ----------------------------------------------------------------------------
def _first_reply_limit() -> float:
    """Seconds grading waits for a new kernel's first reply: nbclient's ``startup_timeout`` (``Execute.startup_timeout``)."""
    from nbclient import NotebookClient

    return float(NotebookClient.class_traits()["startup_timeout"].default())


async def _start_stop(manager_class: type, workdir: str, **traits: Any) -> float:
    km = manager_class(**traits)
    started = time.perf_counter()
    quiet = {} if manager_class is SandboxedKernelManager else {"stdout": subprocess.DEVNULL,
                                                                "stderr": subprocess.DEVNULL}
    await km.start_kernel(cwd=workdir, **quiet)
    kc = km.client()
    kc.start_channels()
    try:
        await kc.wait_for_ready(timeout=_first_reply_limit())
        return time.perf_counter() - started
    finally:
        kc.stop_channels()
        await km.shutdown_kernel(now=True)


def kernel_start_seconds(sandboxed: bool = True) -> float:
    """Start one kernel (in the sandbox, by default), wait for its first reply and stop it; the seconds it took.

    Raises :class:`SandboxError` (or the kernel manager's error) when the kernel does not start.
    """
    with tempfile.TemporaryDirectory(prefix="nbsbx-probe-") as tmp:
        return asyncio.run(_start_stop(SandboxedKernelManager if sandboxed else AsyncKernelManager, tmp))


def startup_overhead(runs: int = 5) -> dict[str, float]:
    """Seconds to start a kernel and get its first reply: plain, sandboxed, and forked in the sandbox.

    The plain and the sandboxed kernel start the same interpreter; the difference is the
    sandbox's cost per graded notebook (bwrap + prlimit + ipc). The forked one is what
    grading starts (:mod:`autograder.kernelfork`), timed once its warm process is up.
    Runs alternate, so a busy moment hits all; ``overhead_s`` compares the best runs (the
    least noisy figure on a shared machine), ``median_overhead_s`` the medians. For ``make bench``.
    """
    plain: list[float] = []
    boxed: list[float] = []
    forked: list[float] = []
    with tempfile.TemporaryDirectory(prefix="nbsbx-bench-") as tmp:
        asyncio.run(_start_stop(SandboxedKernelManager, tmp, fork=True))  # its warm process starts here
        for _ in range(runs):
            plain.append(asyncio.run(_start_stop(AsyncKernelManager, tmp)))
            boxed.append(asyncio.run(_start_stop(SandboxedKernelManager, tmp, fork=False)))
            forked.append(asyncio.run(_start_stop(SandboxedKernelManager, tmp, fork=True)))
    p, s = min(plain), min(boxed)
    return {"plain_s": p, "sandboxed_s": s, "forked_s": min(forked), "overhead_s": s - p,
            "ratio": s / p if p else float("nan"),
            "median_plain_s": statistics.median(plain), "median_sandboxed_s": statistics.median(boxed),
            "median_forked_s": statistics.median(forked),
            "median_overhead_s": statistics.median(boxed) - statistics.median(plain), "runs": runs}


def main(argv: list[str] | None = None) -> int:
    import argparse

    argparse.ArgumentParser(prog="python -m autograder.sandbox",
                            description="Check that the grading sandbox runs here, and print what it costs "
                                        "per kernel start (plain, sandboxed, forked; best of 5).").parse_args(argv)
    check_sandbox()
    figures = startup_overhead()
    print(f"kernel start-up: plain {figures['plain_s'] * 1000:.0f} ms, sandboxed "
          f"{figures['sandboxed_s'] * 1000:.0f} ms, overhead {figures['overhead_s'] * 1000:+.0f} ms "
          f"(x{figures['ratio']:.2f}, best of {figures['runs']}); forked from a warm kernel, sandboxed, "
          f"as grading starts it: {figures['forked_s'] * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
