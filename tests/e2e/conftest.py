"""Browser tests: the course's JupyterLab, started by `make lab`, driven in headless Chromium.

Run them with `make e2e` (installs Chromium when it is missing). `make test` includes
them when Chromium is installed and skips them, saying why, when it is not.

- One JupyterLab for the session, started with `make lab` in a scratch copy of the
  checkout (tests save and validate notebooks; the repository is never touched), with
  its own port, token, settings, workspaces and runtime folders, in its own process
  group; stopped with its kernels right after the last browser test.
- One Chromium and one browser profile; every test opens a fresh page (and a fresh
  JupyterLab workspace) whose console errors, page errors and failed requests fail it,
  but for the tests that each open one lesson (Run All, the diagrams), which open lesson
  after lesson in one page (:func:`lab_tab`), as a learner does, and get a fresh page after
  a failure.
- Screenshots of every step, step timings and the server's log in artifacts/e2e/
  (a screenshot of the page on failure too).

Environment: `E2E_UPDATE_DOCS=1` also copies the README's screenshot to docs/screenshots/;
`E2E_REPO=/path/to/checkout` serves another checkout (e.g. one with a widget broken on
purpose, to see the tests fail); `E2E_CHROMIUM` overrides /usr/bin/chromium.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from labdriver import (CHROMIUM, SOURCE, BrowserLog, LabServer, browser_installed, click_menu, copy_checkout,
                       kernel_name, launch_browser, other_pythons, venv_root)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "e2e"
DOCS_SHOTS = ROOT / "docs" / "screenshots"
NO_BROWSER = (f"Chromium is not installed at {CHROMIUM}: run `make browser` "
              "(apt-get install chromium fonts-dejavu-core), then `make e2e`")


def pytest_configure(config):
    config.addinivalue_line("markers", "e2e: drives JupyterLab in headless Chromium (needs /usr/bin/chromium)")


def pytest_collection_modifyitems(config, items):  # every test of this folder is marked e2e (tests/conftest.py)
    if browser_installed():
        return
    if os.environ.get("E2E_REQUIRED"):
        raise pytest.UsageError(NO_BROWSER)
    skip = pytest.mark.skip(reason=NO_BROWSER)
    for item in items:
        if item.get_closest_marker("e2e"):
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def artifacts() -> Path:
    shutil.rmtree(ARTIFACTS, ignore_errors=True)
    ARTIFACTS.mkdir(parents=True)
    return ARTIFACTS


# Stopped as soon as the last browser test has run (not at the end of a whole `make test`).
_STOP_AFTER_LAST_E2E: list = []


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item, nextitem):
    if nextitem is None or Path(__file__).parent not in Path(nextitem.path).parents:
        while _STOP_AFTER_LAST_E2E:
            _STOP_AFTER_LAST_E2E.pop()()


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory, artifacts):
    """JupyterLab as `make lab` starts it, in a scratch copy of the checkout."""
    work = tmp_path_factory.mktemp("e2e")
    checkout = copy_checkout(SOURCE, work / "course-checkout")
    kernels = {kernel_name(v): (f"Python {v} (course)", venv / "bin" / "python")
               for v, venv in other_pythons().items() if venv is not None}
    server = LabServer(checkout=checkout, home=work / "jupyter", venv=venv_root(), kernels=kernels)

    def stop():
        if server.process is None:
            return
        killed = server.stop()
        if server.log_path.exists():
            with open(server.log_path, "a") as log:
                log.write(f"\n[e2e] stopped; killed after SIGTERM: {killed or 'nothing'}\n")
            shutil.copy(server.log_path, artifacts / "jupyterlab.log")

    _STOP_AFTER_LAST_E2E.append(stop)
    try:
        server.start()
        yield server
    finally:
        stop()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    chromium = None

    def stop():
        nonlocal playwright, chromium
        if chromium is not None:
            chromium.close()
            chromium = None
        if playwright is not None:
            playwright.stop()
            playwright = None

    _STOP_AFTER_LAST_E2E.append(stop)
    try:
        chromium = launch_browser(playwright, CHROMIUM)
        yield chromium
    finally:
        stop()


class Session:
    """A fresh browser page on the test server, with its problems log and screenshots."""

    def __init__(self, page, server: LabServer, log: BrowserLog, name: str, artifacts: Path):
        self.page, self.server, self.log, self.name, self.artifacts = page, server, log, name, artifacts
        self.shots: list[Path] = []
        self.started = time.monotonic()
        self.timings: list[str] = []   # seconds from the start of the test to each screenshot

    def goto(self, path: str | None = None) -> None:
        """Open a file in JupyterLab (a fresh workspace); no path: what `make lab` opens in the browser."""
        self.page.goto(self.server.url if path is None else self.server.lab_url(path))
        self.page.locator("#jp-main-statusbar").wait_for(timeout=60000)

    def open(self, path: str) -> None:
        """Open a file as a learner does in the JupyterLab the page already shows (File ▸ Open from Path…),
        or load JupyterLab on it (:meth:`goto`) when the page has none yet."""
        if not self.page.locator("#jp-main-statusbar").count():
            self.goto(path)
            return
        click_menu(self.page, "File", "filebrowser:open-path")
        field = self.page.locator(".jp-Dialog input")
        field.fill(path)
        field.press("Enter")
        self.page.locator(".jp-Dialog").wait_for(state="detached", timeout=15000)

    def close_all(self) -> None:
        """File ▸ Close All Tabs, discarding what a test left unsaved; nothing when no JupyterLab is loaded."""
        if not self.page.locator("#jp-main-statusbar").count():
            return
        click_menu(self.page, "File", "application:close-all")
        notebooks, discard = self.page.locator(".jp-MainAreaWidget .jp-Notebook"), self.page.locator(
            ".jp-Dialog button", has_text=re.compile(r"^\s*Discard\s*$"))
        deadline = time.monotonic() + 15
        while notebooks.count():
            if time.monotonic() > deadline:
                raise AssertionError(f"{notebooks.count()} notebook tab(s) still open 15 s after File ▸ Close All Tabs")
            if discard.count():  # "Save your work": one dialog per unsaved notebook
                discard.first.click()
            self.page.wait_for_timeout(100)

    def shot(self, step: str, docs_name: str | None = None) -> Path:
        path = self.artifacts / f"{self.name}-{len(self.shots) + 1:02d}-{step}.png"
        self.timings.append(f"{time.monotonic() - self.started:6.1f} s  {path.name}")
        self.page.screenshot(path=path)
        self.shots.append(path)
        if docs_name and os.environ.get("E2E_UPDATE_DOCS"):
            DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, DOCS_SHOTS / docs_name)
        return path

    def assert_clean(self) -> None:
        problems = self.log.take()
        assert not problems, "the browser reported problems:\n" + "\n".join(problems)


@pytest.fixture(scope="session")
def browser_context(browser):
    """One browser profile for the session: JupyterLab's static files are cached across tests."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30000)
    yield context
    if browser.is_connected():
        context.close()


def _session(request, page, log, lab_server, artifacts, keep):
    """A test's :class:`Session` on ``page``; afterwards: its timings, a screenshot if it failed, its kernels
    stopped and its browser problems failing it. ``keep(failed)`` says whether the page stays open (it is
    closed otherwise)."""
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name.removeprefix("test_"))
    session = Session(page, lab_server, log, name, artifacts)
    problems: list[str] = []
    try:
        yield session
    finally:
        call = getattr(request.node, "report_call", None)
        failed = call is None or call.failed
        kept = keep(session, failed)
        problems = log.take()
        if failed:
            try:
                page.screenshot(path=artifacts / f"{name}-FAILED.png")
            except Exception:
                pass
        if not kept or problems:
            page.close()
        lab_server.shutdown_kernels()
        session.timings.append(f"{time.monotonic() - session.started:6.1f} s  end")
        (artifacts / f"{name}-timings.txt").write_text("\n".join(session.timings) + "\n")
    if problems:
        pytest.fail("the browser reported problems:\n" + "\n".join(problems))


@pytest.fixture
def lab(request, browser_context, lab_server, artifacts):
    """A new page (fresh JupyterLab workspace); fails the test on any console/page error or failed request."""
    page = browser_context.new_page()
    yield from _session(request, page, BrowserLog().attach(page), lab_server, artifacts, keep=lambda *_: False)


@pytest.fixture(scope="module")
def shared_page(browser_context):
    """The page the tests of a module share through :func:`lab_tab` (a dict: page and log, or empty)."""
    held: dict = {}
    yield held
    if held and not held["page"].is_closed():
        held["page"].close()


@pytest.fixture
def lab_tab(request, shared_page, browser_context, lab_server, artifacts):
    """:func:`lab`, but the page stays open for the module's next test, as one learner goes from lesson to lesson
    in one JupyterLab: a test opens its notebook with :meth:`Session.open`, and its tabs are closed and its
    kernels stopped after it. The page is replaced after a failed test or a browser problem, so one test's
    trouble does not reach the next."""
    if not shared_page or shared_page["page"].is_closed():
        page = browser_context.new_page()
        shared_page.update(page=page, log=BrowserLog().attach(page))

    def keep(session: Session, failed: bool) -> bool:
        if failed:
            return False
        try:
            session.close_all()
            return True
        except Exception as err:  # playwright's errors too: the page is replaced
            session.log.problems.append(f"closing the tabs failed: {err}")
            return False

    yield from _session(request, shared_page["page"], shared_page["log"], lab_server, artifacts, keep)
