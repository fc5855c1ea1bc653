"""The head view in Chromium: hover or click → highlight, bytes; --settle: Explore's click → page settled.

The head view (attention/headview) in real headless Chromium: how fast a hover or a click is
highlighted, and how many bytes it takes.

    python -m bench headview_latency [--lengths 32 512 2048] [--repeats 20] [--streamlit] [--json out.json]

For each length, one random head (d_head 64, encoder: every cell open) is saved as a self-contained
HTML fragment and opened from file://. In the page's own clock, an event is dispatched on a cell of
A and the time taken until (a) the view's attribute says so (data-hover / data-selected: the handler
ran and the overlays are redrawn) and (b) the next animation frame (the highlight is painted).
Also: first draw (page load to data-ready), the head payload's bytes, and the saved file of a
random trace shaped like all-MiniLM-L6-v2 (6 layers × 12 heads, d_head 32, 128 tokens).
--streamlit adds the bytes the Streamlit element receives at 512 tokens: first draw and one click.
--settle runs the real app: a click on a cell of Explore's A with "Why this score: q·k" open, and in
the same run the floor (a bare Streamlit app: Enter in a text box); for each, the highlight (the first
animation frame that draws it, read in the page) and the
page settled as a person sees it: its last visible change (harness/settle.py), not only the detail panel
(and, for comparison, its last change of any kind, Streamlit's stale marks included);
also the SVG nodes replaced and whether the q·k figure below was kept or built again.
"""

from __future__ import annotations

import json
import statistics
import sys
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
    from harness.frames import counted_page
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


# In the page, from before the click: the first animation frame at which A's attribute names the clicked
# cell (the highlight is drawn in that frame), in the page's clock, so a busy page cannot delay the reading.
HIGHLIGHT_FRAME = """(want) => { window.__hlFrame = NaN; const find = (r) => { const a = r.querySelector('[data-matrix="A"]');
  if (a) return a; for (const e of r.querySelectorAll('*')) if (e.shadowRoot) { const h = find(e.shadowRoot); if (h) return h; }
  return null; }; const a = find(document);
  const tick = () => { if (a.getAttribute("data-selected") === want) window.__hlFrame = performance.now(); else requestAnimationFrame(tick); };
  requestAnimationFrame(tick); }"""

SETTLE_TEXT = "the black cat drank the milk"  # [CLS] the black cat drank the milk [SEP]
SETTLE_CELLS = [(6, 4), (6, 3), (5, 4), (6, 2), (4, 3), (6, 1)]  # each click changes the pair


def settle_figures(browser, repeats: int) -> dict:
    """Explore's click → settled against a bare Streamlit rerun, interleaved so noise hits both."""
    from harness import settle
    from harness.app_server import streamlit_process as app_server
    from harness.head_geometry import selected, wait_ready
    from harness.page_timing import RESET_T0, TRIVIAL_APP, timed_page

    def new_page(url: str):
        return timed_page(browser, url, settle.OBSERVER_SCRIPT)

    out: dict = {"floor": [], "floor_any": [], "highlight": [], "settled": [], "settled_any": [], "svg_replaced": [],
                 "plots_kept": []}
    with app_server(TRIVIAL_APP) as trivial, app_server() as app:
        floor = new_page(trivial.url)
        q0, k0 = SETTLE_CELLS[-1]
        page = new_page(f"{app.url}/?text={SETTLE_TEXT.replace(' ', '+')}&q={q0}&k={k0}")
        wait_ready(page)
        page.locator(".js-plotly-plot, .dot-svg").first.wait_for(timeout=120_000)  # q·k drawn (Plotly or dot.js)
        for i in range(repeats + 1):  # the first round warms up, uncounted
            box = floor.get_by_label("Value")
            box.fill(f"click {i}")
            settle.reset(floor)
            floor.evaluate(RESET_T0)
            box.press("Enter")
            f_r = settle.wait_settled(floor)
            floor_ms = f_r["settled"]
            q, k = SETTLE_CELLS[i % len(SETTLE_CELLS)]
            settle.reset(page)
            page.evaluate(RESET_T0)
            page.evaluate(HIGHLIGHT_FRAME, f"{q},{k}")
            page.mouse.click(*cell_point(page, "A", q, k))
            r = settle.wait_settled(page)
            highlight = page.evaluate("() => window.__hlFrame - window.__benchT0")
            if selected(page, "A") != f"{q},{k}":
                raise RuntimeError(f"the click on {q},{k} was not kept: {selected(page, 'A')}")
            if i:
                out["floor"].append(floor_ms)
                out["highlight"].append(highlight)
                out["settled"].append(r["settled"])
                out["floor_any"].append(f_r["any"])
                out["settled_any"].append(r["any"])
                out["svg_replaced"].append(r["svgAdded"] + r["svgRemoved"])
                out["plots_kept"].append(f"{r['plotsKept']}/{r['plots']}")
                print(f"  {i}/{repeats}: floor {floor_ms:6.0f} ms   highlight {highlight:5.0f} ms   settled "
                      f"{r['settled']:6.0f} ms (any change: floor {f_r['any']:4.0f}, page {r['any']:5.0f})   SVG nodes added+removed {r['svgAdded'] + r['svgRemoved']:5d}"
                      f"   charts kept {r['plotsKept']}/{r['plots']}", flush=True)
    f, s = statistics.median(out["floor"]), statistics.median(out["settled"])
    print(f"Explore click, q·k open: highlight median {statistics.median(out['highlight']):.0f} ms; settled median "
          f"{s:.0f} ms, max {max(out['settled']):.0f} ms; bare Streamlit rerun median {f:.0f} ms; settled / bare "
          f"{s / f:.2f}× (max {max(a / b for a, b in zip(out['settled'], out['floor'], strict=True)):.2f}×); SVG nodes "
          f"replaced median {statistics.median(out['svg_replaced']):.0f}")
    fa, sa = statistics.median(out["floor_any"]), statistics.median(out["settled_any"])
    print(f"the older measure (any change, Streamlit's stale marks included): settled median {sa:.0f} ms, bare "
          f"{fa:.0f} ms, {sa / fa:.2f}x")
    out["settled_over_floor"] = round(s / f, 2)
    out["any_over_floor"] = round(sa / fa, 2)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--lengths", type=int, nargs="+", default=[32, 512, 2048])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--streamlit", action="store_true")
    ap.add_argument("--settle", action="store_true", help="only the real app's click → settled, against a bare rerun")
    args = ap.parse_args(argv)
    results: dict = {"lengths": []}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        if args.settle:
            results["settle"] = settle_figures(browser, args.repeats)
            browser.close()
            write_json(args.json, results)
            return 0
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
