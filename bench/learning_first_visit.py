"""The Learning page's first visit compared with the Translate page's, in a real headless Chromium.

    python -m bench learning_first_visit [--repeats 2]

Each visit gets a freshly started server (empty cache, nothing imported yet), so it pays what a
person's first visit pays: loading the translator (and its snapshots), tracing, drawing. Timed from
the navigation to the page with every chart drawn and the script idle. Prints each time, the
medians and the ratio Learning ÷ Translate (the issue's budget: at most 2).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.sync_api import sync_playwright

from bench.cli import bench_parser, write_json
from harness.app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_process, wait_idle

# (page, charts drawn when the page is complete: Translate's head view is one component, no plotly)
PAGES = {"translate": ('[data-testid="stCode"]', 0), "learning": ('[data-testid="stPlotlyChart"]', 7)}


def first_visit(browser, page_name: str) -> float:
    selector, n = PAGES[page_name]
    with streamlit_process() as server:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        start = time.perf_counter()
        page.goto(f"{server.url}/{page_name}")
        page.locator(selector).nth(max(n - 1, 0)).wait_for(timeout=300_000)
        wait_idle(page, timeout_ms=300_000)
        seconds = time.perf_counter() - start
        page.close()
    return seconds


def main(argv: list[str] | None = None) -> int:
    p = bench_parser(__doc__)
    p.add_argument("--repeats", type=int, default=2)
    a = p.parse_args(argv)
    times: dict[str, list[float]] = {name: [] for name in PAGES}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(a.repeats):  # interleaved, so machine noise hits both alike
            for name in PAGES:
                times[name].append(first_visit(browser, name))
                print(f"{name:10s} first visit {times[name][-1]:6.2f} s", flush=True)
        browser.close()
    medians = {name: statistics.median(ts) for name, ts in times.items()}
    ratio = medians["learning"] / medians["translate"]
    print(f"median: translate {medians['translate']:.2f} s, learning {medians['learning']:.2f} s; "
          f"learning ÷ translate = {ratio:.2f} (budget 2)")
    write_json(a.json, {"times": times, "medians": medians, "ratio": ratio})
    return 0


if __name__ == "__main__":
    sys.exit(main())
