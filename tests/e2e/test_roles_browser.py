"""A real Chromium on Overview → Head roles (MiniLM): open the section, click a cell of the role grid, and land
on Explore on that head, reading the very probe that scored it."""

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.plot_geometry import chart_point

GRID_TITLE = "previous token: every layer × head"


def grid_index(page) -> int:
    """Which of the page's charts is the role grid (found by its title once it is drawn)."""
    charts = page.locator('[data-testid="stPlotlyChart"]')
    titles: list[str] = []
    for _ in range(240):
        titles = [page.evaluate("(el) => { const gd = el.querySelector('.js-plotly-plot');"
                                " return gd && gd._fullLayout ? gd._fullLayout.title.text : ''; }", c.element_handle())
                  for c in charts.all()]
        found = [i for i, title in enumerate(titles) if GRID_TITLE in title]
        if found:
            return found[0]
        page.wait_for_timeout(500)
    raise AssertionError(f"no role grid among the charts: {titles}")


def grid_values(page, index: int) -> list[list[float]]:
    """The grid's scores as the browser holds them (layers × heads)."""
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(index).element_handle()
    return page.evaluate("(el) => Array.from(el.querySelector('.js-plotly-plot')._fullData[0].z, r => Array.from(r))",
                         chart)


def test_clicking_a_role_cell_opens_that_head_on_explore_with_the_probe(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    page.get_by_role("link", name="Overview").click()  # through the navigation, as a person would
    wait_idle(page)
    expect(page.get_by_role("heading", name="Head roles")).to_be_visible(timeout=60_000)
    page.get_by_text("Measure what each head does").click()
    wait_idle(page)
    expect(page.get_by_text("Probe: 12 random words")).to_be_visible(timeout=120_000)
    probe = page.get_by_text("Probe: 12 random words").inner_text()
    text = probe[probe.index("“") + 1:probe.rindex("”")]
    assert text.startswith("Words: ")

    grid = grid_index(page)  # MiniLM has no induction: the grid opens on the previous-token role
    values = grid_values(page, grid)
    assert len(values) == 6 and all(len(row) == 12 for row in values)  # 6 layers × 12 heads
    _, layer, head = max((v, lay, h) for lay, row in enumerate(values) for h, v in enumerate(row))
    page.locator('[data-testid="stPlotlyChart"]').nth(grid).scroll_into_view_if_needed()
    page.mouse.click(*chart_point(page, grid, head, layer))
    wait_idle(page)
    expect(page.get_by_role("heading", name="Explore attention")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("combobox", name="Layer")).to_have_value(str(layer))
    expect(page.get_by_role("combobox", name="Head")).to_have_value(str(head))
    expect(page.get_by_role("textbox", name="Sentence")).to_have_value(text)
    assert f"layer={layer}" in page.url and f"head={head}" in page.url and "text=Words" in page.url
