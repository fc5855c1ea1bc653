"""A real Chromium on the Learning page: moving the training-step slider changes the heatmap."""

from playwright.sync_api import expect

from harness.app_server import wait_idle

READ_A = "(el) => JSON.stringify(el.querySelector('.js-plotly-plot').data[0].z)"


def test_moving_the_step_slider_redraws_the_weights(page, app_url):
    page.goto(f"{app_url}/learning")
    wait_idle(page, timeout_ms=180_000)
    charts = page.locator('[data-testid="stPlotlyChart"]')
    expect(charts.nth(1)).to_be_visible(timeout=120_000)
    before = page.evaluate(READ_A, charts.nth(1).element_handle())
    slider = page.get_by_role("slider", name="Training step")
    slider.focus()
    slider.press("Home")  # back to step 0
    wait_idle(page, timeout_ms=180_000)
    expect(page.get_by_text("step 0").first).to_be_visible(timeout=60_000)
    after = page.evaluate(READ_A, page.locator('[data-testid="stPlotlyChart"]').nth(1).element_handle())
    assert before != after
