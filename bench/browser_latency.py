"""How long a person waits, in a real headless Chromium, compared with the floor of any Streamlit app.

    python bench/browser_latency.py [--repeats 8] [--json out.json]

Starts two servers in one run: bench/trivial_app.py (one text box whose value is written back) and
the real app. Then, interleaved so machine noise hits all alike, `--repeats` times with a new
sentence of 8–20 words each time (unique, so no cache helps):

  (a) floor   trivial app: Enter in the text box → the written text appears;
  (b) submit  Explore: Control+Enter in the sentence box → the S and A heatmaps drawn with the new
              words (their column tick labels hold the sentence's marker word);
  (c) click   Explore: click the word beside a row of A → the detail panel names that word
              ("Query word: … (position N)").

Times are taken in the page's own clock: from the keydown / mousedown event to the first animation
frame where the result is in the DOM. Prints medians, p90 and the ratios (b)/(a) and (c)/(a).
"""

from __future__ import annotations

import os
import statistics
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.sync_api import sync_playwright

from bench.app_process import (
    AXIS_RANGES,
    CHARTS_DRAWN,
    RESET_T0,
    S_TICKTEXT,
    TEXT_SHOWN,
    TRIVIAL_APP,
    app_server,
    detail_needle,
    elapsed_ms,
    percentile,
    pixel,
    timed_page,
)
from bench.cli import bench_parser, write_json
from bench.sentences import check_markers, tokens_of, unique_sentences
from harness.app_server import CHROMIUM, CHROMIUM_ARGS, wait_idle

TIMEOUT_MS = 120_000
A_CHART = 1  # S, A, Z in page order


def floor_once(page, value: str) -> float:
    box = page.get_by_label("Value")
    box.fill(value)
    page.evaluate(RESET_T0)
    box.press("Enter")
    ms = page.wait_for_function(TEXT_SHOWN, arg=f"You wrote: {value}", polling="raf", timeout=TIMEOUT_MS).json_value()
    wait_idle(page)
    return elapsed_ms(ms)


def submit_once(page, text: str, marker: str) -> float:
    box = page.get_by_label("Sentence")
    box.fill(text)
    page.evaluate(RESET_T0)
    box.press("Control+Enter")
    ms = page.wait_for_function(CHARTS_DRAWN, arg=marker, polling="raf", timeout=TIMEOUT_MS).json_value()
    wait_idle(page)
    got = page.evaluate(S_TICKTEXT)
    if got != tokens_of(text):
        raise RuntimeError(f"the S chart shows {got}, expected the tokens of {text!r}")
    return elapsed_ms(ms)


def click_row_once(page, tokens: list[str], row: int) -> float:
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(A_CHART)
    box = chart.locator(".nsewdrag").first.bounding_box()
    x, y = pixel(box, page.evaluate(AXIS_RANGES, chart.element_handle()), -1, row)
    page.evaluate(RESET_T0)
    page.mouse.click(x, y)
    ms = page.wait_for_function(TEXT_SHOWN, arg=detail_needle(tokens, row), polling="raf",
                                timeout=TIMEOUT_MS).json_value()
    wait_idle(page)
    return elapsed_ms(ms)


def summary(samples: list[float]) -> dict:
    return {"median_ms": round(statistics.median(samples), 1), "p90_ms": round(percentile(samples, 90), 1),
            "min_ms": round(min(samples), 1), "max_ms": round(max(samples), 1),
            "samples_ms": [round(s, 1) for s in samples]}


def run(repeats: int) -> dict:
    check_markers()
    sentences = unique_sentences(repeats + 1, seed=1)  # the first one warms up, uncounted
    times: dict[str, list[float]] = {"floor": [], "submit": [], "click": []}
    load_before = os.getloadavg()[0]
    t_start = time.monotonic()
    with app_server(TRIVIAL_APP) as trivial, app_server() as app, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            floor_page = timed_page(browser, trivial.url)
            page = timed_page(browser, app.url)
            page.wait_for_selector('[data-testid="stPlotlyChart"] .nsewdrag', timeout=TIMEOUT_MS)
            wait_idle(page)
            for i, (text, marker) in enumerate(sentences):
                row = 2 + i % 2  # alternate rows, so each click changes the selection
                floor_ms = floor_once(floor_page, text)
                submit_ms = submit_once(page, text, marker)
                click_ms = click_row_once(page, tokens_of(text), row)
                if i == 0:
                    continue
                times["floor"].append(floor_ms)
                times["submit"].append(submit_ms)
                times["click"].append(click_ms)
                print(f"  {i}/{repeats}: {len(text.split())} words  floor {floor_ms:7.1f} ms  "
                      f"submit {submit_ms:7.1f} ms  click {click_ms:7.1f} ms", flush=True)
        finally:
            browser.close()
    res = {k: summary(v) for k, v in times.items()}
    for k in ("submit", "click"):
        res[k]["median_over_floor"] = round(res[k]["median_ms"] / res["floor"]["median_ms"], 2)
        res[k]["p90_over_floor"] = round(res[k]["p90_ms"] / res["floor"]["p90_ms"], 2)
    res["repeats"] = repeats
    res["cpus"] = os.cpu_count()
    res["load_average_at_start"] = round(load_before, 2)
    res["wall_s"] = round(time.monotonic() - t_start, 1)
    return res


LABELS = {"floor": "(a) floor: trivial app, Enter -> text shown",
          "submit": "(b) Explore: Ctrl+Enter -> S, A drawn",
          "click": "(c) Explore: click row word -> detail"}


def print_table(res: dict) -> None:
    print(f"\n{'':44} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'median/(a)':>11} {'p90/(a)':>8}")
    for k, name in LABELS.items():
        r = res[k]
        ratio = f"{r['median_over_floor']:>11.1f} {r['p90_over_floor']:>8.1f}" if k != "floor" else f"{'1.0':>11} {'1.0':>8}"
        print(f"{name:44} {r['median_ms']:>10.1f} {r['p90_ms']:>8.1f} {r['max_ms']:>8.1f} {ratio}")
    print(f"({res['repeats']} sentences of 8-20 words each; {res['cpus']} CPUs, load average "
          f"{res['load_average_at_start']} at start; {res['wall_s']} s in all)")


def main() -> None:
    ap = bench_parser(__doc__)
    ap.add_argument("--repeats", type=int, default=8)
    args = ap.parse_args()
    if not 1 <= args.repeats <= 70:
        ap.error("--repeats must be between 1 and 70")
    res = run(args.repeats)
    print_table(res)
    write_json(args.json, res)


if __name__ == "__main__":
    main()
