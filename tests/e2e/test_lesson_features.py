"""Every lesson's diagrams render in JupyterLab: each ```mermaid block of a markdown cell
becomes an SVG, not an error box or the diagram's source.

JupyterLab (4.1 and later) renders a mermaid fence in markdown as `.jp-RenderedMermaid`
holding the diagram as an SVG (an `<img>` whose source is an SVG data URL, or an inline
`<svg>`); a diagram it cannot parse gets the class `jp-mod-warning` and shows its source
instead. Markdown cells render without running the kernel, but only when they are on
screen, so each diagram is scrolled into view first.
"""

from __future__ import annotations

import base64
import re
import shutil
import urllib.parse
from pathlib import Path

import nbformat
import pytest
from playwright.sync_api import expect

from labdriver import REPO, SOURCE, Notebook

pytestmark = pytest.mark.e2e

MERMAID = re.compile(r"^```mermaid\s*$", re.M)
LESSONS = sorted(p.name for p in (REPO / "course").glob("[0-9][0-9]*_*.ipynb") if not p.name.startswith("00_"))


def svg_text(image) -> str:
    """The SVG markup a diagram shows: an inline <svg>, or the data URL of an <img>."""
    if image.evaluate("e => e.tagName.toLowerCase()") == "svg":
        return image.evaluate("e => e.outerHTML")
    src = image.get_attribute("src") or ""
    header, _, data = src.partition(",")
    return base64.b64decode(data).decode() if header.endswith(";base64") else urllib.parse.unquote(data)


def diagram_cells(lesson: str) -> list[int]:
    nb = nbformat.read(SOURCE / "course" / lesson, as_version=4)
    return [i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and MERMAID.search(c.source)]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda name: Path(name).stem)
def test_every_diagram_renders_as_svg(lab_tab, lesson: str):
    lab = lab_tab
    cells = diagram_cells(lesson)
    assert cells, f"{lesson} has no mermaid diagram (tests/lessons/test_teaching.py says so too)"
    # A pristine copy beside the lesson: other browser tests run and save the lessons in the
    # server's checkout, and saved widget views have no models once their kernel is gone.
    name = f"{Path(lesson).stem}-diagrams.ipynb"
    shutil.copy(SOURCE / "course" / lesson, lab.server.checkout / "course" / name)
    lab.open(f"course/{name}")
    nb = Notebook(lab.page, name).wait_open()
    for i in cells:
        cell = nb.cells.nth(i)
        cell.evaluate("e => e.scrollIntoView({block: 'center'})")   # off-screen cells are not rendered
        diagram = cell.locator(".jp-RenderedMermaid")
        expect(diagram.first).to_be_attached(timeout=30000)
        expect(diagram.first).not_to_have_class(re.compile(r"\bjp-mod-warning\b"))
        image = diagram.first.locator("svg, img[src^='data:image/svg+xml']").first
        expect(image).to_be_visible(timeout=30000)
        image.evaluate("e => e.scrollIntoView({block: 'center'})")
        box = image.bounding_box()
        assert box and box["width"] > 50 and box["height"] > 30, f"{lesson} cell {i}: the diagram is empty: {box}"
        markup = svg_text(image)
        assert "<svg" in markup, f"{lesson} cell {i}: the diagram is not an SVG: {markup[:120]!r}"
        assert "Syntax error" not in markup, f"{lesson} cell {i}: mermaid reports a syntax error"
        lab.shot(f"diagram-cell{i}")
    lab.assert_clean()
