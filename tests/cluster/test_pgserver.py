"""The throwaway PostgreSQL server of `python -m tests.cluster.pgserver` goes away with its command.

An instructor trying PostgreSQL starts it in a terminal and stops it with Ctrl-C, a
closed terminal or `kill`: each time the server must stop and its data folder be
deleted, leaving no PostgreSQL process behind.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from autograder.course import ROOT
from tests.sandbox.probe_assignment import need_postgres

pytestmark = pytest.mark.slow


def _listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _server_of(port: int) -> psutil.Process | None:
    for proc in psutil.process_iter(["cmdline"]):
        cmd = proc.info["cmdline"] or []
        if cmd and cmd[0].endswith("postgres") and "-p" in cmd and cmd[cmd.index("-p") + 1] == str(port):
            return proc
    return None


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.parametrize("sig,inherited", [(signal.SIGINT, None), (signal.SIGINT, _ignore_ctrl_c),
                                           (signal.SIGTERM, None), (signal.SIGHUP, None)],
                         ids=["ctrl-c", "ctrl-c-started-in-the-background", "kill", "hangup"])
def test_the_server_stops_and_its_data_is_deleted(sig, inherited):
    """`inherited` sets what the command starts with: a background job of a script starts with Ctrl-C ignored."""
    need_postgres()
    proc = subprocess.Popen([sys.executable, "-m", "tests.cluster.pgserver"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True, preexec_fn=inherited)
    server, folder = None, None
    try:
        first = proc.stdout.readline()
        assert first.startswith("PostgreSQL is running: "), first + proc.stdout.read() if proc.poll() else first
        port = int(first.rsplit(":", 1)[1].split("/")[0])
        server = _server_of(port)
        assert server is not None and _listening(port), "the server is not up"
        cmd = server.cmdline()
        folder = Path(cmd[cmd.index("-D") + 1]).parent
        assert folder.is_dir()
        proc.send_signal(sig)
        assert proc.wait(timeout=60) == 0, proc.stdout.read()
        deadline = time.monotonic() + 10
        while server.is_running() and server.status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not server.is_running() or server.status() == psutil.STATUS_ZOMBIE, "PostgreSQL kept running"
        assert not _listening(port)
        assert not folder.exists(), f"its data folder {folder} was left behind"
    finally:  # whatever happened, leave nothing behind
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        if server is not None and server.is_running():
            server.kill()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)
