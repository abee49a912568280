"""Binder parity: environment.yml installs what these tests ran with, and the README's
Binder link opens the course's first page (also checked in the browser)."""

from __future__ import annotations

import importlib.metadata as md
import re
import sys
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import pytest
import yaml
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name


ROOT = Path(__file__).resolve().parents[2]
BADGE = ("[![Binder](https://mybinder.org/badge_logo.svg)]"
         "(https://mybinder.org/v2/gh/OWNER/REPO/HEAD?urlpath=lab/tree/{page})")
BINDER_LINK = re.compile(r"https?://mybinder\.org/v2/[^\s)\"'<>\]]+")
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)\s*==\s*(\S+)$")


def lab_command(lang: str = "en") -> str:
    """The JupyterLab command `make lab LANG=<lang>` runs (`make -n`, also when the tests run under make)."""
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    run = subprocess.run(["make", "--no-print-directory", "-n", "lab", f"LANG={lang}"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    return next(line for line in run.stdout.splitlines() if "jupyter lab" in line).strip()


def first_page(lang: str = "en") -> str:
    """The page `make lab` opens (`make lab LANG=es`: the Spanish edition's)."""
    m = re.search(r'"([^"]+\.ipynb)"$', lab_command(lang))
    assert m, f"`make lab` opens no notebook: {lab_command(lang)}"
    return m.group(1)


@pytest.mark.parametrize(("lang", "page"), [("es", "course/es/00_index.ipynb"), ("es_MX.UTF-8", "course/es/00_index.ipynb"),
                                             ("C.UTF-8", "course/00_index.ipynb"), ("", "course/00_index.ipynb")])
def test_make_lab_opens_the_first_page_of_the_language(lang, page):
    """`make lab LANG=es` (or a Spanish locale) opens the Spanish first page; any other LANG the English one."""
    assert first_page(lang) == page
    assert 'LANG="es"' not in lab_command(lang), "jupyter must get a real locale, not LANG=es"


def environment() -> tuple[list[str], list[str]]:
    """(conda dependencies, pip lines) of environment.yml."""
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda, pip = [], []
    for dep in env["dependencies"]:
        if isinstance(dep, dict):
            pip += [str(x).strip() for x in dep.get("pip", [])]
        else:
            conda.append(str(dep).strip())
    return conda, pip


def installed(name: str) -> str | None:
    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None


def lock() -> dict[str, str]:
    found = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        m = PIN.match(line.split("#", 1)[0].strip())
        if m:
            found[m.group(1)] = m.group(2)
    return found


def test_environment_yml_pins_are_what_the_tests_ran_with():
    """Every pip pin of environment.yml is the version installed where these tests run."""
    _, pip = environment()
    pins = {m.group(1): m.group(2) for m in map(PIN.match, pip) if m}
    assert len(pins) >= 10, f"environment.yml pins too few pip packages: {pins}"
    differ = {name: {"environment.yml": want, "tests ran with": installed(name)}
              for name, want in pins.items() if installed(name) != want}
    assert not differ, f"Binder would install other versions than the tests ran with: {differ}"
    others = [line for line in pip if not PIN.match(line)]
    for line in others:
        if line in ("-e .", "."):
            import toolfaults

            assert Path(toolfaults.__file__).resolve().is_relative_to(ROOT), (
                f"the tests import toolfaults from {toolfaults.__file__}, not from this checkout as Binder's `-e .` does")
            continue
        m = re.match(r"^-[rc]\s*(\S+)$", line)
        assert m and (ROOT / m.group(1)).is_file(), f"environment.yml: unexpected pip line {line!r}"


def test_environment_yml_python_is_the_tests_python():
    """Binder's Python is the minor version the tests ran on, and the package accepts it."""
    conda, _ = environment()
    spec = [d for d in conda if re.match(r"^python\s*[=<>!]", d)]
    assert len(spec) == 1, f"environment.yml must pin Python once (nbgrader 0.9.6 needs >= 3.11), found {spec}"
    m = re.match(r"^python\s*=+\s*(\d+)\.(\d+)", spec[0])
    assert m, f"environment.yml should pin a Python minor version like python=3.11, found {spec[0]!r}"
    binder = (int(m.group(1)), int(m.group(2)))
    assert binder == sys.version_info[:2], (
        f"Binder gets Python {binder[0]}.{binder[1]} but the tests ran on {sys.version.split()[0]}")
    import tomllib

    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert f"{binder[0]}.{binder[1]}" in SpecifierSet(requires), (
        f"pyproject.toml requires Python {requires}; Binder's {binder[0]}.{binder[1]} does not satisfy it")


def test_binder_installs_the_lock_the_tests_ran_with():
    """The tests ran on the full lock (constraints.txt), and Binder resolves through the same lock."""
    pinned = lock()
    differ = {name: (v, installed(name)) for name, v in pinned.items() if installed(name) != v}
    assert not differ, f"the test environment differs from constraints.txt (lock, installed): {differ}"
    _, pip = environment()
    uses_lock = any(re.match(r"^-c\s*constraints\.txt$", line) for line in pip)
    pinned_all = {canonicalize_name(m.group(1)) for m in map(PIN.match, pip) if m} >= {
        canonicalize_name(n) for n in pinned}
    if not (uses_lock or pinned_all):
        pytest.xfail("environment.yml pins only the direct dependencies, so Binder may resolve other "
                     "versions of the indirect ones; add `- -c constraints.txt` to its pip section")


def binder_urlpaths() -> list[str]:
    links = BINDER_LINK.findall((ROOT / "README.md").read_text())
    assert links, ("README.md has no Binder link; add one that opens the first page, e.g.\n"
                   + BADGE.format(page=first_page()))
    paths = []
    for link in links:
        url = urlparse(link)
        assert re.match(r"^/v2/(gh|git|gl)/[^/]+/[^/]+/[^/?]+", url.path), f"not a Binder launch link: {link}"
        urlpath = parse_qs(url.query).get("urlpath", [""])[0]
        paths.append(unquote(urlpath))
    return paths


def test_readme_binder_link_opens_the_first_page():
    """The README's Binder links open JupyterLab on the first page `make lab` opens: the first link on the
    English one, the Spanish section's on the Spanish one (`make lab LANG=es`); both exist."""
    pages = {"en": first_page("en"), "es": first_page("es")}
    assert pages["en"] != pages["es"]
    urlpaths = binder_urlpaths()
    assert urlpaths[0] == f"lab/tree/{pages['en']}", (
        f"the README's Binder badge opens {urlpaths[0]!r}; it should open JupyterLab on the first page: "
        f"urlpath=lab/tree/{pages['en']}")
    assert set(urlpaths) == {f"lab/tree/{page}" for page in pages.values()}, (
        f"the README's Binder links open {urlpaths}; each should open an edition's first page: {pages}")
    for page in pages.values():
        assert (ROOT / page).is_file(), f"the Binder link opens {page}, which does not exist"


def test_readme_shows_a_screenshot_taken_by_the_tests():
    """The README's screenshot is one the browser tests take (docs/screenshots/)."""
    images = re.findall(r"!\[[^\]]*\]\((docs/screenshots/[^)\s]+)\)", (ROOT / "README.md").read_text())
    assert images, "README.md shows no screenshot from docs/screenshots/ (taken by `make e2e`)"
    missing = [i for i in images if not (ROOT / i).is_file()]
    assert not missing, f"README.md shows screenshots that do not exist: {missing}"


@pytest.mark.e2e
@pytest.mark.parametrize(("index", "switch"), [(0, "Leer en español"), (-1, "Read in English")], ids=["en", "es"])
def test_binder_urlpath_opens_the_first_page_in_jupyterlab(lab, index, switch):
    """JupyterLab opened at a README Binder urlpath shows that edition's first page, as on Binder
    (the English page offers the switch to Spanish, the Spanish one the switch back)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    urlpath = binder_urlpaths()[index]
    lab.page.goto(f"{lab.server.base}/{urlpath}?reset&token={lab.server.token}")
    name = Path(first_page()).name
    lab.page.locator(f'.lm-TabBar-tab.lm-mod-current:has-text("{name}")').wait_for(timeout=60000)
    # Waited for, not read once: on a loaded machine JupyterLab may still be rendering the page.
    shown = lab.page.locator(".jp-MainAreaWidget:not(.lm-mod-hidden) .jp-RenderedMarkdown", has_text=switch)
    try:
        shown.first.wait_for(timeout=60000)
    except PlaywrightTimeout:
        text = lab.page.locator(".jp-MainAreaWidget:not(.lm-mod-hidden)").first.inner_text()
        pytest.fail(f"{urlpath} does not show the page with {switch!r} within 60 s; it shows:\n{text[:500]}")
    lab.shot("binder-urlpath")
    lab.assert_clean()
