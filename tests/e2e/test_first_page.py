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
    link.click()
    tab = page.locator(f'.lm-TabBar-tab.lm-mod-current:has-text("{FIRST_LESSON}")')
    tab.wait_for()
    page.locator(".jp-MainAreaWidget:not(.lm-mod-hidden) .jp-Notebook .jp-Cell").first.wait_for()
    Notebook(page, FIRST_LESSON).wait_idle()
    lab.shot("first-lesson")
    lab.assert_clean()
