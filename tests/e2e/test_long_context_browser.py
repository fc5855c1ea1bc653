"""A long text in the real app: SmolLM2 past the length where the head view sends every cell. Explore draws the
head max-pooled in the long head view (a canvas, not megabytes of cells); zoomed in with the wheel, the view
fetches the exact tile it shows and draws it (its pixels are the colours of Site.pattern's weights at the
stated 4 decimals, not the pooled block's); a click highlights the cell at once, and the query's exact row
comes back: exact at any zoom."""

from __future__ import annotations

import re
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from playwright.sync_api import expect

from attention.analysis.pooled import cell_for
from attention.headview.long_payload import DECIMALS
from attention.ui.head_view.long_view import EXACT_MAX
from harness.app_server import wait_idle

N = EXACT_MAX + 600  # > 1,024: the pooled picture is coarser than the cells (2 × 2 a pixel)
LAYER, HEAD = 18, 6
WORDS = "the cat sat on a mat and then it went home to sleep because it was tired of the long day".split()
LOW, HIGH = np.array([247, 251, 255]), np.array([8, 48, 107])  # long_draw.js's colours


def _text(tokenizer) -> str:
    words = " ".join(np.random.default_rng(3).choice(WORDS, size=2 * N))
    return tokenizer.decode(tokenizer(words, add_special_tokens=False)["input_ids"][:N])


def _colour(weight: np.ndarray) -> np.ndarray:
    """(…, 3) the colour the view gives a weight: its 4-decimal code on a square-root scale."""
    code = np.rint(weight.astype(np.float64) * 10**DECIMALS)
    return np.rint(LOW + (HIGH - LOW) * np.sqrt(code / 10**DECIMALS)[..., None])


def _geometry(view) -> tuple[list[float], list[float], dict]:
    """(y0, y1, x0, x1) in positions, the matrix box in canvas px (x, y, w, h), the canvas's page box."""
    return ([float(v) for v in view.get_attribute("data-view").split(",")],
            [float(v) for v in view.get_attribute("data-box").split(",")], view.locator("canvas").bounding_box())


def _centre(geom, q: int, k: int) -> tuple[float, float]:
    """Canvas px of the centre of cell (q, k)."""
    (y0, y1, x0, x1), (bx, by, bw, bh), _ = geom
    return bx + (k + 0.5 - x0) / (x1 - x0) * bw, by + (q + 0.5 - y0) / (y1 - y0) * bh


def test_a_long_head_is_zoomed_into_an_exact_tile_and_a_cell_is_clicked(page, app_url, smollm2):
    from attention import sources

    text = _text(smollm2.tokenizer)
    # the numbers to compare with, traced here while the app traces the same text (the two overlap)
    pool = ThreadPoolExecutor(1)
    traced = pool.submit(lambda: sources.get(sources.SMOLLM2).run(smollm2, text).trace.site(LAYER, "decoder"))
    query = urllib.parse.urlencode({"text": text, "model": "smollm2", "kind": "decoder", "layer": LAYER, "head": HEAD})
    page.goto(f"{app_url}/?{query}")  # Explore is the landing page
    view = page.locator('[data-matrix="A-long"][data-ready="1"]')
    view.wait_for(timeout=300_000)
    wait_idle(page, timeout_ms=120_000)
    expect(page.locator('[data-testid="stImage"], [data-testid="stPlotlyChart"], [data-matrix="A"]')).to_have_count(0)
    assert view.get_attribute("data-exact") == "0"  # the pooled picture first
    view.scroll_into_view_if_needed()

    geom = _geometry(view)
    page_box = geom[2]
    x, y = _centre(geom, 900, 300)
    page.mouse.move(page_box["x"] + x, page_box["y"] + y)
    for _ in range(3):  # the wheel zooms about the pointer: about 220 positions a side are left
        page.mouse.wheel(0, -400)
        page.wait_for_timeout(50)
    expect(view).to_have_attribute("data-exact", "1", timeout=60_000)  # the tile it asked for is drawn
    page.mouse.move(page_box["x"] + 2, page_box["y"] + 2)  # no hover box over the cells read below
    page.wait_for_timeout(100)
    geom = _geometry(view)
    y0, y1, x0, x1 = geom[0]
    assert y1 - y0 <= 512 and y0 <= 900 <= y1 and x0 <= 300 <= x1

    site = traced.result()
    pool.shutdown()
    assert site.is_long and site.shape == (N, N) and cell_for(N) == 2
    rows = np.arange(int(np.ceil(y0)), int(y1))
    keys = np.arange(int(np.ceil(x0)), int(x1))
    a = site.pattern(HEAD, rows)[:, keys]  # (rows, keys) exact
    pick = [(i, j) for i in range(0, len(rows), 7) for j in range(0, len(keys), 5) if keys[j] <= rows[i]]
    points = [_centre(geom, int(rows[i]), int(keys[j])) for i, j in pick]
    drawn = np.array(view.locator("canvas").evaluate(
        "(c, pts) => { const g = c.getContext('2d'); const r = devicePixelRatio || 1;"
        " return pts.map(([x, y]) => Array.from(g.getImageData(Math.floor(x * r), Math.floor(y * r), 1, 1).data.slice(0, 3))); }",
        points))
    exact = np.array([a[i, j] for i, j in pick])
    assert np.abs(drawn - _colour(exact)).max() <= 1  # each cell's own weight, to the stated precision
    def block(i: int, j: int) -> float:  # what the pooled picture draws there: its 2 × 2 block's largest weight
        r, c = rows[i] // 2 * 2 - rows[0], keys[j] // 2 * 2 - keys[0]
        return float(a[max(0, r):r + 2, max(0, c):c + 2].max())

    pooled = np.array([block(i, j) for i, j in pick])
    assert (np.abs(drawn - _colour(pooled)).max(axis=1) > 1).sum() >= 3  # so the test can tell them apart

    i, j = max(pick, key=lambda p: a[p])  # hover the strongest cell read: its weight, as printed
    cx, cy = _centre(geom, int(rows[i]), int(keys[j]))
    page.mouse.move(page_box["x"] + cx, page_box["y"] + cy)
    expect(view.locator(".lv-tip")).to_contain_text(f"{a[i, j]:.{DECIMALS}f}")

    q, k = int(rows[i]), int(keys[j])
    page.mouse.click(page_box["x"] + cx, page_box["y"] + cy)
    assert view.get_attribute("data-selected") == f"{q},{k}"  # highlighted by the browser, before Python
    expect(view).to_have_attribute("data-lines", f"{q},{k}", timeout=60_000)  # the exact row and column came
    expect(page.get_by_text(f"Where query {q}", exact=False)).to_be_visible(timeout=60_000)
    expect(page).to_have_url(re.compile(rf"[?&]q={q}(&|$)"), timeout=60_000)  # the clicked cell, in positions of
    expect(page).to_have_url(re.compile(rf"[?&]k={k}(&|$)"), timeout=60_000)  # the whole text (the link follows)

    page.get_by_role("button", name="Whole matrix").click()  # zoomed out, the selected row stays exact
    expect(view).to_have_attribute("data-exact", "0")
    geom = _geometry(view)
    hx, hy = _centre(geom, q, 5)
    page.mouse.move(page_box["x"] + hx, page_box["y"] + hy)
    tip = view.locator(".lv-tip").inner_text()
    got = re.search(rf"query {q} .* key (\d+) .*: weight ([0-9.e-]+) ", tip)
    assert got, tip
    assert float(got[2]) == float(f"{site.pattern(HEAD, [q])[0, int(got[1])]:.4g}")
