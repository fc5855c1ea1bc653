"""A long text in the real app: SmolLM2 past the length where the head view draws every cell. Explore shows the
head max-pooled as one picture (a PNG of at most 1,024 px a side, not megabytes of cells), an exact window
moved by position (the zoom), and a click on one of its cells selects that query and key: the row shown
below is that query's exact row."""

from __future__ import annotations

import urllib.parse

import numpy as np
from playwright.sync_api import expect

from attention.ui.long_view import EXACT_MAX
from harness.app_server import wait_idle
from harness.plot_geometry import chart_point

N = EXACT_MAX + 700
WORDS = "the cat sat on a mat and then it went home to sleep because it was tired of the long day".split()


def _text(tokenizer) -> str:
    words = " ".join(np.random.default_rng(3).choice(WORDS, size=2 * N))
    return tokenizer.decode(tokenizer(words, add_special_tokens=False)["input_ids"][:N])


def test_a_long_head_is_pooled_then_a_window_of_it_is_exact_and_a_cell_is_clicked(page, app_url, smollm2):
    text = _text(smollm2.tokenizer)
    query = urllib.parse.urlencode({"text": text, "model": "smollm2", "kind": "decoder", "layer": 18, "head": 6})
    page.goto(f"{app_url}/?{query}")  # Explore is the landing page
    wait_idle(page, timeout_ms=300_000)
    picture = page.locator('[data-testid="stImage"] img').first
    picture.wait_for(timeout=300_000)
    src = picture.get_attribute("src") or ""
    assert src.endswith(".png")  # lossless: a JPEG would blur one strong pixel into its neighbours
    size = page.evaluate("(img) => [img.naturalWidth, img.naturalHeight]", picture.element_handle())
    assert max(size) <= 1024 and min(size) > 0  # pooled, not a cell per token
    expect(page.locator('[data-testid="stCustomComponentV1"], [data-matrix="A"]')).to_have_count(0)

    for label, value in (("Query rows from position", 1_100), ("Keys from position", 1_060)):
        box = page.get_by_label(label)
        box.fill(str(value))
        box.press("Enter")
        wait_idle(page, timeout_ms=120_000)
    expect(page.get_by_text("query rows 1100–1163, keys 1060–1123", exact=False)).to_be_visible(timeout=60_000)
    chart = 0  # the window is the page's only plotly chart
    page.locator('[data-testid="stPlotlyChart"] .nsewdrag').first.wait_for(timeout=60_000)
    page.locator('[data-testid="stPlotlyChart"]').first.scroll_into_view_if_needed()  # below the picture
    page.wait_for_timeout(300)
    q, k = 20, 7  # local cell: query 1120, key 1067
    page.mouse.click(*chart_point(page, chart, k, q))
    wait_idle(page, timeout_ms=120_000)
    expect(page.get_by_text("Where query 1120", exact=False)).to_be_visible(timeout=60_000)
    assert "q=1120" in page.url and "k=1067" in page.url  # the clicked cell, in positions of the whole text
    # the row's numbers are checked against the trace in tests/pages/test_explore_long.py (the grid is a canvas)
