"""The head view in real Chromium, from a file: once the rows are too thin for every word (every other
one written), the selected row's and column's words are still written, boxed over the margin."""

from __future__ import annotations

import json

import pytest

from attention.headview import render_html
from harness.head_geometry import cell_point, panel
from harness.random_sites import random_site

N = 40  # tokens: about 8 px a row, so the base writes every other word


@pytest.fixture
def page(browser, tmp_path):
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, offline=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    site = random_site(N, kind="decoder", heads=1, seed=3)
    path = tmp_path / "long.html"
    path.write_text("<!DOCTYPE html><meta charset='utf-8'><body>" + render_html(site), encoding="utf-8")
    pg.goto(path.as_uri())
    pg.wait_for_selector(".hv[data-ready='1']", timeout=30_000)
    pg.site = site
    yield pg
    context.close()
    assert not errors, errors


def test_the_selected_rows_word_is_written_where_its_neighbours_are_left_out(page):
    plot_h = float(panel(page, "A").get_attribute("data-plot").split(",")[3])
    assert plot_h / N < 13  # thinner than a label: the base writes only every other row's word
    row, col = 37, 3  # 37: a row the base leaves unlabelled (it labels every second from 0)
    page.mouse.click(*cell_point(page, "A", row, col))
    site = page.site
    for m in ("S", "A"):
        assert json.loads(panel(page, m).get_attribute("data-selected-labels")) == [site.query_tokens[row],
                                                                                   site.key_tokens[col]]
    assert json.loads(panel(page, "Z").get_attribute("data-selected-labels")) == []  # Z's rows carry no words
    page.keyboard.press("Escape")
    assert json.loads(panel(page, "A").get_attribute("data-selected-labels")) == []
