"""What `make lab` opens in the browser is the course's first page, and it leads to the first lesson."""

import pytest

from labdriver import Notebook

pytestmark = pytest.mark.e2e

FIRST_PAGE = "00_index.ipynb"
FIRST_LESSON = "01_five_error_types.ipynb"


def test_first_page_opens_and_links_to_first_lesson(lab):
    lab.goto()  # what `make lab` opens in the learner's browser
    page = lab.page
    assert "/lab/tree/course/00_index.ipynb" in page.url, (
        f"`make lab` does not open the course's first page: the browser landed on {page.url}")
    page.locator(f'.lm-TabBar-tab.lm-mod-current:has-text("{FIRST_PAGE}")').wait_for()
    link = page.locator(f'.jp-MainAreaWidget:not(.lm-mod-hidden) .jp-RenderedMarkdown a[href*="{FIRST_LESSON}"]').first
    link.wait_for()
    lab.shot("first-page")
    # Learners get nbgrader's Validate button (tests/e2e/test_exercise_validate.py), not its instructor tools.
    page.locator('.lm-MenuBar-itemLabel:text-is("Help")').wait_for()
    instructor = {"the Nbgrader menu": '.lm-MenuBar-itemLabel:text-is("Nbgrader")',
                  "the Create Assignment sidebar": '#nbgrader-create_assignemnt, [data-id="nbgrader-create_assignemnt"]'}
    shown = [name for name, selector in instructor.items() if page.locator(selector).count()]
    assert not shown, f"learners see nbgrader's instructor tools: {shown} (see autograder/labsettings.py)"
    link.click()
    tab = page.locator(f'.lm-TabBar-tab.lm-mod-current:has-text("{FIRST_LESSON}")')
    tab.wait_for()
    page.locator(".jp-MainAreaWidget:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").first.wait_for()
    Notebook(page, FIRST_LESSON).wait_idle()
    lab.shot("first-lesson")
    lab.assert_clean()


def test_a_port_taken_before_the_server_binds_it_is_replaced(lab_server, tmp_path):
    """The browser tests' JupyterLab: a port another program takes between its choice and the server's bind
    stops that `make lab` at once; the driver starts it again on a new port instead of failing the test."""
    import socket

    from labdriver import LabServer

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        taken = held.getsockname()[1]
        server = LabServer(checkout=lab_server.checkout, home=tmp_path / "jupyter", venv=lab_server.venv, port=taken)
        try:
            server.start()
            assert server.port != taken
            assert server.api("GET", "/api/status") is not None
        finally:
            server.stop()
