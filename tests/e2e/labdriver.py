"""Start the course's JupyterLab the way `make lab` does, and drive it in headless Chromium.

Used by tests/e2e/conftest.py; nothing here knows about a particular lesson.

- :class:`LabServer`: runs ``make lab`` in a scratch copy of the checkout (so running,
  saving and validating notebooks never touches the repository), in its own process
  group with its own token, port, settings, workspaces, config and runtime folders;
  :meth:`LabServer.stop` stops the server *and* its kernels (kernels run in their own
  sessions, so they are found as the server's descendants, not by process group).
- :class:`BrowserLog`: every console error, page error and failed request of a page.
- :class:`Notebook`: one open notebook: run all, wait until the kernel is really idle,
  read the outputs a learner sees, save, validate.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from tests.ports import free_port

#: The repository the tests run from (its venvs serve the extra kernels).
REPO = Path(__file__).resolve().parents[2]
#: The checkout under test (default: this one; E2E_REPO: another). A scratch copy is what the server runs in.
SOURCE = Path(os.environ.get("E2E_REPO", REPO)).resolve()


class _PortTaken(RuntimeError):
    """`make lab` stopped: its port was taken between :func:`free_port` and its bind."""


#: What `make lab` is given on top of its own flags (Makefile: LAB_ARGS): a private address.
ISOLATION_ARGS = (
    "--ServerApp.ip=127.0.0.1",
    "--ServerApp.port_retries=0",
)

# `make lab` opens the learner's browser on the first page (through a small redirect file
# it writes). $BROWSER makes Python's webbrowser run this script instead, which records
# the address; the test's Chromium then opens that same address.
_RECORD_BROWSER = """#!/bin/sh
printf '%s\\n' "$1" >> "$(dirname "$0")/opened.txt"
"""

#: Settings a learner would click away once; a fresh profile asks again, so the test
#: answers up front (news: off, update checks: off).
TEST_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-sync",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-dev-shm-usage",
]


def copy_checkout(src: Path, dest: Path) -> Path:
    """Copy the files git sees in ``src`` (tracked and untracked, not ignored) to ``dest``.

    Work in progress is included, so the browser tests see the working tree. The
    venv is linked, not copied.
    """
    try:
        listed = subprocess.run(
            ["git", "-C", str(src), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True, capture_output=True,
        ).stdout.decode().split("\0")
        files = [f for f in listed if f and (src / f).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "artifacts", ".pytest_cache", "__pycache__", ".ipynb_checkpoints"}
        files = [str(p.relative_to(src)) for p in src.rglob("*")
                 if p.is_file() and not skip.intersection(p.relative_to(src).parts)]
    for f in files:
        target = dest / f
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copy2(src / f, target)  # keeps mtimes: make sees the venv as up to date
        except FileNotFoundError:
            pass  # an editor's temporary file, gone since git listed it
    return dest


@dataclass
class LabServer:
    checkout: Path          # the scratch copy `make lab` runs in
    home: Path              # the server's own jupyter folders and its log
    venv: Path              # the venv the tests run in (linked into the copy)
    port: int = field(default_factory=free_port)
    token: str = field(default_factory=lambda: os.urandom(16).hex())
    process: subprocess.Popen | None = None
    url: str = ""           # the address `make lab` opens in the browser: the learner's first page
    _descendants: dict[int, psutil.Process] = field(default_factory=dict)
    #: Extra kernels the server offers, {kernel name: (display name, python executable)}:
    #: the course's other supported Pythons (each in a venv of its own).
    kernels: dict[str, tuple[str, Path]] = field(default_factory=dict)
    _stopping: threading.Thread | None = None  # the kernels being stopped (shutdown_kernels)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.home / "jupyterlab.log"

    def log(self, tail: int = 60) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-tail:])
        except OSError:
            return ""

    def lab_args(self) -> str:
        dirs = {name: self.home / name for name in ("settings", "workspaces", "config", "runtime")}
        for d in dirs.values():
            d.mkdir(parents=True, exist_ok=True)
        for rel, values in TEST_SETTINGS.items():
            path = dirs["settings"] / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(values))
        args = [*ISOLATION_ARGS,
                f"--IdentityProvider.token={self.token}",
                f"--LabApp.user_settings_dir={dirs['settings']}",
                f"--LabApp.workspaces_dir={dirs['workspaces']}"]
        return " ".join(shlex.quote(a) for a in args)

    def command(self) -> list[str]:
        # `-o .venv/.installed`: never reinstall the shared venv from a test.
        return ["make", "--no-print-directory", "-C", str(self.checkout), "-o", ".venv/.installed",
                "lab", f"PORT={self.port}", f"LAB_ARGS={self.lab_args()}"]

    def start(self, timeout: float = 90) -> "LabServer":
        self.home.mkdir(parents=True, exist_ok=True)
        venv_link = self.checkout / ".venv"
        if not venv_link.exists():
            venv_link.symlink_to(self.venv, target_is_directory=True)
        env = {k: v for k, v in os.environ.items()
               if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "ANTHROPIC_API_KEY"}}
        env.update(
            JUPYTER_CONFIG_DIR=str(self.home / "config"),
            JUPYTER_RUNTIME_DIR=str(self.home / "runtime"),
            TOOLFAULTS_MODE="offline",
            PYTHONUNBUFFERED="1",
            BROWSER=str(self._browser_recorder()),
        )
        env.pop("MPLBACKEND", None)  # the kernel's own inline backend, as for a learner
        if self.kernels:
            env["JUPYTER_PATH"] = str(self._kernelspecs())
        # The port was free when it was chosen; another program may take it before the server binds it
        # (the server then stops at once, saying so): a new port, at most twice.
        for _ in range(2):
            try:
                return self._launch(env, timeout)
            except _PortTaken:
                self.port = free_port()
        return self._launch(env, timeout)

    def _launch(self, env: dict[str, str], timeout: float) -> "LabServer":
        cmd = self.command()
        (self.home / "command.txt").write_text(shlex.join(cmd) + "\n")
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(cmd, cwd=self.checkout, env=env, stdin=subprocess.DEVNULL,
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if f"port {self.port} is not available" in self.log():
                    raise _PortTaken(f"`make lab` could not bind port {self.port}:\n{self.log()}")
                raise RuntimeError(f"`make lab` exited with {self.process.returncode}:\n{self.log()}")
            opened = self.home / "opened.txt"
            if opened.exists() and opened.read_text().strip() and self.api("GET", "/api/status") is not None:
                self.url = opened.read_text().split()[0]
                return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"JupyterLab did not answer within {timeout:.0f} s:\n{self.log()}")

    def _kernelspecs(self) -> Path:
        """A data folder with one kernelspec per extra kernel (found through JUPYTER_PATH)."""
        data = self.home / "data"
        for name, (display, python) in self.kernels.items():
            spec = data / "kernels" / name
            spec.mkdir(parents=True, exist_ok=True)
            (spec / "kernel.json").write_text(json.dumps({
                "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": display, "language": "python"}))
        return data

    def _browser_recorder(self) -> Path:
        script = self.home / "record-browser.sh"
        script.write_text(_RECORD_BROWSER)
        script.chmod(0o755)
        return script

    def api(self, method: str, path: str) -> object | None:
        """Call the server's REST API with the token; None when it does not answer."""
        req = urllib.request.Request(self.base + path, method=method,
                                     headers={"Authorization": f"token {self.token}"})
        try:
            with urllib.request.urlopen(req, timeout=5) as resp:
                body = resp.read()
                return json.loads(body) if body else {}
        except (urllib.error.URLError, OSError, ValueError):
            return None

    def lab_url(self, path: str) -> str:
        """The address of a file in JupyterLab, with a fresh workspace (no tabs restored)."""
        return f"{self.base}/lab/tree/{path}?reset&token={self.token}"

    def shutdown_kernels(self) -> None:
        """Stop every kernel the server runs, in the background: a kernel takes about 0.7 s to exit (the server
        waits for it), which the next test's start overlaps. The next call, and :meth:`stop`, wait for it first."""
        self.wait_for_shutdowns()
        self._remember_descendants()
        ids = [kernel["id"] for kernel in self.api("GET", "/api/kernels") or []]
        self._stopping = threading.Thread(target=lambda: [self.api("DELETE", f"/api/kernels/{i}") for i in ids],
                                          name="kernel-shutdown", daemon=True)
        self._stopping.start()

    def wait_for_shutdowns(self) -> None:
        """Wait until the kernels :meth:`shutdown_kernels` stopped last are gone (the server's answers)."""
        if self._stopping is not None:
            self._stopping.join(timeout=30)
            self._stopping = None

    def _remember_descendants(self) -> None:
        if self.process is None:
            return
        try:
            for p in psutil.Process(self.process.pid).children(recursive=True):
                self._descendants[p.pid] = p
        except psutil.Error:
            pass

    def stop(self) -> list[str]:
        """Stop the server, its kernels and anything else it started; return what had to be killed."""
        if self.process is None:
            return []
        self.wait_for_shutdowns()
        self._remember_descendants()
        pgid = self.process.pid
        try:
            os.killpg(pgid, signal.SIGTERM)   # make, the shell and jupyter: a clean shutdown
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        killed = []
        try:
            os.killpg(pgid, signal.SIGKILL)
            killed.append(f"process group {pgid}")
        except ProcessLookupError:
            pass
        # Kernels live in sessions of their own: stop the ones the server left behind.
        alive = [p for p in self._descendants.values() if p.is_running()]
        for p in alive:
            try:
                p.terminate()
            except psutil.Error:
                pass
        _, still = psutil.wait_procs(alive, timeout=5)
        for p in still:
            try:
                p.kill()
                killed.append(f"{p.pid} {p.name()}")
            except psutil.Error:
                pass
        self.process.wait(timeout=5)
        self.process = None
        return killed


@dataclass
class BrowserLog:
    """Console errors, page errors and failed requests seen by one page."""

    problems: list[str] = field(default_factory=list)

    def attach(self, page) -> "BrowserLog":
        page.on("console", self._console)
        page.on("pageerror", lambda err: self.problems.append(f"page error: {err}"))
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)
        return self

    def _console(self, msg) -> None:
        if msg.type == "error":
            loc = msg.location or {}
            self.problems.append(f"console error: {msg.text} ({loc.get('url', '')}:{loc.get('lineNumber', '')})")

    def _request_failed(self, request) -> None:
        self.problems.append(f"request failed: {request.method} {request.url} ({request.failure})")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.request.method} {response.url}")

    def take(self) -> list[str]:
        taken, self.problems = self.problems, []
        return taken


# --- JupyterLab, as a learner sees it -------------------------------------------------

# True when the kernel of the notebook in the main area is idle and no cell is waiting
# or running. The toolbar's own indicator says "idle" before any kernel exists, so
# the status bar ("Python 3 (ipykernel) | Idle") is what counts.
_IDLE_JS = """
() => {
  const bar = document.querySelector('#jp-main-statusbar');
  if (!bar) return false;
  const text = bar.innerText;
  if (!text.includes('| Idle') || text.includes('No Kernel')) return false;
  const nb = document.querySelector('.jp-MainAreaWidget:not(.lm-mod-hidden) .jp-Notebook');
  if (!nb) return false;
  // textContent, not innerText: off-screen cells are not rendered (content-visibility)
  return ![...nb.querySelectorAll('.jp-InputPrompt')].some(p => p.textContent.includes('*'));
}
"""


def click_menu(page, menu: str, command: str) -> None:
    """Click an entry of JupyterLab's main menu, e.g. click_menu(page, "File", "filebrowser:open-path")."""
    page.locator(".lm-MenuBar-item", has_text=re.compile(rf"^{menu}$")).click()
    page.locator(f'.lm-Menu-item[data-command="{command}"]').click()


class Notebook:
    """The notebook open in JupyterLab's main area."""

    def __init__(self, page, name: str):
        self.page = page
        self.name = name
        self.panel = page.locator(".jp-MainAreaWidget:not(.lm-mod-hidden)").filter(
            has=page.locator(".jp-Notebook"))
        self.cells = self.panel.locator(".jp-Notebook .jp-Cell")

    # waiting ----------------------------------------------------------------------
    def wait_open(self, timeout: float = 60, settle: float = 0.5) -> "Notebook":
        """The notebook's tab is active, its cells are rendered and its kernel is idle (:meth:`wait_idle`)."""
        self.page.locator(f'.lm-TabBar-tab.lm-mod-current:has-text("{self.name}")').first.wait_for(
            timeout=timeout * 1000)
        self.cells.first.wait_for(timeout=timeout * 1000)
        return self.wait_idle(timeout, settle)

    def wait_idle(self, timeout: float = 60, settle: float = 0.5) -> "Notebook":
        """Idle by the status bar, no `[*]` prompt, and still so ``settle`` seconds later."""
        deadline = time.monotonic() + timeout
        while True:
            self.fail_on_dialog()
            left = max(0.1, deadline - time.monotonic())
            try:
                self.page.wait_for_function(_IDLE_JS, timeout=left * 1000, polling=100)
            except Exception as exc:  # playwright TimeoutError
                raise AssertionError(
                    f"{self.name}: the kernel did not become idle within {timeout:.0f} s; "
                    f"status bar: {self.status()!r}") from exc
            self.page.wait_for_timeout(settle * 1000)
            if self.page.evaluate(_IDLE_JS):
                return self
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: the kernel kept going busy; status bar: {self.status()!r}")

    def status(self) -> str:
        return self.page.locator("#jp-main-statusbar").inner_text(timeout=2000)

    def fail_on_dialog(self) -> None:
        dialog = self.page.locator(".jp-Dialog")
        if dialog.count():
            raise AssertionError(f"{self.name}: an unexpected dialog is open: {dialog.first.inner_text()!r}")

    # acting -----------------------------------------------------------------------
    def menu(self, menu: str, command: str) -> None:
        """Click a main-menu entry, e.g. menu("Run", "runmenu:run-all")."""
        click_menu(self.page, menu, command)

    def run_all(self, timeout: float = 90, settle: float = 0.5) -> "Notebook":
        """Run ▸ Run All Cells, then wait until every cell has run and the kernel is idle (:meth:`wait_idle`)."""
        self.menu("Run", "runmenu:run-all")
        self.page.wait_for_function(  # the run has started: a prompt shows `*` or a number
            """() => [...document.querySelectorAll('.jp-MainAreaWidget:not(.lm-mod-hidden) .jp-InputPrompt')]
                    .some(p => /\\[[*0-9]/.test(p.textContent))""", timeout=15000)
        return self.wait_idle(timeout, settle)

    def run_cell(self, index: int, timeout: float = 60) -> "Notebook":
        """Select a cell and run it with Ctrl+Enter, as a learner does; wait for its execution count."""
        cell = self.cells.nth(index)
        cell.scroll_into_view_if_needed()
        before = self.prompt(index)
        cell.locator(".jp-InputPrompt").click()   # selects the cell (command mode)
        self.page.keyboard.press("Control+Enter")
        self.page.wait_for_function(
            "([e, before]) => /\\[\\d+\\]/.test(e.textContent) && e.textContent.trim() !== before",
            arg=[cell.locator(".jp-InputPrompt").element_handle(), before], timeout=timeout * 1000, polling=50)
        return self

    def set_cell_source(self, index: int, source: str) -> None:
        """Replace a cell's code through the editor: click in, select all, type the new text."""
        cell = self.cells.nth(index)
        cell.scroll_into_view_if_needed()
        editor = cell.locator(".cm-content")
        editor.click()
        self.page.keyboard.press("Control+A")
        self.page.keyboard.press("Delete")
        # insert_text is one input event: CodeMirror adds no indentation or brackets to it.
        self.page.keyboard.insert_text(source)
        self.page.keyboard.press("Escape")

    def save(self) -> None:
        self.panel.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
        self.page.keyboard.press("Control+s")
        self.page.wait_for_function(  # no "unsaved" dot on the tab
            "() => !document.querySelector('.lm-TabBar-tab.lm-mod-current.jp-mod-dirty')", timeout=15000)

    # reading ----------------------------------------------------------------------
    def cell_text(self, index: int) -> str:
        """The outputs of a cell as shown on screen (scrolled to first: off-screen cells are not rendered)."""
        cell = self.cells.nth(index)
        cell.evaluate("e => e.scrollIntoView({block: 'center'})")
        out = cell.locator(".jp-Cell-outputArea")
        if (out.text_content() or "").strip():
            self.page.wait_for_function("e => e.innerText.trim().length > 0", arg=out.element_handle(), timeout=10000)
        return out.inner_text()

    def prompt(self, index: int) -> str:
        return (self.cells.nth(index).locator(".jp-InputPrompt").text_content() or "").strip()

    def prompts(self) -> list[str]:
        return [p.strip() for p in self.panel.locator(".jp-Cell.jp-CodeCell .jp-InputPrompt").all_text_contents()]

    def error_outputs(self) -> list[tuple[int, str]]:
        """(cell index, text) of every output rendered as stderr (errors, tracebacks, warnings)."""
        found = []
        for i in range(self.cells.count()):
            outs = self.cells.nth(i).locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
            found += [(i, t) for t in outs.all_text_contents()]  # off-screen cells included
        return found


MAIN_VERSION = "%d.%d" % sys.version_info[:2]
#: The Chromium the browser tests drive (E2E_CHROMIUM overrides it); where it is missing they are skipped.
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")


def browser_installed() -> bool:
    return os.access(CHROMIUM, os.X_OK)


def run_all_in_browser(language: str) -> bool:
    """Whether tests/e2e/test_run_all.py runs this Python's lessons of ``language`` in JupyterLab.

    It does where Chromium is installed, for this Python when it is the course's venv (every
    lesson, both editions) or the venv `make test` made for another supported Python (the
    English lessons). Another interpreter (a venv of one's own, the learner edition) is not
    one the browser tests use.
    """
    if not browser_installed():
        return False
    here = Path(sys.prefix).resolve()
    if here == (REPO / ".venv").resolve():
        return True
    return (language == "en" and MAIN_VERSION in supported_versions()
            and here == (REPO / f".venv-{MAIN_VERSION}").resolve())


def supported_versions() -> list[str]:
    """The supported Pythons (Makefile: PYTHON_VERSIONS, the one place they are listed)."""
    m = re.search(r"^PYTHON_VERSIONS\s*:?=\s*(.+)$", (REPO / "Makefile").read_text(), re.M)
    assert m, "the Makefile has no PYTHON_VERSIONS"
    return m.group(1).split()


def other_pythons() -> dict[str, Path | None]:
    """{version: its venv (`make test` makes .venv-3.X for each one it finds), or None when missing}."""
    return {v: (REPO / f".venv-{v}" if (REPO / f".venv-{v}" / ".installed").exists() else None)
            for v in supported_versions() if v != MAIN_VERSION}


def kernel_name(version: str) -> str:
    """The kernel a notebook names to run on ``version`` (the course's own venv: python3)."""
    return "python3" if version == MAIN_VERSION else f"course-py{version}"


def launch_browser(playwright, executable: str):
    return playwright.chromium.launch(executable_path=executable, args=LAUNCH_ARGS, headless=True)


def venv_root() -> Path:
    return Path(sys.prefix)
