"""The fork server: long-lived, sandboxed Python processes that fork one run or one kernel per notebook.

A *zygote* (:class:`Zygote`) is a process started once, in its own sandbox
(:func:`autograder.jail.sandbox_command`), that imports what the runs need and never runs
notebook code itself: each request forks a child that does, and the zygote answers once
the child is gone and its sandbox is clean again. Two kinds serve the grader:

- clean-room processes (``python -I -c <boot> zygote ...``), each request one clean run of
  a notebook's tests (:mod:`autograder.cleanroom`);
- kernel processes (``... zygote ... kernel <modules>``), each request one ipykernel
  (:mod:`autograder.kernelfork`, used by :class:`autograder.sandbox.SandboxedKernelManager`).

Both come from one pool per grading process (:func:`take`, :func:`give_back`,
:func:`prestart`, :func:`close_zygotes`): at most :data:`KEEP_IDLE` idle, and a clean run may
take an idle kernel process with the same limits, so that a grading process keeps one warm
process, not two. The folders they work in are named after the grading process, and those
of a grading process that is gone are swept (:func:`own_folder`). This module also holds the
plumbing of a fresh (not forked) runner process (:func:`talk`, :func:`stop`).

The code that runs inside the sandbox is the package :mod:`autograder.inside`, bound read-only into
it (:data:`INSIDE`) and loaded from there by a few lines of boot code (:func:`boot`): the rest of the
grader, and the repository, are not visible there.

Depends on :mod:`autograder.jail`, and for its settings' defaults on the traits that declare them
(:mod:`autograder.settings`, :mod:`autograder.preprocessors`).
"""

from __future__ import annotations

import atexit
import base64
import json
import logging
import os
import re
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .guard import package_stamp
from .jail import _short_tmp, sandbox_command
from .settings import CrossCheck

log = logging.getLogger(__name__)

#: The code that runs inside the sandbox (:mod:`autograder.inside`): the one folder of the grader a sandbox sees,
#: bound read-only at its own path (:func:`in_sandbox`).
INSIDE = Path(__file__).resolve().with_name("inside")
#: The name :func:`boot` gives the package inside: it is not ``autograder.inside``, as the grader is not there.
INSIDE_NAME = "_grader_inside"
MAX_CHANNEL = 8 * 1024 * 1024  # bytes of results read from the runner before it is stopped


def _kernel_default(name: str) -> float:
    """The default of ``GuardedExecute``'s time limit ``name`` (``timeout``: nbgrader's ``Execute.timeout``):
    a clean run's limits are the kernel's, declared once (:mod:`autograder.preprocessors`)."""
    from .preprocessors import GuardedExecute

    return float(GuardedExecute.class_traits()[name].default())


@dataclass
class Settings:
    """How a course runs its kernels, so the clean room runs the same way (a course's own:
    :func:`autograder.cleanroom.settings`). Each default is its setting's, read from the trait that declares it."""

    sandboxed: bool = True
    limits: dict[str, Any] = field(default_factory=dict)  # sandbox_command's keyword arguments
    cell_timeout: float = field(default_factory=lambda: _kernel_default("timeout"))  # Execute.timeout
    notebook_timeout: float = field(default_factory=lambda: _kernel_default("notebook_timeout"))
    fork: bool = CrossCheck.class_traits()["fork"].default()  # each run a fork of a long-lived clean-room process
    grace: float = CrossCheck.class_traits()["grace"].default()  # seconds a run may take beyond notebook_timeout


def boot(folder: Path = INSIDE) -> str:
    """What ``python -c`` runs: load the package in ``folder`` by its file location, as :data:`INSIDE_NAME`, and
    start it (:func:`autograder.inside.main.main`). ``sys.path`` stays as ``python -I`` makes it: the package is
    found by its location, not on the path, so a notebook's ``import`` finds nothing new."""
    init, where = str(folder / "__init__.py"), [str(folder)]
    return (f"import importlib.util, sys\n"
            f"spec = importlib.util.spec_from_file_location({INSIDE_NAME!r}, {init!r}, submodule_search_locations={where!r})\n"
            f"package = importlib.util.module_from_spec(spec)\n"
            f"sys.modules[spec.name] = package\n"
            f"spec.loader.exec_module(package)\n"
            f"from {INSIDE_NAME}.main import main\n"
            f"del spec, package\n"
            f"main()\n")


def runner_argv(*args: str, isolated: bool = True) -> list[str]:
    """The command line of a process running :mod:`autograder.inside` with ``args`` (``python -I -c <boot>``;
    a grading kernel's zygote without ``-I``, as ``python -m ipykernel_launcher`` starts a kernel)."""
    return [sys.executable, *(["-I"] if isolated else []), "-c", boot(), *args]


def in_sandbox(argv: list[str], options: Settings, **binds: Any) -> list[str]:
    """``argv`` wrapped in :func:`autograder.jail.sandbox_command` with ``options``' limits and ``binds``, the
    package that runs inside (:data:`INSIDE`) bound read-only besides what the limits bind."""
    limits = dict(options.limits)
    limits["extra_readonly"] = [*limits.get("extra_readonly", ()), str(INSIDE)]
    return sandbox_command(argv, **binds, **limits)


def environment(options: Settings) -> dict[str, str]:
    """The environment a runner or zygote process starts with (bwrap's own, when sandboxed)."""
    if options.sandboxed:  # bwrap rebuilds the sandbox's environment from scratch (--clearenv)
        return {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
    return dict(os.environ)



# -- forked runs --------------------------------------------------------------------------
MAX_FILES = 8 * 1024 * 1024  # bytes of a folder copied into a forked run; a larger one runs in a fresh process
KEEP_IDLE = 4  # idle clean-room processes a grading process keeps (a worker's runs share them)


def folder_files(workdir: Path) -> dict[str, str] | None:
    """The files of a notebook's folder, for a forked run to see as the kernel did (base64).

    Args:
        workdir: the folder the kernel ran the notebook in.

    Returns:
        ``{name: base64 text}``; None when a fresh process must run it instead: the folder
        holds a subfolder or something that is not a plain file, or more than
        :data:`MAX_FILES` bytes.
    """
    found = flat_files(workdir)
    try:
        return None if found is None else \
            {path.name: base64.b64encode(path.read_bytes()).decode("ascii") for path in found}
    except OSError:
        return None


def flat_files(workdir: Path) -> list[Path] | None:
    """The files of a notebook's folder when it holds plain files only, :data:`MAX_FILES` bytes at most; else None."""
    found, size = [], 0
    try:
        for entry in os.scandir(workdir):
            if not entry.is_file(follow_symlinks=False):
                return None
            size += entry.stat(follow_symlinks=False).st_size
            if size > MAX_FILES:
                return None
            found.append(Path(entry.path))
    except OSError:
        return None
    return found


class ZygoteGone(Exception):
    """The clean-room process exited, or stopped answering, before it answered a request."""


class Zygote:
    """A long-lived clean-room process that forks one fresh run per notebook.

    It imports what the tests import once (:func:`autograder.inside.zygote.serve`); each run is a
    fork of it, which sees those modules loaded and no other run's code, files or
    processes: the run's leftovers are killed and deleted before it answers. It runs in
    its own sandbox with the course's limits, as a fresh clean run would, with an empty
    folder: each run gets a copy of its notebook's folder (:func:`folder_files`).
    A run then costs a fork and the cells' own time, not a Python start and the imports.

    With ``kernel_modules``, it serves grading kernels instead (:mod:`autograder.kernelfork`):
    it imports ipykernel and those modules, and each request forks one ipykernel whose
    private folder is made in :attr:`sockets` and whose working folder is a copy made
    in :attr:`workdir`, both bound into its sandbox.

    Args:
        options: the settings it serves (sandboxed or not, limits).
        kernel_modules: for kernels, the modules they find imported; None for clean runs.
    """

    def __init__(self, options: Settings, kernel_modules: tuple[str, ...] | None = None) -> None:
        self.options = options
        self.kernel_modules = kernel_modules
        #: the helper package's files as they were when this process imported them (see :func:`take`)
        self.stamp = package_stamp()
        mode = "sandboxed" if options.sandboxed else "plain"
        if kernel_modules is None:
            self.folder = own_folder(FOLDER_PREFIX, tempfile.gettempdir())
            workdir, sockets = self.folder, None
            argv = runner_argv("zygote", str(MAX_CHANNEL), mode)
        else:  # grading kernels (autograder.kernelfork): started as `python -m ipykernel_launcher` would be
            self.folder = own_folder(KERNEL_FOLDER_PREFIX, _short_tmp()).resolve()
            workdir, sockets = self.folder / "w", self.folder / "s"
            for made in (workdir, sockets):
                made.mkdir()
                made.chmod(0o711)  # a kernel reaches its own folder in each, and lists nothing
            argv = runner_argv("zygote", str(MAX_CHANNEL), mode, "kernel", json.dumps(list(kernel_modules)),
                               isolated=False)
        #: where a forked kernel's private folder goes (bound writable into the sandbox); None for clean runs
        self.sockets = sockets
        #: where the grader copies a forked kernel's working folder (bound read-only into the sandbox)
        self.workdir = workdir
        if options.sandboxed:
            argv = in_sandbox(argv, options, workdir=workdir, kernel_dir=sockets)
        self.buffer = b""
        _started.add(self)
        global _made
        with _idle_lock:
            if not _made:  # the first one this process starts: they are all stopped at its exit
                atexit.register(close_zygotes)
            _made += 1
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=self.folder, env=environment(options),
                                         start_new_session=True)
        except OSError:
            self.close()
            raise

    def alive(self) -> bool:
        """Whether the process is still running."""
        return getattr(self, "proc", None) is not None and self.proc.poll() is None

    def serves_clean_runs(self) -> bool:
        """Whether this kernel process may serve a clean run now: it is sandboxed (a run's leftovers are wiped
        from its sandbox as a kernel's are), and its kernel folders hold nothing of an earlier kernel.

        The runs it forks find ipykernel imported, as the kernel whose results they check did, and nothing
        else of a kernel: the process itself never runs notebook code.
        """
        if self.kernel_modules is None or not self.options.sandboxed:
            return False
        try:
            return not any(os.scandir(self.workdir)) and not any(os.scandir(self.sockets))
        except OSError:
            return False

    def _read(self, size: int | None, deadline: float) -> bytes | None:
        """``size`` bytes, or a line when None; None at the deadline (a deadline passed: what has come).

        Raises ZygoteGone at end of file.
        """
        assert self.proc.stdout is not None
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            while True:
                if size is None and b"\n" in self.buffer:
                    line, self.buffer = self.buffer.split(b"\n", 1)
                    return line
                if size is not None and len(self.buffer) >= size:
                    data, self.buffer = self.buffer[:size], self.buffer[size:]
                    return data
                left = deadline - time.monotonic()
                if not sel.select(timeout=max(left, 0)):
                    if left <= 0:
                        return None
                    continue
                chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
                if not chunk:
                    raise ZygoteGone("the clean-room process exited")
                self.buffer += chunk

    def run(self, request: dict, files: dict[str, str], deadline_s: float) -> tuple[bytes, str, int]:
        """Run one payload in a fresh fork: ``(results channel, reason it was stopped, exit status)``.

        Raises:
            ZygoteGone: the process died before answering (the caller may start another).
        """
        message: dict[str, Any] = {"payload": request, "files": files, "deadline": deadline_s}
        if self.sockets is not None:  # a kernel process: it empties its kernels' sockets folder after the run
            message["scratch"] = str(self.sockets)
        self.send(message)
        backstop = time.monotonic() + deadline_s + 30  # it stops a run at deadline_s itself
        answer = self.header(backstop)
        if answer is not None:
            data = self._read(int(answer["size"]), backstop)
        if answer is None or data is None:  # it stopped answering: not to be trusted again
            self.close()
            return b"", f"the clean run did not finish within {deadline_s:.0f} s and was stopped", -9
        if self.sockets is not None and not self.serves_clean_runs():  # the run left something for a kernel
            self.close()
        reason = {"timeout": f"the clean run did not finish within {deadline_s:.0f} s and was stopped",
                  "too much": "the clean run wrote too much and was stopped"}.get(answer["reason"], "")
        return data, reason, int(answer["status"])

    def send(self, message: dict) -> None:
        """Write one request line. Raises ZygoteGone when the process is gone."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError) as err:
            raise ZygoteGone("the process is gone") from err

    def header(self, deadline: float) -> dict | None:
        """The next header line it wrote, None at the deadline. Raises ZygoteGone at end of file."""
        line = self._read(None, deadline)
        return None if line is None else json.loads(line)

    def close(self) -> None:
        """Stop the process (and its sandbox) and delete its folder."""
        proc = getattr(self, "proc", None)
        if proc is not None:
            stop(proc)
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    try:
                        stream.close()
                    except OSError:
                        pass
        remove_folder(self.folder)
        _started.discard(self)


#: A clean-room process's folder is named ``<prefix><pid of the grading process>-<random>``, so that
#: one left by a grading process that is gone can be told from one in use.
FOLDER_PREFIX, KERNEL_FOLDER_PREFIX = "clean-room-", "k-"
_swept: set[tuple[str, str]] = set()  # (parent, prefix): swept by this process already


def own_folder(prefix: str, parent: str) -> Path:
    """A new folder in ``parent`` for a clean-room process of this grading process.

    The first time a process asks for one in ``parent``, it removes the folders named like its
    own that this user's grading processes left there and that are gone. A process
    killed outright (SIGKILL, or SIGTERM to a Dask worker's whole process group) could not
    stop its clean-room processes and remove their folders itself; each such process exits when
    its grader is gone (its requests pipe closes), and the folder stays until this sweep.
    """
    if (parent, prefix) not in _swept:
        _swept.add((parent, prefix))
        try:
            entries = list(os.scandir(parent))
        except OSError:
            entries = []
        for entry in entries:
            named = re.fullmatch(re.escape(prefix) + r"(\d+)-[a-z0-9_]{8}", entry.name)  # as mkdtemp names ours
            if named is None or int(named[1]) == os.getpid():
                continue
            pid = named[1]
            try:
                if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.geteuid():
                    continue
                os.kill(int(pid), 0)
            except ProcessLookupError:  # its grading process is gone
                remove_folder(Path(entry.path))
            except OSError:  # alive (maybe another user's), or not ours to check
                continue
    return Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=parent))


def remove_folder(folder: Path) -> None:
    """Remove ``folder`` and all in it, read-only parts included (a run's folder is read-only); errors are ignored."""
    for root, _dirs, _files in os.walk(folder):
        try:
            os.chmod(root, 0o700)
        except OSError:
            pass
    shutil.rmtree(folder, ignore_errors=True)


_started: weakref.WeakSet[Zygote] = weakref.WeakSet()  # every clean-room process not yet closed
_made = 0  # how many this process has started
_idle: list[tuple[tuple, Zygote]] = []  # (settings, process), the most recently used last
_idle_lock = threading.Lock()


def _key(options: Settings, kernel_modules: tuple[str, ...] | None = None) -> tuple:
    return (options.sandboxed, json.dumps(options.limits, sort_keys=True, default=str), kernel_modules)


def _serves(idle_key: tuple, zygote: Zygote, key: tuple) -> bool:
    """Whether the idle ``zygote`` (kept under ``idle_key``) can serve a request for ``key``."""
    return idle_key == key or (key[2] is None and idle_key[:2] == key[:2] and zygote.serves_clean_runs())


def take(options: Settings, kernel_modules: tuple[str, ...] | None = None) -> Zygote:
    """An idle process serving ``options`` (clean runs, or kernels importing ``kernel_modules``), or a new one.

    A clean run also takes an idle sandboxed kernel process with the same limits (:meth:`Zygote.serves_clean_runs`):
    a grading process then keeps one warm process, not two, for its kernels and its clean runs.
    """
    key = _key(options, kernel_modules)
    with _idle_lock:
        for index in range(len(_idle) - 1, -1, -1):
            idle_key, zygote = _idle[index]
            if _serves(idle_key, zygote, key):
                del _idle[index]
                if zygote.alive() and zygote.stamp == package_stamp():
                    return zygote
                zygote.close()  # exited, or it imported a helper package that has changed on disk since
    return Zygote(options, kernel_modules)


def prestart(options: Settings, kernel_modules: tuple[str, ...] | None = None) -> bool:
    """Start an idle process for ``options`` now, unless one is idle already, so that the first run needing
    one finds it importing or ready instead of starting it (a worker, while its first task is on its way).

    Returns:
        Whether a process was started.
    """
    key = _key(options, kernel_modules)
    with _idle_lock:
        if any(_serves(idle_key, zygote, key) and zygote.alive() for idle_key, zygote in _idle):
            return False
    give_back(Zygote(options, kernel_modules))
    return True


def give_back(zygote: Zygote) -> None:
    """Keep a process that has answered its last request for a later one (at most KEEP_IDLE are kept)."""
    if not zygote.alive():
        zygote.close()
        return
    with _idle_lock:
        _idle.append((_key(zygote.options, zygote.kernel_modules), zygote))
        extra = _idle[:-KEEP_IDLE] if len(_idle) > KEEP_IDLE else []
        del _idle[:len(extra)]
    for _, old in extra:
        old.close()


def close_zygotes() -> int:
    """Stop every idle clean-room process of this grading process (a worker's run ended; at exit).

    Returns:
        How many were stopped.
    """
    with _idle_lock:
        idle = list(_idle)
        _idle.clear()
    for _, zygote in idle:
        zygote.close()
    return len(idle)


def idle_zygotes() -> int:
    """How many clean-room processes this grading process keeps idle (the tests check it stays bounded)."""
    with _idle_lock:
        return len(_idle)


def running_zygotes(dask_worker: Any = None) -> int:
    """How many clean-room processes this process started are still running (``Client.run`` it on workers)."""
    return sum(1 for zygote in list(_started) if zygote.alive())


def zygotes_started(dask_worker: Any = None) -> int:
    """How many clean-room processes (of both kinds) this process has started so far (``Client.run`` it on workers)."""
    return _made


def run_forked(request: dict, files: dict[str, str], options: Settings, deadline_s: float) -> tuple[bytes, str, int]:
    """One clean run in a fork of an idle clean-room process (a process found dead is replaced once):
    ``(results channel, why it was stopped, exit status)``."""
    for attempt in (1, 2):
        try:
            zygote = take(options)
        except OSError as err:
            return b"", f"the clean run could not start ({err.strerror or err})", 0
        try:
            answer = zygote.run(request, files, deadline_s)
        except ZygoteGone as err:
            zygote.close()
            if attempt == 2:
                return b"", f"the clean run stopped early ({err})", -9
            log.debug("clean-room process gone (%s); starting another", err)
            continue
        except BaseException:  # anything else: this process is not to be trusted again (the caller reports it)
            zygote.close()
            raise
        give_back(zygote)
        return answer
    raise AssertionError("unreachable")


def run_fresh(argv: list[str], workdir: Path, request: dict, options: Settings,
              deadline_s: float) -> tuple[bytes, str, int]:
    """One clean run in a fresh runner process (``argv``, in ``workdir``): ``(results channel, why it was
    stopped, exit status)``; a process that cannot start is said in the reason."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                cwd=workdir, env=environment(options), start_new_session=True)
    except OSError as err:
        return b"", f"the clean run could not start ({err.strerror or err})", 0
    data, reason = talk(proc, json.dumps(request).encode(), deadline_s)
    return data, reason, proc.returncode


def talk(proc: subprocess.Popen, payload: bytes, deadline_s: float) -> tuple[bytes, str]:
    """Send the payload, read the results (capped), stop the process at the deadline."""
    reason = ""
    try:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(payload)
            proc.stdin.close()
        except BrokenPipeError:
            pass
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + deadline_s
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    reason = f"the clean run did not finish within {deadline_s:.0f} s and was stopped"
                    break
                if not sel.select(timeout=left):
                    continue
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > MAX_CHANNEL:
                    reason = "the clean run wrote too much and was stopped"
                    break
        return b"".join(chunks), reason
    finally:
        if not reason:  # the runner said all it had to say: let it (and the sandbox) exit on its own
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        stop(proc)
        if proc.stdout is not None:
            proc.stdout.close()


def stop(proc: subprocess.Popen) -> None:
    """Kill a clean-room process and its whole group (its sandbox) if it still runs, and reap it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            proc.kill()
    proc.wait()

