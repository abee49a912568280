"""A throwaway PostgreSQL server on loopback, for the tests and for trying a PostgreSQL gradebook.

    with PgServer() as pg:                        # initdb in a temp folder, start, createdb
        course = Course.scratch(tmp, db_url=pg.url)  # postgresql+psycopg2://grader@127.0.0.1:PORT/gradebook
    # stopped, folder removed

    python -m tests.cluster.pgserver                # start one, print its URL, stop on Ctrl-C

It uses the server binaries of Debian's ``postgresql`` package (``apt-get install
postgresql``), found on PATH or in ``/usr/lib/postgresql/<version>/bin``. The server
listens on 127.0.0.1 only, on a free port, with ``trust`` authentication for the one
role it creates; its data lives in a temporary folder deleted on stop. PostgreSQL
refuses to run as root: as root, the server runs as the ``postgres`` user (created by
the Debian package) or ``nobody``. Durability is switched off (fsync=off): this is a
scratch server, never a course's real gradebook.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from pathlib import Path

from autograder.gradebook import gradebook_url
from tests.ports import free_port

ROLE = "grader"
DATABASE = "gradebook"


class PgUnavailable(RuntimeError):
    """No PostgreSQL server binaries here."""


def find_bindir() -> Path:
    """The folder of ``initdb``/``pg_ctl``/``postgres``: PATH first, then Debian's layout."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if candidates:
        return Path(candidates[-1]).parent
    raise PgUnavailable("PostgreSQL's server binaries (initdb, pg_ctl) are not installed; on Debian/Ubuntu: "
                        "`sudo apt-get install postgresql`")


def _run_as() -> pwd.struct_passwd | None:
    """The unprivileged account to run the server as, when we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise PgUnavailable("running as root, and there is no 'postgres' or 'nobody' user to run PostgreSQL as")


class PgServer:
    """One scratch PostgreSQL server (see the module's docstring)."""

    def __init__(self, database: str = DATABASE, port: int | None = None) -> None:
        self.bindir = find_bindir()
        self.database = database
        self.port = port
        self.folder: Path | None = None
        self._finalizer: weakref.finalize | None = None

    # -- paths ---------------------------------------------------------------------------
    @property
    def data(self) -> Path:
        assert self.folder is not None, "the server is not started"
        return self.folder / "data"

    @property
    def url(self) -> str:
        return self.url_for(self.database)

    def url_for(self, database: str) -> str:
        return gradebook_url(f"postgresql://{ROLE}@127.0.0.1:{self.port}/{database}")

    # -- running the binaries ------------------------------------------------------------------
    def _run(self, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
        user = _run_as()
        kwargs: dict = {}
        if user is not None:
            kwargs = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        env = {"PATH": f"{self.bindir}:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
               "PGCONNECT_TIMEOUT": "10"}
        done = subprocess.run([str(self.bindir / args[0]), *args[1:]], capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=str(self.folder), **kwargs)
        if check and done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
                               + self._log_tail())
        return done

    def _log_tail(self) -> str:
        try:
            return "\n--- server log ---\n" + (self.folder / "server.log").read_text()[-2000:]  # type: ignore[operator]
        except (OSError, TypeError):
            return ""

    # -- start / stop ------------------------------------------------------------------------------
    def start(self) -> PgServer:
        self.folder = Path(tempfile.mkdtemp(prefix="pgtest-")).resolve()
        user = _run_as()
        if user is not None:
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        self._finalizer = weakref.finalize(self, _cleanup, self.bindir, self.folder, user)
        try:
            self._run("initdb", "-D", str(self.data), "-U", ROLE, "-A", "trust", "-E", "UTF8",
                      "--no-locale", "--no-sync")
            attempts = 1 if self.port else 5
            for attempt in range(attempts):
                self.port = self.port or free_port()
                options = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} "
                           "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                           "-c max_connections=100")
                done = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"),
                                 "-o", options, "-w", "-t", "60", "start", check=False)
                if done.returncode == 0:
                    break
                if attempt == attempts - 1:
                    raise RuntimeError(f"pg_ctl start failed:\n{done.stdout}{done.stderr}" + self._log_tail())
                self.port = None  # the port was taken meanwhile: try another
            self.create_database(self.database)
        except BaseException:
            self.stop()
            raise
        return self

    def create_database(self, name: str) -> str:
        """Create a database on this server; its URL."""
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", ROLE, name)
        return self.url_for(name)

    def stop(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
            self._finalizer = None
        self.folder = None

    @property
    def running(self) -> bool:
        return self.folder is not None and (self.data / "postmaster.pid").exists()

    def __enter__(self) -> PgServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _cleanup(bindir: Path, folder: Path, user: pwd.struct_passwd | None) -> None:
    """Stop the server (fast, then by its pid) and delete its folder."""
    data = folder / "data"
    pidfile = data / "postmaster.pid"
    if pidfile.exists():
        kwargs: dict = {}
        if user is not None:
            kwargs = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        try:
            subprocess.run([str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "-t", "30", "stop"],
                           capture_output=True, timeout=60, cwd=str(folder), **kwargs)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if pidfile.exists():
            try:
                os.kill(int(pidfile.read_text().split()[0]), signal.SIGKILL)
            except (OSError, ValueError, IndexError):
                pass
    shutil.rmtree(folder, ignore_errors=True)


def _stop_on(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    # `kill`, a closed terminal or a service manager stop it like Ctrl-C: the server and its data go too.
    # SIGINT is set here as well: Python leaves it ignored when the parent ignored it (a background job of a
    # script), and then Ctrl-C or `kill -INT` would leave the server running.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop_on)
    # The signal can come at any bytecode, the announcement's print included, so the whole life of the
    # server is inside the try: leaving the `with` on KeyboardInterrupt stops the server and deletes its data.
    try:
        with PgServer() as pg:
            print(f"PostgreSQL is running: {pg.url}\n(grade with --db {pg.url}; Ctrl-C stops it and deletes its data)",
                  flush=True)
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        print("\nstopping", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
