"""A real Chromium on the real app: type a sentence with a repeated word, click a cell and word labels."""

import re

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.plot_geometry import chart_point

SENTENCE = "the cat saw the dog"  # [CLS] the cat saw the dog [SEP]: "the" at 1 and 4
A_CHART = 1  # S, A, Z in page order


def type_sentence(page, text: str) -> None:
    box = page.get_by_label("Sentence")
    box.fill(text)
    box.press("Control+Enter")
    wait_idle(page)
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(3, timeout=60_000)


def click(page, chart: int, x: float, y: float) -> None:
    page.mouse.click(*chart_point(page, chart, x, y))
    wait_idle(page)


def test_click_cell_and_word_labels_select_the_right_pair(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    type_sentence(page, SENTENCE)
    ticks = page.locator('[data-testid="stPlotlyChart"]').nth(A_CHART).locator(".xtick text")
    expect(ticks).to_have_text(["[CLS]", "the", "cat", "saw", "the", "dog", "[SEP]"])

    click(page, A_CHART, x=2, y=4)  # the cell: second "the" (query 4) → "cat" (key 2)
    expect(page.get_by_text("(query 4, key 2)")).to_be_visible(timeout=30_000)
    expect(page.get_by_text(re.compile(r"Query word:.*the.*\(position 4\)"))).to_be_visible()

    click(page, A_CHART, x=-1, y=5)  # the word label beside row 5: "dog" becomes the query
    expect(page.get_by_text("(query 5, key 2)")).to_be_visible(timeout=30_000)

    click(page, A_CHART, x=3, y=-1)  # the dot above column 3: "saw" becomes the key
    expect(page.get_by_text("(query 5, key 3)")).to_be_visible(timeout=30_000)
    assert "q=5" in page.url and "k=3" in page.url  # the link carries the selection


def test_link_reopens_the_view_and_highlight_survives_a_head_change(page, app_url):
    page.goto(f"{app_url}/?text=the+cat+saw+the+dog&layer=1&head=2&q=1&k=4")
    wait_idle(page)
    expect(page.get_by_text("(query 1, key 4)")).to_be_visible(timeout=60_000)
    page.get_by_role("combobox", name="Head").click()  # open the head picker and choose another head
    page.get_by_role("option", name="7", exact=True).click()
    wait_idle(page)
    expect(page.get_by_text("(query 1, key 4)")).to_be_visible()
    assert "head=7" in page.url


def test_a_as_lines_words_click_like_the_labels(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    type_sentence(page, SENTENCE)
    page.get_by_text("A as lines").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stPlotlyChart"] .gtitle').nth(A_CHART)).to_have_text(
        re.compile("A as lines"), timeout=30_000)
    click(page, A_CHART, x=0, y=5)  # "dog" on the left: the query
    expect(page.get_by_text(re.compile(r"Query word:.*dog.*\(position 5\)"))).to_be_visible(timeout=30_000)
    click(page, A_CHART, x=1, y=2)  # "cat" on the right: the key
    expect(page.get_by_text("(query 5, key 2)")).to_be_visible(timeout=30_000)
