"""How long a person waits, in a real headless Chromium, compared with the floor of any Streamlit app.

    python -m bench browser_latency [--repeats 8] [--json out.json]

Starts two servers in one run: harness/trivial_app.py (one text box whose value is written back) and
the real app. Then, interleaved so machine noise hits all alike, `--repeats` times with a new
sentence of 8–20 words each time (unique, so no cache helps):

  (a) floor   trivial app: Enter in the text box → the written text appears;
  (b) submit  Explore: Control+Enter in the sentence box → the head view drawn again and the detail
              panel back to "Nothing selected" (a new sentence clears the selection);
  (c) click   Explore: click the word beside a row of A in the head view → the detail panel names
              that word ("Query word: … (position N)");
  (d) highlight  the same click → the row marked in the browser (data-selected), no server involved;
  (e) click at --long tokens (512 by default): once a text of that many tokens is drawn, the same
      click → detail, alternating rows, again interleaved with (a);
  (c'), (e') the same clicks → the page settled as a person sees it: its last visible change
              (harness/settle.py, the one definition the head view's closing figures use).

Times are taken in the page's own clock: from the keydown / mousedown event to the first animation
frame where the result is in the DOM. Prints medians, p90 and the ratios of each to (a).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.sync_api import sync_playwright

from bench.cli import bench_parser, percentile, write_json
from harness import settle
from harness.app_server import CHROMIUM, CHROMIUM_ARGS, wait_idle
from harness.app_server import streamlit_process as app_server
from harness.page_timing import RESET_T0, TEXT_SHOWN, TRIVIAL_APP, detail_needle, elapsed_ms, timed_page
from harness.sentences import check_markers, tokens_of, unique_sentences
from harness.texts import text_of_tokens
from harness.head_geometry import cell_point, wait_ready

# The head view renders in a shadow root: find its A panel by walking shadow roots.
SELECTED_IS = """
(wanted) => {
  if (typeof window.__benchT0 !== 'number') return false;
  const walk = (root) => { const hit = root.querySelector('[data-matrix="A"]'); if (hit) return hit;
    for (const el of root.querySelectorAll('*')) { if (el.shadowRoot) { const h = walk(el.shadowRoot); if (h) return h; } }
    return null; };
  const a = walk(document);
  return a && a.getAttribute('data-selected') === wanted ? performance.now() - window.__benchT0 : false;
}
"""

TIMEOUT_MS = 120_000


def floor_once(page, value: str) -> float:
    box = page.get_by_label("Value")
    box.fill(value)
    page.evaluate(RESET_T0)
    box.press("Enter")
    ms = page.wait_for_function(TEXT_SHOWN, arg=f"You wrote: {value}", polling="raf", timeout=TIMEOUT_MS).json_value()
    wait_idle(page)
    return elapsed_ms(ms)


def submit_once(page, text: str) -> float:
    box = page.get_by_label("Sentence")
    box.fill(text)
    page.evaluate(RESET_T0)
    box.press("Control+Enter")
    ms = page.wait_for_function(TEXT_SHOWN, arg="Nothing selected yet", polling="raf",
                                timeout=TIMEOUT_MS).json_value()
    wait_idle(page)
    wait_ready(page)
    return elapsed_ms(ms)


def click_row_once(page, tokens: list[str], row: int) -> tuple[float, float, float]:
    """(click → highlight in the browser, click → detail panel from Python, click → the page settled: its
    last visible change, harness/settle.py), in ms."""
    x, y = cell_point(page, "A", row, -1)
    settle.reset(page)
    page.evaluate(RESET_T0)
    page.mouse.click(x, y)
    highlight = page.wait_for_function(SELECTED_IS, arg=f"{row},", polling="raf", timeout=TIMEOUT_MS).json_value()
    ms = page.wait_for_function(TEXT_SHOWN, arg=detail_needle(tokens, row), polling="raf",
                                timeout=TIMEOUT_MS).json_value()
    settled = settle.wait_settled(page, timeout_ms=TIMEOUT_MS)["settled"]
    wait_idle(page)
    return elapsed_ms(highlight), elapsed_ms(ms), float(settled)


def summary(samples: list[float]) -> dict:
    return {"median_ms": round(statistics.median(samples), 1), "p90_ms": round(percentile(samples, 90), 1),
            "min_ms": round(min(samples), 1), "max_ms": round(max(samples), 1),
            "samples_ms": [round(s, 1) for s in samples]}


def run(repeats: int, long_tokens: int) -> dict:
    check_markers()
    sentences = unique_sentences(repeats + 1, seed=1)  # the first one warms up, uncounted
    long_text = text_of_tokens(long_tokens)
    times: dict[str, list[float]] = {"floor": [], "submit": [], "click": [], "highlight": [], "settled": [],
                                     "click_long": [], "settled_long": []}
    load_before = os.getloadavg()[0]
    t_start = time.monotonic()
    with app_server(TRIVIAL_APP) as trivial, app_server() as app, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            floor_page = timed_page(browser, trivial.url)
            page = timed_page(browser, app.url, settle.OBSERVER_SCRIPT)
            wait_idle(page)
            wait_ready(page, TIMEOUT_MS)
            for i, (text, marker) in enumerate(sentences):
                row = 2 + i % 2  # alternate rows, so each click changes the selection
                floor_ms = floor_once(floor_page, text)
                submit_ms = submit_once(page, text)
                highlight_ms, click_ms, settled_ms = click_row_once(page, tokens_of(text), row)
                if i == 0:
                    continue
                times["floor"].append(floor_ms)
                times["submit"].append(submit_ms)
                times["click"].append(click_ms)
                times["highlight"].append(highlight_ms)
                times["settled"].append(settled_ms)
                print(f"  {i}/{repeats}: {len(text.split())} words  floor {floor_ms:7.1f} ms  "
                      f"submit {submit_ms:7.1f} ms  click {click_ms:7.1f} ms  highlight {highlight_ms:6.1f} ms  "
                      f"settled {settled_ms:7.1f} ms", flush=True)
            submit_once(page, long_text)
            long_tokens_shown = tokens_of(long_text)
            for i in range(repeats + 1):
                floor_ms = floor_once(floor_page, f"{long_tokens} tokens, click {i}")
                _, click_ms, settled_ms = click_row_once(page, long_tokens_shown, 2 + i % 2)
                if i:
                    times["click_long"].append(click_ms)
                    times["settled_long"].append(settled_ms)
                    times["floor"].append(floor_ms)
                    print(f"  {i}/{repeats}: {long_tokens} tokens  floor {floor_ms:7.1f} ms  click {click_ms:7.1f} ms",
                          flush=True)
        finally:
            browser.close()
    res = {k: summary(v) for k, v in times.items()}
    for k in ("submit", "click", "highlight", "settled", "click_long", "settled_long"):
        res[k]["median_over_floor"] = round(res[k]["median_ms"] / res["floor"]["median_ms"], 2)
        res[k]["p90_over_floor"] = round(res[k]["p90_ms"] / res["floor"]["p90_ms"], 2)
    res["repeats"] = repeats
    res["long_tokens"] = long_tokens
    res["cpus"] = os.cpu_count()
    res["load_average_at_start"] = round(load_before, 2)
    res["wall_s"] = round(time.monotonic() - t_start, 1)
    return res


LABELS = {"floor": "(a) floor: trivial app, Enter -> text shown",
          "submit": "(b) Explore: Ctrl+Enter -> head view drawn",
          "click": "(c) Explore: click row word -> detail",
          "highlight": "(d) the same click -> row marked (browser)",
          "settled": "(c') the same click -> page settled",
          "click_long": "(e) click row word -> detail, --long tokens",
          "settled_long": "(e') the same click -> page settled"}


def print_table(res: dict) -> None:
    print(f"\n{'':44} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'median/(a)':>11} {'p90/(a)':>8}")
    for k, name in LABELS.items():
        r = res[k]
        ratio = f"{r['median_over_floor']:>11.1f} {r['p90_over_floor']:>8.1f}" if k != "floor" else f"{'1.0':>11} {'1.0':>8}"
        print(f"{name:44} {r['median_ms']:>10.1f} {r['p90_ms']:>8.1f} {r['max_ms']:>8.1f} {ratio}")
    print(f"({res['repeats']} sentences of 8-20 words each, then {res['long_tokens']} tokens; {res['cpus']} CPUs, load average "
          f"{res['load_average_at_start']} at start; {res['wall_s']} s in all)")


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--repeats", type=int, default=8)
    ap.add_argument("--long", type=int, default=512, help="tokens of the long text for (e)")
    args = ap.parse_args(argv)
    if not 1 <= args.repeats <= 70:
        ap.error("--repeats must be between 1 and 70")
    res = run(args.repeats, args.long)
    print_table(res)
    write_json(args.json, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
