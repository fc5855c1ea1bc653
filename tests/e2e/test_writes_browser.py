"""A real Chromium on Write's "What each head writes": a link opens it on the violin sentence, the grid's
largest cell is the head DESIGN.md measured (layer 26, about +9.3 of a logit of 8.7), the check says the parts
add up, and a click on that cell chooses the head (the head view's pickers and the link follow) and shows what
it pushes up."""

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
