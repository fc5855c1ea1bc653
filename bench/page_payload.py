"""What the Explore page sends to the browser, measured on the wire in a real headless Chromium.

    python -m bench page_payload [--lengths 32 128 512] [--json out.json]

Starts the app, opens the Explore page with a text of exactly N tokens in the link, and adds up the
bytes of every websocket frame the browser receives until the page is drawn; then clicks a word and
counts the bytes of that update. Static files (the Streamlit front end, cached by the browser) are
not counted. For comparison, the design notes measured bertviz's head view of the same model at
3.3 MB (32 tokens), 53 MB (128) and 870 MB (512).
"""

from __future__ import annotations

import os
import sys
import urllib.parse

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.sync_api import Browser

from bench.cli import bench_parser, write_json
from harness.app_server import wait_idle
from harness.frames import app_and_browser, counted_page
from harness.head_geometry import cell_point, wait_ready
from harness.texts import text_of_tokens


def measure(browser: Browser, url: str, n_tokens: int) -> dict:
    text = text_of_tokens(n_tokens)
    context, page, counter = counted_page(browser)
    page.goto(f"{url}/?{urllib.parse.urlencode({'text': text, 'layer': 0, 'head': 0})}")
    wait_idle(page)
    wait_ready(page, 120_000)
    wait_idle(page)
    load_bytes = counter.take()
    page.mouse.click(*cell_point(page, "A", 1, -1))  # click the word beside row 1 of A
    page.wait_for_selector("text=Query word:", timeout=60_000)
    wait_idle(page)
    click_bytes = counter.take()
    context.close()
    return {"tokens": n_tokens, "page_bytes": load_bytes, "click_bytes": click_bytes}


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--lengths", type=int, nargs="+", default=[32, 128, 512], help="tokens in the text")
    args = ap.parse_args(argv)
    rows = []
    with app_and_browser() as (url, browser):
        print(f"{'tokens':>6} {'page load':>12} {'one click':>12}")
        for n in args.lengths:
            row = measure(browser, url, n)
            rows.append(row)
            print(f"{n:>6} {row['page_bytes'] / 1e6:>10.2f} MB {row['click_bytes'] / 1e6:>10.2f} MB")
    write_json(args.json, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
