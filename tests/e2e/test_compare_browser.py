"""A real Chromium on Change one word: from Explore's button, type B, read the grid, click a cell of it to
show that head, and open the head that changed most on Explore."""

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.plot_geometry import chart_point

A = "The black cat drank the milk"
B = "The black dog drank the milk"
GRID_TITLE = "Jensen–Shannon distance of A's and B's attention, per head"


def grid_index(page) -> int:
    """Which of the page's charts is the grid (found by its title once it is drawn)."""
    charts = page.locator('[data-testid="stPlotlyChart"]')
    for _ in range(240):
        titles = [page.evaluate("(el) => { const gd = el.querySelector('.js-plotly-plot');"
                                " return gd && gd._fullLayout ? gd._fullLayout.title.text : ''; }", c.element_handle())
                  for c in charts.all()]
        found = [i for i, title in enumerate(titles) if GRID_TITLE in title.replace("<br>", " ")]  # <b>, wrapped
        if found:
            return found[0]
        page.wait_for_timeout(500)
    raise AssertionError(f"no grid among the charts: {titles}")


def grid_values(page, index: int) -> list[list[float]]:
    """The grid's values as the browser holds them (sites × heads)."""
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(index).element_handle()
    return page.evaluate("(el) => Array.from(el.querySelector('.js-plotly-plot')._fullData[0].z, r => Array.from(r))",
                         chart)


def test_type_b_read_the_grid_click_a_head_and_open_the_top_one_on_explore(page, app_url):
    page.goto(f"{app_url}/?text=The+black+cat+drank+the+milk")
    wait_idle(page)
    page.get_by_role("button", name="Change one word").click()  # Explore's button: A = B = Explore's text
    wait_idle(page)
    expect(page.get_by_role("heading", name="Change one word")).to_be_visible(timeout=60_000)
    expect(page.get_by_text("A and B read as the same tokens")).to_be_visible(timeout=60_000)

    box = page.get_by_role("textbox", name="Sentence B (change one word of A)")
    expect(box).to_have_value(A)
    box.fill(B)
    box.press("Control+Enter")
    wait_idle(page)
    grid = grid_index(page)
    values = grid_values(page, grid)
    assert len(values) == 6 and all(len(row) == 12 for row in values)  # MiniLM: 6 layers × 12 heads
    flat = sorted(((v, layer, h) for layer, row in enumerate(values) for h, v in enumerate(row)), reverse=True)
    (_, top_layer, top_head), (_, layer2, head2) = flat[0], flat[1]
    assert "b=The+black+dog" in page.url or "b=The%20black%20dog" in page.url

    # a click on the second largest cell shows that head below the grid
    page.locator('[data-testid="stPlotlyChart"]').nth(grid).scroll_into_view_if_needed()
    page.mouse.click(*chart_point(page, grid, head2, layer2))
    wait_idle(page)
    expect(page.get_by_role("combobox", name="Layer")).to_have_value(str(layer2), timeout=30_000)
    expect(page.get_by_role("combobox", name="Head")).to_have_value(str(head2))

    # the first of the heads that changed most is the grid's largest cell; it opens on Explore
    first = page.get_by_role("button", name=f"1. encoder self-attention layer {top_layer}, head {top_head}:")
    first.click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="Explore attention")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("combobox", name="Layer")).to_have_value(str(top_layer))
    expect(page.get_by_role("combobox", name="Head")).to_have_value(str(top_head))
    expect(page.get_by_role("textbox", name="Sentence")).to_have_value(A)
    assert f"layer={top_layer}" in page.url and f"head={top_head}" in page.url
