"""A real Chromium on Write's "What each head writes": a link opens it on the violin sentence, the grid's
largest cell is the head DESIGN.md measured (layer 26, about +9.3 of a logit of 8.7), the check says the parts
add up, and a click on that cell chooses the head (the head view's pickers and the link follow) and shows what
it pushes up; the "rather than" box keeps a visible label across a language switch (it was drawn empty)."""

import re

import pytest
from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.plot_geometry import chart_point

pytestmark = [pytest.mark.browser, pytest.mark.model]
PROMPT = "Anna gave the violin to her brother, and her brother gave the violin back to"
GRID_TITLE = "What each head writes directly to the logit of"


def grid_index(page) -> int:
    charts = page.locator('[data-testid="stPlotlyChart"]')
    titles: list[str] = []
    for _ in range(240):
        titles = [page.evaluate("(el) => { const gd = el.querySelector('.js-plotly-plot');"
                                " return gd && gd._fullLayout ? gd._fullLayout.title.text : ''; }", c.element_handle())
                  for c in charts.all()]
        found = [i for i, title in enumerate(titles) if GRID_TITLE in title.replace("<br>", " ")]
        if found:
            return found[0]
        page.wait_for_timeout(500)
    raise AssertionError(f"no grid among the charts: {titles}")


def test_a_link_opens_the_grid_and_a_click_on_its_largest_cell_chooses_that_head(page, app_url):
    page.goto(f"{app_url}/write?prompt={PROMPT.replace(' ', '%20')}&writes=1&layer=0&head=0")
    wait_idle(page, timeout_ms=300_000)  # the first visit may expand and load the model
    grid = grid_index(page)
    values = page.evaluate("(el) => Array.from(el.querySelector('.js-plotly-plot')._fullData[0].z, r => Array.from(r))",
                           page.locator('[data-testid="stPlotlyChart"]').nth(grid).element_handle())
    assert len(values) == 30 and all(len(row) == 9 for row in values)  # SmolLM2: 30 layers × 9 heads
    value, layer, head = max((abs(v), i, h) for i, row in enumerate(values) for h, v in enumerate(row))
    assert layer == 26 and 9.2 < value < 9.4
    expect(page.get_by_text("The parts add up:")).to_be_visible()
    expect(page.get_by_text(f"Layer 26, head {head} writes ·her", exact=False).first).to_be_visible()
    page.locator('[data-testid="stPlotlyChart"]').nth(grid).scroll_into_view_if_needed()
    page.mouse.click(*chart_point(page, grid, head, layer))
    wait_idle(page)
    expect(page.get_by_text(f"Layer 26, head {head} writes +9.3", exact=False)).to_be_visible(timeout=60_000)
    expect(page.get_by_text("Its output alone pushes up most", exact=False)).to_be_visible()
    assert "layer=26" in page.url and f"head={head}" in page.url and "writes=1" in page.url


def test_the_rather_than_box_says_its_choice_in_the_new_language(page, app_url):
    """A learner set a word against another, went back to "its logit alone" and switched the language: the box
    was drawn empty. It shows the choice in the new language."""
    page.goto(f"{app_url}/write?prompt=Once%20upon%20a%20time%20there%20was%20a&writes=1")
    wait_idle(page, timeout_ms=300_000)
    box = page.get_by_role("combobox", name="rather than")
    expect(box).to_have_value("— (its logit alone)", timeout=120_000)
    wait_idle(page)  # the section has chosen its standout head (one more run)
    box.scroll_into_view_if_needed()
    box.click()
    page.get_by_role("option").nth(1).click()  # the second likeliest word
    wait_idle(page)
    expect(box).to_have_value(re.compile(r"^·"), timeout=60_000)
    box.click()
    page.get_by_role("option", name="— (its logit alone)").click()
    wait_idle(page)
    expect(box).to_have_value("— (its logit alone)", timeout=60_000)
    page.locator('[data-testid="stSidebar"]').get_by_text("中文").click()
    wait_idle(page)
    expect(page.get_by_role("combobox", name="而不是")).to_have_value("—（只看它的 logit）", timeout=60_000)
