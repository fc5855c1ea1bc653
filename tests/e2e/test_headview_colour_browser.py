"""A's colour scale in real Chromium: 0 to 1, or each row 0 to its own largest weight (a long input's
weights sit near 1/n and are pale on 0..1). The pixels follow the choice; the numbers do not change."""

from __future__ import annotations

import numpy as np
import pytest

from attention.headview import render_html
from harness.head_geometry import cell_point
from harness.random_sites import random_site

N = 256

# The colour of one cell of A's base canvas, at a page point inside it.
PIXEL = """([x, y]) => {
  const panel = document.querySelector('[data-matrix="A"]');
  const canvas = panel.querySelector('canvas.hv-base'), box = canvas.getBoundingClientRect();
  const px = Math.floor((x - box.left) * canvas.width / box.width), py = Math.floor((y - box.top) * canvas.height / box.height);
  return Array.from(canvas.getContext('2d').getImageData(px, py, 1, 1).data.slice(0, 3));
}"""


@pytest.fixture(scope="module")
def long_site():
    return random_site(N, kind="encoder", heads=1, d_head=16, seed=3)


@pytest.fixture
def view(browser, long_site, tmp_path):
    path = tmp_path / "long.html"
    path.write_text("<!DOCTYPE html><meta charset='utf-8'><body>" + render_html(long_site), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1500, "height": 1300}, offline=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    page.wait_for_selector(".hv[data-ready='1']", timeout=30_000)
    yield page
    context.close()
    assert not errors, errors


def darkness(rgb: list[int]) -> int:
    return 765 - sum(rgb)


def test_each_row_scaled_to_its_largest_weight_darkens_long_rows_and_keeps_the_numbers(view, long_site):
    weights = long_site.weights[0]
    row = int(np.argmin(weights.max(axis=1)))  # the flattest row: palest on 0..1
    top, low = int(np.argmax(weights[row])), int(np.argmin(weights[row]))
    button = view.locator(".hv-ascale")
    assert button.get_attribute("aria-pressed") == "false" and "0 to 1" in button.inner_text()
    at_top, at_low = cell_point(view, "A", row, top), cell_point(view, "A", row, low)
    view.mouse.move(*at_top)
    weight_before = view.locator(".hv-tip").inner_text()
    one_top, one_low = view.evaluate(PIXEL, list(at_top)), view.evaluate(PIXEL, list(at_low))
    assert weights[row, top] < 0.2 and darkness(one_top) < 300  # pale on 0..1

    button.click()
    assert view.locator(".hv").first.get_attribute("data-a-scale") == "rows"
    assert button.get_attribute("aria-pressed") == "true" and "largest" in button.inner_text()
    rows_top, rows_low = view.evaluate(PIXEL, list(at_top)), view.evaluate(PIXEL, list(at_low))
    assert rows_top == [8, 48, 107]  # the row's largest weight takes the scale's darkest colour (#08306b)
    assert darkness(rows_top) > darkness(one_top) and darkness(rows_low) >= darkness(one_low)
    view.mouse.move(*at_top)
    assert view.locator(".hv-tip").inner_text() == weight_before  # the hover still says the weight itself

    button.click()  # and back
    assert view.evaluate(PIXEL, list(at_top)) == one_top


def test_the_row_scale_is_kept_when_another_head_is_picked(browser, tmp_path):
    from attention.headview import save_html
    from attention.trace import Trace

    site = random_site(12, kind="encoder", heads=3, d_head=8, seed=4)
    save_html(Trace(text="t", model_name="random", tokens=site.query_tokens, sites=(site,)), tmp_path / "t.html")
    context = browser.new_context(offline=True)
    page = context.new_page()
    page.goto((tmp_path / "t.html").as_uri())
    page.wait_for_selector(".hv[data-ready='1']", timeout=30_000)
    page.locator(".hv-ascale").click()
    page.evaluate("() => { document.querySelector('.hv-ascale').dataset.old = '1'; }")  # this view's button
    page.locator(".hv-pickers select").nth(2).select_option("2")  # head 2: the view is built anew
    page.wait_for_selector(".hv[data-ready='1'] .hv-ascale:not([data-old])", timeout=30_000)
    assert page.locator(".hv-ascale").get_attribute("aria-pressed") == "true"
    assert page.locator(".hv").first.get_attribute("data-a-scale") == "rows"
    context.close()


def test_a_hidden_cell_is_grey_and_a_seen_one_is_coloured(browser, tmp_path):
    site = random_site(12, kind="decoder", heads=1, d_head=8, seed=5)  # causal: row i sees keys 0..i
    path = tmp_path / "causal.html"
    path.write_text("<!DOCTYPE html><meta charset='utf-8'><body>" + render_html(site), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1500, "height": 1300}, offline=True)
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_selector(".hv[data-ready='1']", timeout=30_000)
    # points clear of the hatching drawn over hidden cells (its lines cross each cell diagonally)
    hidden = page.evaluate(PIXEL, list(cell_point(page, "A", 2.6, 9.2)))
    seen = page.evaluate(PIXEL, list(cell_point(page, "A", 9.6, 2.2)))
    context.close()
    assert hidden == [217, 217, 217]  # #d9d9d9, the masked grey
    assert seen != hidden and darkness(seen) > 0
