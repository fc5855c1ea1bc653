"""The long head view at 8,192 tokens in Chromium: first draw (s, bytes), click → highlight, zoom → tile.

The long head view (ui/head_view/long_view.py) in real headless Chromium against the real app: SmolLM2 on a text of
8,192 tokens in Explore.

    python -m bench long_view [--tokens 8192] [--clicks 15] [--zooms 5] [--json out.json]

  trace        the first visit (layer 18, head 6): the page until the view is drawn, the trace included
  first draw   a second session on a head not drawn before (head 4): the page until the view is drawn (the
               pooled pass included, the trace cached: ATTENTION_CACHE_MB=4096 for the server), and the bytes
               the page received over the websocket
  click        a cell clicked (pointer events dispatched on the canvas, in the page's clock): until the view's
               attribute says so (the handler ran and the highlight is drawn), the next frame (painted), and
               until Python's exact row and column are back (the view's data-lines)
  zoom         wheel notches at a new place of the whole matrix until it shows ≤ 480 positions a side (4 at
               8,192 tokens): from the last notch until the exact
               tile is drawn (the view waits 120 ms for the wheel to rest, then asks), and its bytes
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import urllib.parse

import numpy as np
from playwright.sync_api import sync_playwright

from bench.cli import bench_parser, write_json
from bench.long_context import ids_of
from harness.app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_process, wait_idle
from harness.frames import counted_page

os.environ.setdefault("HF_HUB_OFFLINE", "1")
VIEW = '[data-matrix="A-long"][data-ready="1"]'
LAYER = 18

_WAIT_ATTR = """(el, name, want, t0) => new Promise((resolve) => {
  const poll = () => el.getAttribute(name) === want ? resolve(performance.now() - t0)
    : performance.now() - t0 > 30000 ? resolve(NaN) : requestAnimationFrame(poll);
  poll();
})"""
CLICKS = """async (el, points) => {
  const c = el.querySelector('canvas'), out = [];
  const wait = """ + _WAIT_ATTR + """;
  for (const [x, y, want] of points) {
    await new Promise((r) => setTimeout(r, 800)); // the last click's rerun drawn: a person clicks again later
    await new Promise((r) => requestAnimationFrame(r)); // start on a quiet frame
    const opts = { clientX: x, clientY: y, bubbles: true, pointerId: 1, button: 0 };
    const t0 = performance.now();
    c.dispatchEvent(new PointerEvent('pointerdown', opts));
    c.dispatchEvent(new PointerEvent('pointerup', opts));
    const handled = el.getAttribute('data-selected') === want ? performance.now() - t0 : NaN;
    await new Promise((r) => requestAnimationFrame(r));
    const frame = performance.now() - t0;
    out.push([handled, frame, await wait(el, 'data-lines', want, t0)]);
  }
  return out;
}"""
ZOOM = """async (el, [x, y]) => {
  const c = el.querySelector('canvas');
  const span = () => { const v = el.getAttribute('data-view').split(',').map(Number); return Math.max(v[1] - v[0], v[3] - v[2]); };
  for (let i = 0; i < 12 && span() > 480; i++) { // notches until it shows 480 positions a side or fewer
    c.dispatchEvent(new WheelEvent('wheel', { clientX: x, clientY: y, deltaY: -400, bubbles: true, cancelable: true }));
  }
  const t0 = performance.now();
  const wait = """ + _WAIT_ATTR + """;
  const ms = await wait(el, 'data-exact', '1', t0);
  return [ms, ['data-view', 'data-asked', 'data-tiles'].map((a) => el.getAttribute(a)).join('  ')];
}"""


def _url(base: str, text: str, head: int) -> str:
    return f"{base}/?" + urllib.parse.urlencode({"text": text, "model": "smollm2", "kind": "decoder", "layer": LAYER,
                                                  "head": head})


def _open(browser, url: str):
    context, page, counter = counted_page(browser)
    t0 = time.perf_counter()
    page.goto(url)
    page.locator(VIEW).wait_for(timeout=1_800_000)
    seconds = time.perf_counter() - t0
    wait_idle(page, timeout_ms=600_000)
    return context, page, counter, seconds


def _client(page, view, q: float, k: float) -> tuple[float, float]:
    """Client px of position (q, k) at the view's current zoom."""
    y0, y1, x0, x1 = (float(v) for v in view.get_attribute("data-view").split(","))
    bx, by, bw, bh = (float(v) for v in view.get_attribute("data-box").split(","))
    r = view.locator("canvas").bounding_box()
    return r["x"] + bx + (k - x0) / (x1 - x0) * bw, r["y"] + by + (q - y0) / (y1 - y0) * bh


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--tokens", type=int, default=8192)
    ap.add_argument("--clicks", type=int, default=15)
    ap.add_argument("--zooms", type=int, default=5)
    ap.add_argument("--cache-mb", type=int, default=4096)
    ap.add_argument("--log", help="the server's output (tracebacks included)")
    args = ap.parse_args(argv)
    from transformers import AutoTokenizer

    from attention.lm import smollm2

    tok = AutoTokenizer.from_pretrained(smollm2.folder())
    n = args.tokens
    text = tok.decode(ids_of(tok, n))
    out: dict = {"tokens": n, "load_before": os.getloadavg()}
    rng = np.random.default_rng(0)
    # a trace of 8,192 tokens (about 1.8 GB) is larger than the default cache (ATTENTION_CACHE_MB, 1,024): each
    # whole-page run would trace again. Kept here, so that a new head's first draw is the view's own cost.
    env = {"ATTENTION_CACHE_MB": str(args.cache_mb)}
    with streamlit_process(extra_env=env, log_path=args.log) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context, page, counter, out["trace_visit_s"] = _open(browser, _url(server.url, text, 6))
        context.close()
        print(f"first visit (trace of {n:,} tokens included): {out['trace_visit_s']:.1f} s", flush=True)

        context, page, counter, out["first_draw_s"] = _open(browser, _url(server.url, text, 4))
        out["first_draw_bytes"] = counter.take()
        print(f"first draw of a new head ({n:,} tokens): {out['first_draw_s']:.2f} s, {out['first_draw_bytes'] / 1e6:.3f} MB received "
              f"(the whole page; budget 2 MB)", flush=True)
        view = page.locator(VIEW)
        view.scroll_into_view_if_needed()
        shown = int(float(view.get_attribute("data-view").split(",")[1]))  # the whole matrix: its query rows
        if shown != n:
            raise RuntimeError(f"the page shows {shown} tokens, not {n}")
        cells = [(int(q), int(rng.integers(0, q + 1))) for q in rng.integers(1, n, size=args.clicks + 1)]
        points = [[*_client(page, view, q + 0.5, k + 0.5), f"{q},{k}"] for q, k in cells]  # cell centres
        counter.take()
        res = view.evaluate(CLICKS, points)[1:]  # the first click warms up, uncounted
        out["click_bytes"] = counter.take() / (len(res) + 1)
        for i, name in enumerate(("click_highlight_ms", "click_frame_ms", "click_lines_ms")):
            out[name] = [r[i] for r in res]
        print(f"click → highlight drawn: median {statistics.median(out['click_highlight_ms']):.2f} ms, max "
              f"{max(out['click_highlight_ms']):.2f} ms; → next frame median {statistics.median(out['click_frame_ms']):.1f} ms; "
              f"→ exact row and column back from Python median {statistics.median(out['click_lines_ms']):.0f} ms "
              f"({out['click_bytes'] / 1e3:.0f} kB a click)", flush=True)

        zooms, zoom_bytes = [], []
        for i in range(args.zooms):
            q = (i + 0.5) / args.zooms * n
            view.evaluate("(el) => el.querySelectorAll('button')[2].click()")  # the whole matrix
            page.wait_for_timeout(300)
            x, y = _client(page, view, q, q * 0.4)
            counter.take()
            ms, where = view.evaluate(ZOOM, [x, y])
            zooms.append(ms)
            if ms != ms:  # NaN: no tile in 120 s
                print("  no tile drawn:", where, flush=True)
            page.wait_for_timeout(300)
            zoom_bytes.append(counter.take())
        out["zoom_tile_ms"], out["zoom_bytes"] = zooms, zoom_bytes
        print(f"zoom → exact tile drawn: median {statistics.median(zooms):.0f} ms, max {max(zooms):.0f} ms "
              f"(120 ms of it the wheel's rest); {statistics.median(zoom_bytes) / 1e3:.0f} kB a tile", flush=True)
        context.close()
        browser.close()
    out["load_after"] = os.getloadavg()
    print(f"load average before {out['load_before'][0]:.1f}, after {out['load_after'][0]:.1f} (2 cores)")
    write_json(args.json, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
