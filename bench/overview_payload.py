"""What the Overview page sends to the browser, measured on the wire in a real headless Chromium.

    python -m bench overview_payload [--lengths 32 128 512] [--json out.json]

Starts the app, opens /overview with a text of exactly N tokens in the link, and adds up the bytes of
every websocket frame the browser receives until the page is drawn (the 72-head grid, the table and
the rollout); then orders the grid by entropy and counts the bytes of that update. Checks that the grid
really rendered: one heatmap per head (72 for all-MiniLM-L6-v2) and a plot area on screen. Static
files (the Streamlit front end, cached by the browser) are not counted. For comparison, the design
notes measured bertviz's head view of the same model at 3.3 MB (32 tokens), 53 MB (128), 870 MB (512).

The app's home page is opened once before measuring, so the model is loaded and its time not counted.
"""

from __future__ import annotations

import os
import sys
import time
import urllib.parse

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.sync_api import Browser

from bench.cli import bench_parser, write_json
from harness.app_server import wait_idle
from harness.frames import app_and_browser, counted_page
from harness.texts import text_of_tokens

GRID = '[data-testid="stPlotlyChart"]'
COUNT_HEADS = """(el) => { const gd = el.querySelector('.js-plotly-plot');
    return [gd._fullData.filter(d => d.type === 'heatmap').length,
            gd._fullData.find(d => d.name === 'heads').customdata.length]; }"""


def warm_up(browser: Browser, url: str) -> None:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    wait_idle(page)
    context.close()


def measure(browser: Browser, url: str, n_tokens: int) -> dict:
    text = text_of_tokens(n_tokens)
    context, page, counter = counted_page(browser)
    start = time.perf_counter()
    page.goto(f"{url}/overview?{urllib.parse.urlencode({'text': text})}")
    wait_idle(page)
    page.locator(GRID).nth(1).wait_for(timeout=300_000)  # the grid and the rollout
    page.locator(f"{GRID} .nsewdrag").first.wait_for(timeout=120_000)
    wait_idle(page)
    seconds = time.perf_counter() - start
    load_bytes = counter.take()
    heatmaps, targets = page.evaluate(COUNT_HEADS, page.locator(GRID).first.element_handle())
    page.get_by_role("combobox", name="Order the grid by").click()
    page.get_by_role("option", name="entropy (nats)").click()
    wait_idle(page)
    reorder_bytes = counter.take()
    context.close()
    return {"tokens": n_tokens, "page_bytes": load_bytes, "reorder_bytes": reorder_bytes, "seconds": seconds,
            "thumbnails": heatmaps, "click_targets": targets}


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--lengths", type=int, nargs="+", default=[32, 128, 512], help="tokens in the text")
    args = ap.parse_args(argv)
    rows = []
    with app_and_browser() as (url, browser):
        warm_up(browser, url)
        print(f"{'tokens':>6} {'page load':>12} {'reorder':>12} {'drawn in':>9} {'thumbnails':>10}")
        for n in args.lengths:
            row = measure(browser, url, n)
            rows.append(row)
            print(f"{n:>6} {row['page_bytes'] / 1e6:>9.2f} MB {row['reorder_bytes'] / 1e6:>9.2f} MB "
                  f"{row['seconds']:>8.1f}s {row['thumbnails']:>10}")
            if n == 128:
                assert row["thumbnails"] == row["click_targets"] == 72, f"the 72-head grid did not render: {row}"
                print("        128 tokens: the 72-head grid rendered (72 thumbnails, 72 click targets)")
    write_json(args.json, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
