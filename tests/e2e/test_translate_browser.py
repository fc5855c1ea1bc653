"""A real Chromium on the Translate page: click a Spanish word in cross-attention."""

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.head_geometry import cell_point, selected, wait_ready

QUERY_WORD = '.pn-md:has-text("Query word:")'  # the detail panel (ui/head_view/panel_view.py)


def test_clicking_a_spanish_word_in_cross_attention_selects_it(page, app_url):
    page.goto(f"{app_url}/translate")
    wait_idle(page)
    expect(page.get_by_text("el gato negro bebió la leche .")).to_be_visible(timeout=60_000)
    page.get_by_text("encoder–decoder cross-attention").click()
    wait_idle(page)
    wait_ready(page)
    # before the click: nothing selected (the head view's own row label "la ▸ leche" is on screen anyway)
    expect(page.get_by_text("Nothing selected yet: click a cell or a word.")).to_be_visible()
    assert page.locator(QUERY_WORD).count() == 0 and selected(page) == "" and "q=" not in page.url
    page.mouse.click(*cell_point(page, "A", 5, -1))  # the row word "la ▸ leche"
    assert selected(page) == "5,"  # at once, in the browser
    wait_idle(page)
    expect(page.locator(QUERY_WORD)).to_have_text("Query word: la ▸ leche (position 5)", timeout=30_000)
    expect(page.get_by_text("Nothing selected yet: click a cell or a word.")).to_have_count(0)
    assert "q=5" in page.url and "k=" not in page.url
