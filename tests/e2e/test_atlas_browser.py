"""A real Chromium on Overview → On real text: SmolLM2 over a pasted text, a click on a head of the atlas
grid chooses it, and an example's button opens Explore on that sentence, head and pair."""

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.plot_geometry import chart_point

OWN = "The cat sat on the mat. The cat sat on the mat again. A dog ran home and the dog ran back."


def atlas_grid(page) -> int:
    """Which of the page's charts is the atlas grid: the one whose first trace carries 270 heads."""
    charts = page.locator('[data-testid="stPlotlyChart"]')
    for _ in range(240):
        sizes = [page.evaluate("(el) => { const gd = el.querySelector('.js-plotly-plot');"
                               " return gd && gd._fullData ? (gd._fullData[0].customdata || []).length : 0; }",
                               c.element_handle()) for c in charts.all()]
        if 270 in sizes:
            return sizes.index(270)
        page.wait_for_timeout(500)
    raise AssertionError("no atlas grid on the page")


def test_atlas_click_a_head_then_open_an_example_on_explore(page, app_url):
    page.goto(f"{app_url}/overview")
    wait_idle(page)
    expect(page.get_by_role("heading", name="On real text")).to_be_visible(timeout=60_000)
    page.get_by_text("my own text").click()
    wait_idle(page)
    page.get_by_text("Read a corpus and measure every head").click()
    wait_idle(page)
    expect(page.get_by_text("Paste some text or upload a .txt file")).to_be_visible(timeout=60_000)
    box = page.get_by_role("textbox", name="Paste your text")
    box.fill(OWN)
    box.press("Control+Enter")
    wait_idle(page, timeout_ms=300_000)
    grid = atlas_grid(page)
    page.locator('[data-testid="stPlotlyChart"]').nth(grid).scroll_into_view_if_needed()
    page.mouse.click(*chart_point(page, grid, 6, 18))  # head 6 of layer 18 (rows are layers, top down)
    wait_idle(page)
    expect(page.get_by_text("Layer 18, head 6 is")).to_be_visible(timeout=60_000)
    page.get_by_role("button", name="Open in Explore").first.click()
    wait_idle(page, timeout_ms=300_000)
    expect(page.get_by_role("heading", name="Explore attention")).to_be_visible(timeout=120_000)
    expect(page.get_by_role("combobox", name="Layer")).to_have_value("18")
    expect(page.get_by_role("combobox", name="Head")).to_have_value("6")
    assert "model=smollm2" in page.url and "layer=18" in page.url and "head=6" in page.url and "k=" in page.url
