"""The sandbox's command line (bubblewrap + prlimit), and whether it runs here.

The lowest layer of the grader's isolation: it knows nothing of kernels, nbgrader or the
clean room. :func:`sandbox_command` wraps any command line so that it runs with no
network, almost nothing visible, no secrets, resource limits and as nobody (see
:mod:`autograder.sandbox` for the full list); :func:`check_sandbox` says whether it runs
on this machine. Used by the grading kernels (:mod:`autograder.sandbox`), the fork server
(:mod:`autograder.forkserver`) and the clean room (:mod:`autograder.cleanroom`).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

MiB = 1024 * 1024
GiB = 1024 * MiB
NOBODY = 65534


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run here; grading must stop unless told to go unsandboxed."""



# -- what the sandbox shows ------------------------------------------------------------------
def toolfaults_dir() -> Path | None:
    """The folder of the course's helper package (found without importing it)."""
    spec = importlib.util.find_spec("toolfaults")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]).resolve()


def readonly_paths() -> list[Path]:
    """Host folders the kernel sees read-only (besides /usr and its working directory)."""
    paths = [Path(sys.base_prefix).resolve(), Path(sys.prefix).resolve()]
    package = toolfaults_dir()
    if package is not None:
        paths.append(package)
    return [p for i, p in enumerate(paths) if p not in paths[:i] and p.exists()]


def kernel_environment(passthrough: list[str] | tuple[str, ...] = ()) -> dict[str, str]:
    """The whole environment of a sandboxed kernel: built from scratch, nothing inherited
    except the harmless variables named in ``passthrough``."""
    env = {
        "PATH": os.pathsep.join([str(Path(sys.prefix) / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": "/tmp/home",
        "USER": "student",
        "LOGNAME": "student",
        "LANG": "C.UTF-8",
        "TMPDIR": "/tmp",
        "PYTHONNOUSERSITE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MPLCONFIGDIR": "/tmp/home/.config/matplotlib",
    }
    for name in passthrough:
        if name in os.environ and name not in env:
            env[name] = os.environ[name]
    return env


def _top_level_links() -> list[str]:
    """bwrap arguments recreating /bin, /lib, ... as on the host (links into /usr or binds)."""
    args: list[str] = []
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    return args


def sandbox_command(argv: list[str], *, workdir: Path, kernel_dir: Path | None = None,
                    memory_limit: int = 1 * GiB, file_size_limit: int = 64 * MiB,
                    tmp_size: int = 256 * MiB, cpu_limit: int = 600, open_files: int = 1024,
                    extra_readonly: list[str] | tuple[str, ...] = (),
                    passthrough_env: list[str] | tuple[str, ...] = (),
                    bwrap: str | None = None, prlimit: str | None = None) -> list[str]:
    """The full command line running ``argv`` in the sandbox.

    ``workdir`` (the submission's own copy) is visible read-only and is the working
    directory; ``kernel_dir`` (the kernel's private folder: connection file and sockets)
    is the one host folder the sandbox may write to.
    """
    bwrap = bwrap or shutil.which("bwrap") or "bwrap"
    prlimit = prlimit or shutil.which("prlimit") or "prlimit"
    cmd = [bwrap, "--unshare-all", "--uid", str(NOBODY), "--gid", str(NOBODY), "--hostname", "sandbox",
           "--die-with-parent", "--new-session", "--cap-drop", "ALL",
           "--ro-bind", "/usr", "/usr", *_top_level_links(),
           "--proc", "/proc", "--dev", "/dev",
           "--perms", "1777", "--size", str(tmp_size), "--tmpfs", "/tmp",
           "--dir", "/tmp/home"]
    for path in [*readonly_paths(), *map(Path, extra_readonly)]:
        cmd += ["--ro-bind", str(path), str(path)]
    workdir = Path(workdir).resolve()
    cmd += ["--ro-bind", str(workdir), str(workdir)]
    if kernel_dir is not None:
        cmd += ["--bind", str(kernel_dir), str(kernel_dir)]
    cmd += ["--chdir", str(workdir), "--clearenv"]
    for name, value in kernel_environment(passthrough_env).items():
        cmd += ["--setenv", name, value]
    limits = [f"--data={memory_limit}", f"--fsize={file_size_limit}", "--core=0", f"--nofile={open_files}"]
    if cpu_limit:
        limits.append(f"--cpu={cpu_limit}")
    return cmd + ["--", prlimit, *limits, "--", *argv]



def _short_tmp() -> str:
    """A temp folder with a short path: Unix socket paths are limited to ~100 bytes."""
    tmp = tempfile.gettempdir()
    return tmp if len(tmp) < 40 else "/tmp"



# -- is it usable here? ----------------------------------------------------------------------
def _advice() -> str:
    return ("Install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`; it needs user "
            "namespaces, or root), or grade WITHOUT a sandbox by passing --unsandboxed, only for "
            "code you trust.")


@functools.lru_cache(maxsize=None)
def _check(bwrap: str | None) -> None:
    found = bwrap or shutil.which("bwrap")
    if not found:
        raise SandboxUnavailable("cannot grade safely: bubblewrap (`bwrap`) is not installed. " + _advice())
    if not shutil.which("prlimit"):
        raise SandboxUnavailable("cannot grade safely: `prlimit` (util-linux) is not installed. " + _advice())
    with tempfile.TemporaryDirectory(prefix="nbsbx-check-", dir=_short_tmp()) as tmp:
        cmd = sandbox_command([sys.executable, "-c", "import socket, sys; sys.exit(0)"],
                              workdir=Path(tmp), bwrap=found)
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=60,
                                  env={"PATH": "/usr/bin:/bin"})
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SandboxUnavailable(f"cannot grade safely: the sandbox does not run here ({exc}). "
                                     + _advice()) from exc
    if done.returncode != 0:
        raise SandboxUnavailable("cannot grade safely: the sandbox does not run here:\n"
                                 + (done.stderr or done.stdout).strip()[-1000:] + "\n" + _advice())


def check_sandbox(bwrap: str | None = None) -> None:
    """Raise :class:`SandboxUnavailable` (with what to do) unless a sandbox runs here (once per process)."""
    _check(bwrap)


def sandbox_available(bwrap: str | None = None) -> bool:
    try:
        check_sandbox(bwrap)
    except SandboxUnavailable:
        return False
    return True
