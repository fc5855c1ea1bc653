"""A real Chromium on the Translate page: click a Spanish word in cross-attention."""

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.plot_geometry import chart_point

A_CHART = 1


def test_clicking_a_spanish_word_in_cross_attention_selects_it(page, app_url):
    page.goto(f"{app_url}/translate")
    wait_idle(page)
    expect(page.get_by_text("el gato negro bebió la leche .")).to_be_visible(timeout=60_000)
    page.get_by_text("encoder–decoder cross-attention").click()
    wait_idle(page)
    page.mouse.click(*chart_point(page, A_CHART, -1, 5))  # the row label "leche ← la"
    wait_idle(page)
    expect(page.get_by_text("leche ← la").first).to_be_visible(timeout=30_000)
    expect(page.get_by_text("(position 5)")).to_be_visible()
