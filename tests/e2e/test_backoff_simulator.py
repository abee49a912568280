"""Lesson 05 in the browser: Run All, the backoff simulator renders, its sliders drive the figure."""

import re

import nbformat
import pytest
from playwright.sync_api import expect

from labdriver import Notebook

pytestmark = pytest.mark.e2e

LESSON = "course/05_retry_with_backoff.ipynb"


def notebook_errors(path) -> list[str]:
    """Error outputs saved in the notebook, except in cells tagged raises-exception."""
    nb = nbformat.read(path, as_version=4)
    return [f"cell {i}: {o.get('ename')}: {o.get('evalue')}"
            for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
            and "raises-exception" not in cell.metadata.get("tags", [])
            for o in cell.get("outputs", []) if o.get("output_type") == "error"]


def test_backoff_simulator_runs_and_sliders_drive_the_figure(lab):
    lab.goto(LESSON)
    nb = Notebook(lab.page, "05_retry_with_backoff.ipynb").wait_open()
    lab.shot("opened")
    nb.run_all(timeout=90)
    lab.shot("ran-all")

    # The simulator: three sliders, a dropdown and an output with the figure and the numbers.
    cell = nb.cells.filter(has=lab.page.locator(".jupyter-widgets.widget-slider"))
    expect(cell).to_have_count(1)
    cell.evaluate("e => e.scrollIntoView({block: 'start'})")  # what is off screen is not rendered
    sliders = cell.locator(".jupyter-widgets.widget-slider")
    expect(sliders).to_have_count(3)
    clients = sliders.filter(has_text="clients")
    output = cell.locator(".jupyter-widgets.widget-output")
    figure = output.locator("img")
    expect(figure).to_be_visible(timeout=30000)
    readout = clients.locator(".widget-readout")
    expect(readout).to_have_text(re.compile(r"^\d+$"))
    start = int(readout.inner_text())
    expect(output).to_contain_text(f"clients={start},")
    lab.shot("simulator-rendered")
    before_src = figure.get_attribute("src")
    before_text = output.inner_text()

    # Two steps to the right with the keyboard; the slider sends one update per step,
    # so wait until the figure's own text states the final value before comparing.
    handle = clients.locator(".noUi-handle")
    handle.focus()
    lab.page.keyboard.press("ArrowRight")
    lab.page.keyboard.press("ArrowRight")
    expect(readout).to_have_text(str(start + 20))
    expect(output).to_contain_text(f"clients={start + 20},", timeout=30000)
    nb.wait_idle()
    expect(figure).to_be_visible()
    after_text = output.inner_text()
    assert figure.get_attribute("src") != before_src, "the figure did not change when the clients slider moved"
    numbers = lambda text: re.findall(r"\d+(?:\.\d+)?", text.split("\n", 1)[-1])  # noqa: E731 (after the settings line)
    assert numbers(after_text) != numbers(before_text), (
        f"the numbers under the figure did not change when the clients slider moved:\n{after_text}")
    cell.locator(".jp-Cell-outputWrapper").evaluate(
        "e => { e.scrollIntoView({block: 'start'}); e.closest('.jp-WindowedPanel-outer')?.scrollBy(0, -8); }")
    lab.shot("simulator-after-slider", docs_name="backoff_simulator.png")

    # The kernel ends idle; no error anywhere, on screen or in the saved notebook.
    nb.wait_idle()
    assert not nb.status().count("No Kernel")
    tagged = {i for i, c in enumerate(nbformat.read(lab.server.checkout / LESSON, as_version=4).cells)
              if "raises-exception" in c.metadata.get("tags", [])}
    shown = [(i, t) for i, t in nb.error_outputs()
             if i not in tagged and re.search(r"Error|Traceback|Exception", t)]
    assert not shown, f"{LESSON}: error output on screen: {shown}"
    nb.save()
    saved = notebook_errors(lab.server.checkout / LESSON)
    assert not saved, f"{LESSON}: error outputs after Run All: {saved}"
    lab.assert_clean()
