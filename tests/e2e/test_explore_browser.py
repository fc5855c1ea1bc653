"""A real Chromium on the real app: type a sentence with a repeated word; hover and click the head view's
cells and words; the highlight is drawn in the browser at once and the detail panel follows."""

import re

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.head_geometry import cell_point, panel, selected, wait_ready

SENTENCE = "the cat saw the dog"  # [CLS] the cat saw the dog [SEP]: "the" at 1 and 4


def type_sentence(page, text: str) -> None:
    box = page.get_by_label("Sentence")
    box.fill(text)
    box.press("Control+Enter")
    wait_idle(page)
    wait_ready(page)


def test_hover_marks_the_same_cell_in_s_a_and_z(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    type_sentence(page, SENTENCE)
    page.mouse.move(*cell_point(page, "A", 4, 2))  # second "the" → "cat"
    for matrix in ("S", "A"):
        expect(panel(page, matrix)).to_have_attribute("data-hover", "4,2")
    expect(panel(page, "Z")).to_have_attribute("data-hover", re.compile(r"^4,"))  # Z's row of that query


def test_click_cell_and_words_select_the_right_pair(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    type_sentence(page, SENTENCE)
    page.mouse.click(*cell_point(page, "A", 4, 2))  # the cell: second "the" (query 4) → "cat" (key 2)
    assert selected(page, "A") == "4,2" and selected(page, "S") == "4,2"  # drawn before any rerun
    wait_idle(page)
    expect(page.get_by_text("(query 4, key 2)")).to_be_visible(timeout=30_000)
    expect(page.get_by_text(re.compile(r"Query word:.*the.*\(position 4\)"))).to_be_visible()

    page.mouse.click(*cell_point(page, "A", 5, -1))  # the word beside row 5: the query "dog", alone
    assert selected(page) == "5,"
    wait_idle(page)
    expect(page.get_by_text(re.compile(r"Query word:.*dog.*\(position 5\)"))).to_be_visible(timeout=30_000)
    assert "q=5" in page.url and "k=" not in page.url  # the link carries the selection

    page.mouse.click(*cell_point(page, "A", -1, 3))  # the word above column 3: the key "saw", alone
    assert selected(page) == ",3" and selected(page, "S") == ",3"
    wait_idle(page)
    assert "k=3" in page.url and "q=" not in page.url


def test_keyboard_moves_and_clears_the_selection(page, app_url):
    page.goto(f"{app_url}/?text=the+cat+saw+the+dog&q=1&k=1")
    wait_idle(page)
    wait_ready(page)
    # another cell than the link's (a click on the selected cell clears it): focuses the view, selects (1, 0)
    page.mouse.click(*cell_point(page, "A", 1, 0))
    expect(panel(page, "A")).to_have_attribute("data-selected", "1,0", timeout=30_000)
    wait_idle(page)
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert selected(page) == "2,1"  # moved in the browser at once; sent to Python after a short pause
    expect(page.get_by_text("(query 2, key 1)")).to_be_visible(timeout=30_000)
    page.keyboard.press("Escape")
    wait_idle(page)
    assert selected(page) == ""
    expect(page.get_by_text("Nothing selected", exact=False)).to_be_visible(timeout=30_000)


def test_link_reopens_the_view_and_highlight_survives_a_head_change(page, app_url):
    page.goto(f"{app_url}/?text=the+cat+saw+the+dog&layer=1&head=2&q=1&k=4")
    wait_idle(page)
    wait_ready(page)
    expect(page.get_by_text("(query 1, key 4)")).to_be_visible(timeout=60_000)
    assert selected(page) == "1,4"
    page.get_by_role("combobox", name="Head").click()  # open the head picker and choose another head
    page.get_by_role("option", name="7", exact=True).click()
    wait_idle(page)
    expect(page.get_by_text("(query 1, key 4)")).to_be_visible()
    expect(panel(page, "A")).to_have_attribute("data-selected", "1,4")
    assert "head=7" in page.url


def test_markup_in_a_token_shows_literally(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    type_sentence(page, "<b>x</b> cat")
    page.mouse.move(*cell_point(page, "A", 1, 1))
    tip = page.locator(".hv-tip").first
    expect(tip).to_contain_text("<", timeout=10_000)  # the angle bracket is text, not a tag
    assert page.locator('[data-matrix="A"] b').count() == 0
