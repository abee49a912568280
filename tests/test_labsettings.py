"""`make lab` shows learners nbgrader's Validate button, not its instructor tools (INSTRUCTOR=1 shows them),
and its server restarts a kernel whose port was taken on new ports."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from jupyter_client import BlockingKernelClient

from autograder import labsettings

VALIDATE = "@jupyter/nbgrader:validate-assignment"


def _page_config(prefix: Path) -> dict:
    return json.loads((prefix / "etc" / "jupyter" / "labconfig" / "page_config.json").read_text())


def test_the_plugin_ids_are_nbgraders():
    """Every id switched off is a plugin of the installed nbgrader lab extension (a renamed one would do nothing)."""
    static = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter" / "nbgrader" / "static"
    source = "\n".join(p.read_text(errors="replace") for p in static.glob("*.js"))
    ids = set(re.findall(r'"(@jupyter/nbgrader:[a-z-]+)"', source))
    assert VALIDATE in ids
    assert set(labsettings.INSTRUCTOR_PLUGINS) <= ids, set(labsettings.INSTRUCTOR_PLUGINS) - ids
    assert set(labsettings.INSTRUCTOR_PLUGINS) | {VALIDATE} >= ids - {"@jupyter/nbgrader:formgrader-local"}


def test_learners_get_validate_only_and_instructors_can_switch_back(tmp_path):
    config = tmp_path / "etc" / "jupyter" / "labconfig" / "page_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"disabledExtensions": {"some-other:plugin": True}, "other": 1}))

    labsettings.write(tmp_path)
    learner = _page_config(tmp_path)
    assert all(learner["disabledExtensions"].get(p) for p in labsettings.INSTRUCTOR_PLUGINS)
    assert VALIDATE not in learner["disabledExtensions"]
    assert learner["disabledExtensions"]["some-other:plugin"] and learner["other"] == 1, "other settings are kept"

    labsettings.write(tmp_path, instructor=True)
    instructor = _page_config(tmp_path)
    assert not set(labsettings.INSTRUCTOR_PLUGINS) & set(instructor["disabledExtensions"])
    assert instructor["disabledExtensions"] == {"some-other:plugin": True}

    labsettings.write(tmp_path)
    assert _page_config(tmp_path) == learner
    overrides = json.loads((tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


# --- A kernel whose port was taken is restarted on new ports (SERVER_CONFIG) ----------------

# The kernel a learner's server starts, except that its first launch finds its control port taken:
# before it starts ipykernel, a process of its own binds that port, as any program that opened a
# connection at the wrong moment would. It records each launch's ports in $PORTS_LOG.
TAKEN_KERNEL = r'''
import json, os, subprocess, sys
connection_file = sys.argv[1]
info = json.load(open(connection_file))
ports = {k: info[k] for k in ("shell_port", "iopub_port", "stdin_port", "hb_port", "control_port")}
log = os.environ["PORTS_LOG"]
first = not os.path.exists(log)
with open(log, "a") as f:
    f.write(json.dumps(ports) + "\n")
if first:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import signal, socket, sys; s = socket.socket(); "
         "s.bind((sys.argv[1], int(sys.argv[2]))); s.listen(); print('bound', flush=True); signal.pause()",
         info["ip"], str(ports["control_port"])],
        stdout=subprocess.PIPE, start_new_session=True)  # it holds the port until the test kills it
    assert holder.stdout.readline() == b"bound\n"
    with open(os.environ["HOLDER_PIDS"], "a") as f:
        f.write(f"{holder.pid}\n")
os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", "-f", connection_file])
'''


def _environment_with(prefix: Path, written: bool) -> Path:
    """A Python environment at ``prefix`` that runs this one's packages: the Python a server of its own runs.

    A server reads its environment's config from ``sys.prefix/etc/jupyter``, where ``make setup``
    has already written the course's settings for this test's own environment; a server run by
    this one's Python would find them whatever the test wrote. With ``written``,
    :func:`labsettings.write` writes the config into ``prefix``, as ``make setup`` writes it.
    """
    import site

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(prefix)], check=True)
    where = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    packages = Path(subprocess.run([str(prefix / "bin" / "python"), "-c", where],
                                   check=True, capture_output=True, text=True).stdout.strip())
    (packages / "course-packages.pth").write_text(
        "".join(f"import site; site.addsitedir({p!r})\n" for p in site.getsitepackages()))
    if written:
        labsettings.write(prefix)
    return prefix / "bin" / "python"


def _server_with_a_taken_port(tmp_path: Path, written: bool, *extra: str):
    """A real Jupyter server, with the config :func:`labsettings.write` writes or without, and a kernel
    whose port is taken.

    Returns ``(kernel's final state, the ports of each launch, the end of the server's log)``: "answered"
    when the server's kernel answered a kernel_info request, "died" when the server gave up on it, None
    when neither happened within a minute.
    """
    data, log, holders = tmp_path / "data", tmp_path / "ports.log", tmp_path / "holders"
    python = _environment_with(tmp_path / "env", written)
    spec = data / "kernels" / "taken"
    spec.mkdir(parents=True)
    (spec / "taken.py").write_text(TAKEN_KERNEL)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, str(spec / "taken.py"), "{connection_file}"], "display_name": "taken",
        "language": "python", "env": {"PORTS_LOG": str(log), "HOLDER_PIDS": str(holders)}}))
    token = "t"
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")},
           "JUPYTER_CONFIG_DIR": str(tmp_path / "config"), "JUPYTER_DATA_DIR": str(data),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")}
    with (tmp_path / "server.log").open("wb") as server_log:
        server = subprocess.Popen(
            # port 0: the server takes a free port when it binds, so no other program can take it meanwhile
            [str(python), "-m", "jupyter_server", "--no-browser", "--port=0",
             "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
             f"--ServerApp.root_dir={tmp_path}", "--KernelRestarter.time_to_dead=0.5",
             *(["--allow-root"] if os.geteuid() == 0 else []), *extra],
            env=env, stdout=subprocess.DEVNULL, stderr=server_log, start_new_session=True)
    info = tmp_path / "runtime" / f"jpserver-{server.pid}.json"  # written once it listens: its port
    base = ""

    def call(method: str, path: str, body: dict | None = None):
        request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body else None,
                                         headers={"Authorization": f"token {token}"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read() or b"null")

    try:
        deadline = time.monotonic() + 60
        while True:  # the server is up when it answers
            try:
                base = base or f"http://127.0.0.1:{json.loads(info.read_text())['port']}/api"
                call("GET", "/status")
                break
            except (OSError, ValueError):  # not written yet, or not whole
                assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "server.log").read_text()
                time.sleep(0.2)
        kernel = call("POST", "/kernels", {"name": "taken"})
        connection_file = tmp_path / "runtime" / f"kernel-{kernel['id']}.json"
        state = None
        while state is None and time.monotonic() < deadline:
            try:
                call("GET", f"/kernels/{kernel['id']}")
            except urllib.error.HTTPError as err:  # it died, and the server removed it
                assert err.code == 404, err
                state = "died"
                break
            launches = log.read_text().splitlines() if log.exists() else []
            if len(launches) >= 2 and connection_file.exists():
                client = BlockingKernelClient(connection_file=str(connection_file))
                client.load_connection_file()
                client.start_channels()
                try:
                    client.wait_for_ready(timeout=5)
                    state = "answered"
                except RuntimeError:
                    pass
                finally:
                    client.stop_channels()
            time.sleep(0.2)
        launches = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        return state, launches, (tmp_path / "server.log").read_text(errors="replace")[-4000:]
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        for pid in (holders.read_text().split() if holders.exists() else []):
            os.killpg(int(pid), signal.SIGKILL)


@pytest.mark.timeout(180)
def test_a_kernel_whose_port_was_taken_restarts_on_new_ports(tmp_path):
    """The course's server config lets the kernel restart on new ports; jupyter_client's default kills it.

    Without it, the browser tests lost a kernel ("Disconnected") while the other lane graded on Dask:
    the five restarts reused the one port another program held.
    """
    state, launches, log = _server_with_a_taken_port(tmp_path / "course", True)
    assert state == "answered", (launches, log)
    assert len(launches) >= 2 and launches[1]["control_port"] != launches[0]["control_port"], (launches, log)

    # Without the course's config, jupyter_client's default: the restart reuses the port (one restart shows
    # it; the server tries five)
    state, launches, log = _server_with_a_taken_port(tmp_path / "default", False, "--KernelRestarter.restart_limit=1")
    assert state == "died", (launches, log)
    assert len(launches) == 2 and launches[1]["control_port"] == launches[0]["control_port"], (launches, log)
