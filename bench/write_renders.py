"""Write in Chromium: React commits per written word and the fibers each renders again (load-free).

How much of the Write page React renders again for each written word, in a real headless Chromium: the
commits one "Next word" causes and, for each, the fibers it rendered again (components that did work) and
mounted. Unlike a time, a whole-page render's count does not move with the machine's load, so a change to
the page's layout can be judged by it before the latency bench (`python -m bench write_latency`) says what it costs.
How many commits a word takes does vary (Streamlit merges or splits them with the timing of its messages),
and with it the sum per word.

    python -m bench write_renders [--words 5]

Prints, per word, each commit of more than 20 fibers as "ms after the click: rendered+mounted", then the
median of the largest commit and of the sum per word. A hook in the page's place of React DevTools sees
every commit; a fiber counts as rendered again when React flagged it as having done work in that commit.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.cli import bench_parser, write_json  # noqa: E402
from harness.app_server import CHROMIUM, CHROMIUM_ARGS, wait_idle  # noqa: E402
from harness.app_server import streamlit_process as app_server  # noqa: E402
from harness.page_timing import FIND_VIEW  # noqa: E402

TIMEOUT_MS = 240_000
PERFORMED_WORK = 1  # React's fiber flag for "this component rendered in this commit"

# Installed before React loads: React reports each commit to this stand-in for the DevTools hook. A subtree
# whose children are the previous commit's own objects was not rendered again, so the walk skips it.
HOOK = """
window.__commits = [];
window.addEventListener('mousedown', () => { window.__t0 = performance.now(); }, true);
window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true, renderers: new Map(), isDisabled: false,
  inject(r) { this.renderers.set(this.renderers.size + 1, r); return this.renderers.size; },
  checkDCE() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, onScheduleFiberRoot() {},
  sub() {}, on() {}, off() {}, emit() {},
  onCommitFiberRoot(id, root) {
    let rendered = 0, mounted = 0;
    const visit = (f, fresh) => {
      for (; f; f = f.sibling) {
        const prev = f.alternate;
        if (fresh || prev === null) { mounted++; visit(f.child, true); continue; }
        if ((f.flags & %d) !== 0) rendered++;
        if (f.child !== prev.child) visit(f.child, false);
      }
    };
    visit(root.current, false);
    window.__commits.push({t: performance.now(), rendered, mounted});
  },
};
""" % PERFORMED_WORK

ROWS = "() => { " + FIND_VIEW + " return findView().p.query_tokens.length; }"
GROWN = "(n) => { " + FIND_VIEW + " const v = findView(); return !!v && v.p.query_tokens.length === n; }"


def run(words: int) -> dict:
    largest, totals = [], []
    with app_server() as app, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1400})
            context.add_init_script(HOOK)
            page = context.new_page()
            page.goto(f"{app.url}/write")
            wait_idle(page, TIMEOUT_MS)
            page.wait_for_selector("text=Next word", timeout=TIMEOUT_MS)
            wait_idle(page)
            n = page.evaluate(ROWS)
            for i in range(words + 1):
                time.sleep(0.8)  # the next word read ahead, as when a person reads the last one
                page.evaluate("() => { window.__commits = []; }")
                box = page.get_by_role("button", name="Next word").bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                n += 1
                page.wait_for_function(GROWN, arg=n, polling="raf", timeout=TIMEOUT_MS)
                wait_idle(page)
                time.sleep(0.3)  # the head view's own commits after the draw
                t0, commits = page.evaluate("() => [window.__t0, window.__commits]")
                if not i:
                    continue  # the first word warms up, uncounted
                big = [c for c in commits if c["rendered"] + c["mounted"] > 20]
                largest.append(max(c["rendered"] for c in commits))
                totals.append(sum(c["rendered"] + c["mounted"] for c in commits))
                print(f"word {i}: {len(commits)} commits; " +
                      " ".join(f"{c['t'] - t0:.0f} ms: {c['rendered']}+{c['mounted']}" for c in big), flush=True)
        finally:
            browser.close()
    result = {"largest_commit_fibers": statistics.median(largest), "fibers_per_word": statistics.median(totals)}
    print(f"median: largest commit {result['largest_commit_fibers']:.0f} fibers rendered again; "
          f"{result['fibers_per_word']:.0f} fibers per word in all", flush=True)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--words", type=int, default=5)
    args = ap.parse_args(argv)
    write_json(args.json, run(args.words))
    return 0


if __name__ == "__main__":
    sys.exit(main())
