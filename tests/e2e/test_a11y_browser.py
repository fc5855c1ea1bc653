"""Every learner, in real Chromium (the axe-core audit of every page: test_page_tour_browser.py): the
head view speaks to a screen reader (a labelled grid, a live region that follows the keyboard, the
selected row as a table) in the page's language, and so does a saved file; on a 390-px phone no page
scrolls sideways, the help speaks of touch and a tap selects a cell."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from attention import i18n
from attention.headview import save_html
from attention.headview.payload import WHOLE_TRACE
from attention.trace import Trace
from harness.axe import audit, open_drawn, serious, sideways_overflow
from harness.head_geometry import cell_point, selected
from harness.random_sites import random_site

TOKENS = ("[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]")  # the default sentence


def say(key: str, lang: str, **values: str) -> str:
    return i18n.t(f"headview.{key}", lang).format(**values)


@pytest.mark.browser
def test_the_head_view_speaks_each_keyboard_move_in_the_pages_language(page, app_url):
    lang = "zh"
    open_drawn(page, app_url, "", lang)
    grid = page.locator('[role="grid"]').first
    live = page.locator(".hv-live").first
    expect(grid).to_have_attribute("aria-label", say("grid", lang, matrix=i18n.t("headview.A", lang), layer="0",
                                                     head="0", nq="8", nk="8"))
    # every word of the sentence is there for a screen reader, though the matrices are canvases
    words = page.locator(".hv-words").first.text_content()
    assert all(w in words for w in TOKENS)
    grid.focus()
    page.keyboard.press("ArrowDown")  # nothing selected: the first query word
    expect(live).to_contain_text(i18n.t("headview.sr_row", lang).split("{q}")[0] + "[CLS] #0")
    for key in ("ArrowDown", "ArrowDown") + ("ArrowRight",) * 5:  # a key word starts at the first, then moves
        page.keyboard.press(key)
    expect(live).to_contain_text("查询 black #2，键 drank #4，权重 ")
    text = live.text_content()
    assert "q·k " in text and "缩放后 " in text  # weight (score, scaled score)
    cell = page.locator('[role="gridcell"]').first
    assert cell.text_content() == text and cell.get_attribute("aria-selected") == "true"
    assert grid.get_attribute("aria-activedescendant") == cell.get_attribute("id")
    assert selected(page) == "2,4"
    # the selected row as a real table: one row per key word, the weights as text
    table = page.locator(".hv-table").first
    assert table.locator("tbody th").all_text_contents() == list(TOKENS)
    weight = text.split("权重 ")[1].split("（")[0]
    assert table.locator("tbody tr").nth(4).locator("td").nth(1).text_content() == weight
    # the toolbar is a set of buttons the keyboard presses (Enter is not taken for the matrix)
    toggle = page.get_by_role("button", name=i18n.t("headview.table", lang)).first
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(table).to_be_visible()
    grid.focus()
    page.keyboard.press("Escape")
    expect(live).to_have_text(say("sr_none", lang))


@pytest.mark.browser
@pytest.mark.parametrize("name", ["explore", "translate"])
def test_a_phone_never_scrolls_sideways_and_a_tap_selects_in_the_linked_palette(browser, app_url, name):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    open_drawn(page, app_url, f"{name}?cvd=1", "en")  # the colour-blind palette, as a link carries it
    expect(page.locator(".hv").first).to_have_attribute("data-palette", "cvd")
    assert sideways_overflow(page) == 0
    expect(page.locator(".hv-help").first).to_have_text(say("help_touch", "en"))
    panel = page.locator('[data-matrix="A"]').first
    panel.scroll_into_view_if_needed()
    page.touchscreen.tap(*cell_point(page, "A", 3, 2))
    expect(panel).to_have_attribute("data-selected", "3,2")
    expect(page.locator(".hv-live").first).to_contain_text("#3")
    context.close()


@pytest.mark.browser
def wait_until_stored(context, url: str, value: str, timeout_s: float = 30.0) -> None:
    """Until a fresh tab of `url` in `context` finds `value` in its localStorage (the browser process has it)."""
    other = context.new_page()
    deadline = time.monotonic() + timeout_s
    try:
        while True:
            other.goto(url)
            if other.evaluate("(v) => Object.values(localStorage).includes(v)", value):
                return
            assert time.monotonic() < deadline, f"{value!r} never reached this browser's storage in {timeout_s} s"
            other.wait_for_timeout(200)
    finally:
        other.close()


def test_the_saved_file_speaks_too_and_remembers_the_colour_blind_palette(browser, tmp_path):
    site = random_site(6, kind="decoder", heads=1, d_head=4, seed=7)
    path = save_html(Trace(text="t", model_name="random", tokens=site.query_tokens, sites=(site,)), tmp_path / "t.html")
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, offline=True)
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_selector(".hv[data-ready='1']")
    assert page.locator(".hv").get_attribute("lang") == "en"
    page.locator('[role="grid"]').focus()
    for key in ("ArrowDown", "ArrowRight", "ArrowDown"):  # row 1, key 0: masked nowhere on a causal mask's diagonal
        page.keyboard.press(key)
    expect(page.locator(".hv-live")).to_contain_text(f"query {site.query_tokens[1]} #1, key {site.key_tokens[0]} #0, "
                                                     f"weight {site.weights[0][1, 0]:.{WHOLE_TRACE.weight}f}")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # key 2 is in row 1's future: masked, said in words, not colour
    expect(page.locator(".hv-live")).to_contain_text("masked")
    assert not serious(audit(page))
    button = page.get_by_role("button", name=say("palette", "en"))
    expect(button).to_have_attribute("aria-pressed", "false")
    button.click()
    expect(page.locator(".hv")).to_have_attribute("data-palette", "cvd")
    assert page.evaluate("() => Object.values(localStorage).includes('cvd')")  # kept by the page at once
    # Chromium hands a localStorage write to its browser process asynchronously, and a reload the test sends
    # through the browser process can overtake it on a loaded machine (a fixed second's wait still read 'standard'
    # in 1 full run of 5): the reload waits until another tab of the file reads the choice, as a visit would
    wait_until_stored(context, path.as_uri(), "cvd")
    page.reload()
    page.wait_for_selector(".hv[data-ready='1']")
    expect(page.locator(".hv")).to_have_attribute("data-palette", "cvd")  # remembered by this browser
    expect(page.get_by_role("button", name=say("palette", "en"))).to_have_attribute("aria-pressed", "true")
    context.close()
