"""The head view (attention/headview) in real headless Chromium: how fast a hover or a click is
highlighted, and how many bytes it takes.

    python bench/headview_latency.py [--lengths 32 512 2048] [--repeats 20] [--streamlit] [--json out.json]

For each length, one random head (d_head 64, encoder: every cell open) is saved as a self-contained
HTML fragment and opened from file://. In the page's own clock, an event is dispatched on a cell of
A and the time taken until (a) the view's attribute says so (data-hover / data-selected: the handler
ran and the overlays are redrawn) and (b) the next animation frame (the highlight is painted).
Also: first draw (page load to data-ready), the head payload's bytes, and the saved file of a
random trace shaped like all-MiniLM-L6-v2 (6 layers × 12 heads, d_head 32, 128 tokens).
--streamlit adds the bytes the Streamlit element receives at 512 tokens: first draw and one click.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from attention.headview import render_html
from attention.headview.page import core_js, document_bytes
from attention.headview.payload import head_payload
from bench.cli import bench_parser, write_json
from harness.app_server import CHROMIUM, CHROMIUM_ARGS
from harness.head_geometry import cell_point
from harness.random_sites import random_site, random_trace

MEASURE = """async ([kind, points]) => {
  const el = document.querySelector('[data-matrix="A"]'), stage = el.querySelector('.hv-stage');
  const attr = kind === 'hover' ? 'data-hover' : 'data-selected', out = [];
  for (const [x, y, want] of points) {
    await new Promise((r) => requestAnimationFrame(r)); // start on a quiet frame
    const opts = { clientX: x, clientY: y, bubbles: true, pointerId: 1, button: 0 };
    const t0 = performance.now();
    if (kind === 'hover') stage.dispatchEvent(new PointerEvent('pointermove', opts));
    else { stage.dispatchEvent(new PointerEvent('pointerdown', opts)); stage.dispatchEvent(new PointerEvent('pointerup', opts)); }
    const handled = el.getAttribute(attr) === want ? performance.now() - t0 : NaN;
    await new Promise((r) => requestAnimationFrame(r));
    out.push([handled, performance.now() - t0]);
  }
  return out;
}"""


def cell_points(page, cells: list[tuple[int, int]]) -> list[tuple[float, float, str]]:
    """Client coordinates of each (q, k) in A at the current view, and the attribute expected."""
    return [(*cell_point(page, "A", q, k), f"{q},{k}") for q, k in cells]


def summary(samples: list[float]) -> str:
    return f"median {statistics.median(samples):6.2f} ms   max {max(samples):6.2f} ms"


def measure_length(browser, n: int, repeats: int, folder: Path) -> dict:
    site = random_site(n, kind="encoder", heads=1, d_head=64, spread=1.0, seed=n)
    payload_bytes = len(json.dumps(head_payload(site, 0), separators=(",", ":")))
    path = folder / f"head{n}.html"
    path.write_text("<!DOCTYPE html><meta charset='utf-8'><body>" + render_html(site), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1500, "height": 1200})
    t0 = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_selector(".hv[data-ready='1']", timeout=120_000)
    first_draw_ms = (time.perf_counter() - t0) * 1000
    step = max(1, n // repeats)
    cells = [((i * step * 7) % n, (i * step * 13 + 1) % n) for i in range(repeats)]
    hover = page.evaluate(MEASURE, ["hover", cell_points(page, cells)])
    click = page.evaluate(MEASURE, ["click", cell_points(page, cells[::-1])])
    page.close()
    return {"tokens": n, "payload_bytes": payload_bytes, "first_draw_ms": first_draw_ms,
            "hover_handled_ms": [h for h, _ in hover], "hover_frame_ms": [f for _, f in hover],
            "click_handled_ms": [h for h, _ in click], "click_frame_ms": [f for _, f in click]}


def streamlit_bytes(browser, n: int) -> dict:
    from bench.browser_frames import counted_page
    from harness.app_server import ROOT, streamlit_process, wait_idle

    with streamlit_process(app=ROOT / "tests" / "e2e" / "apps" / "headview_app.py") as server:
        context, page, counter = counted_page(browser)
        page.goto(f"{server.url}/?n={n}&kind=encoder")
        wait_idle(page)
        page.wait_for_selector(".hv[data-ready='1']", timeout=120_000)
        wait_idle(page)
        load = counter.take()
        (x, y, _), = cell_points(page, [(n // 3, n // 2)])
        page.mouse.click(x, y)
        page.wait_for_selector(f"text=selected={n // 3},{n // 2}", timeout=60_000)
        wait_idle(page)
        click = counter.take()
        context.close()
    return {"tokens": n, "load_bytes": load, "click_bytes": click}


def main() -> None:
    ap = bench_parser(__doc__)
    ap.add_argument("--lengths", type=int, nargs="+", default=[32, 512, 2048])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--streamlit", action="store_true")
    args = ap.parse_args()
    results: dict = {"lengths": []}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for n in args.lengths:
            r = measure_length(browser, n, args.repeats, Path(tmp))
            results["lengths"].append(r)
            print(f"{n:5d} tokens  payload {r['payload_bytes'] / 1e6:6.3f} MB (+ {len(core_js()) / 1e3:.0f} kB of code)"
                  f"   first draw {r['first_draw_ms']:7.0f} ms")
            for what in ("hover", "click"):
                print(f"      {what:5s} → attribute  {summary(r[what + '_handled_ms'])}"
                      f"   → next frame  {summary(r[what + '_frame_ms'])}")
        if args.streamlit:
            results["streamlit"] = s = streamlit_bytes(browser, 512)
            print(f"Streamlit, 512 tokens: first draw {s['load_bytes'] / 1e6:.3f} MB received, "
                  f"one click {s['click_bytes'] / 1e3:.1f} kB")
        browser.close()
    saved = len(document_bytes(random_trace(128)))
    results["saved_trace_128_bytes"] = saved
    print(f"saved HTML, random 6 layers × 12 heads, d_head 32, 128 tokens: {saved / 1e6:.3f} MB "
          f"(budget 2.65 MB; bertviz's head view of MiniLM at 128 tokens: 53 MB)")
    write_json(args.json, results)


if __name__ == "__main__":
    main()
