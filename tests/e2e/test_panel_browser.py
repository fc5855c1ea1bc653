"""#45.3 in a real Chromium: a click in Explore's head view reruns the head view's small fragment only
(not the page's heavy parts), the detail panel and the q·k chart change before Python answers (the
browser makes their blocks, assets/panel_predict.js), and those blocks are Python's to the character."""

import json
import math
import random

import pytest
from playwright.sync_api import expect

from attention import i18n
from attention.headview.page import asset
from harness.app_server import wait_idle
from harness.head_geometry import cell_point, panel, wait_ready

# Messages the page receives from the server (a rerun sends one a element, and a few of its own): counted
# from a moment on, by a listener on the app's websocket (installed before the page's scripts).
FRAMES = """(() => { window.__frames = 0; const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (!this.__counted) { this.__counted = true; this.addEventListener('message', () => { window.__frames += 1; }); }
    return send.call(this, data); }; })();"""
# Every element container Streamlit marks stale while a run runs (within the run's scope), by key class. An empty
# placeholder is left out: it draws nothing (since Explore's model picker, Streamlit marks the st.empty after the
# sentence box stale during the fragment's run; the sentence box, the picker and every chart are not).
STALE_WATCH = """() => { window.__stale = new Set(); const seen = (list) => { for (const m of list) {
  const el = m.target; if (m.attributeName === 'data-stale' && el.getAttribute('data-stale') === 'true')
    if (el.querySelector('[data-testid="stEmpty"]') && !el.textContent.trim()) continue;  // empty: nothing drawn
    window.__stale.add([...el.classList].find((c) => c.startsWith('st-key-')) || el.getAttribute('data-testid')); } };
  new MutationObserver(seen).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-stale'] }); }"""
HEAD_FRAGMENT = {"st-key-explore-head", "st-key-explore-head-selection", "st-key-explore-head-panel-carrier",
                 "st-key-explore-head-panel-head"}
MOST_FRAMES = 16  # the head view's fragment: 10-11 measured; the fragment around it as well: 30 or more

# Every message the panels of `channel` receive: [made in the browser?, its parts as JSON, its selection].
PANEL_WATCH = """(channel) => { window.__panel = []; const bus = globalThis.__attentionHeadviewBus;
  bus.subs.get(channel + '/panel').add((m) => window.__panel.push([!!m.predicted, JSON.stringify(m.parts), String(m.selection)])); }"""


def open_explore(page, app_url, query: str = "") -> None:
    page.goto(f"{app_url}/?text=The+black+cat+drank+the+milk{query}")
    wait_idle(page)
    wait_ready(page)
    page.locator(".dot-svg").first.wait_for(timeout=60_000)


def test_a_click_reruns_the_head_views_fragment_only(page, app_url):
    """Before, a click reran the fragment holding the head view, the legend, the detail panel (its
    markdown, metrics, table, button) and the explanation: ~40 elements sent again. Now only the head
    view's own fragment: the view, its selection, the panels' blocks and numbers."""
    page.add_init_script(FRAMES)
    open_explore(page, app_url, "&q=6&k=1")
    detail = page.locator(".st-key-explore-head-panel-detail .pn-host")
    detail.evaluate("(el) => { el.__kept = true; }")
    page.evaluate(STALE_WATCH)
    for q, k in [(6, 4), (5, 2), (2, 3)]:
        page.evaluate("() => { window.__frames = 0; }")
        page.mouse.click(*cell_point(page, "A", q, k))
        wait_idle(page)
        expect(page.get_by_text(f"(query {q}, key {k})")).to_be_visible()
        assert 0 < page.evaluate("() => window.__frames") <= MOST_FRAMES
    stale = {s for s in page.evaluate("() => [...window.__stale]") if s.startswith("st-key-")}
    assert stale <= HEAD_FRAGMENT, stale  # no keyed element outside the head view's fragment (the sentence box,
    # the pickers, the legend, the explanation) was redrawn: a whole-page rerun marks them all. Unkeyed containers
    # are left out: since Explore's model picker Streamlit may mark a placeholder outside the fragment stale.
    assert detail.evaluate("(el) => el.__kept === true")  # the panel itself is not drawn again, its blocks move


def test_the_panels_change_before_pythons_answer(page, app_url):
    """The pair's numbers and the q·k chart are on the page when the browser's own blocks arrive, before
    Python's (the first message the panels get for the new pair is the browser's)."""
    open_explore(page, app_url, "&q=6&k=1")
    page.evaluate("""() => { window.__seen = []; const bus = globalThis.__attentionHeadviewBus;
      const find = (root, sel) => { const hit = root.querySelector(sel); if (hit) return hit;
        for (const e of root.querySelectorAll('*')) if (e.shadowRoot) { const h = find(e.shadowRoot, sel); if (h) return h; }
        return null; };
      bus.subs.get('explore-head/panel').add((m) => window.__seen.push([!!m.predicted, String(m.selection),
        find(document.querySelector('.st-key-explore-head-panel-detail'), '.pn-host').textContent,
        find(document, '.dot-svg').getAttribute('aria-label')])); }""")
    page.mouse.click(*cell_point(page, "A", 5, 2))
    wait_idle(page)
    expect(page.get_by_text("(query 5, key 2)")).to_be_visible()
    seen = [s for s in page.evaluate("() => window.__seen") if s[1] == "5,2"]
    assert seen and seen[0][0], seen  # the browser's blocks came first
    assert "(query 5, key 2)" in seen[0][2] and seen[0][3].endswith("= S[5, 2]"), seen[0]


def _same_as_python(page, channel: str, clicks) -> None:
    page.evaluate(PANEL_WATCH, channel)
    for q, k in clicks:
        page.evaluate("() => { window.__panel = []; }")
        panel(page, "A").scroll_into_view_if_needed()  # the chart's options below may have scrolled it away
        page.mouse.click(*cell_point(page, "A", q, k))
        wait_idle(page)
        got = page.evaluate("() => window.__panel")
        made = [parts for predicted, parts, sel in got if predicted and sel == f"{q},{k}"]
        python = [parts for predicted, parts, sel in got if not predicted and sel == f"{q},{k}"]
        assert made and python, (q, k, got)
        assert json.loads(made[-1]) == json.loads(python[-1]), (q, k)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_browsers_blocks_are_pythons(page, app_url, lang):
    """Whatever the browser makes for a click equals what Python sends after: every word and digit, the
    sorted chart and a compared key included (the head's first and last words, a [CLS] sink row)."""
    open_explore(page, app_url, f"&q=6&k=1&layer=2&head=3&lang={lang}")
    _same_as_python(page, "explore-head", [(6, 4), (0, 0), (7, 7), (2, 6)])
    page.get_by_text(i18n.t("dot.sort", lang)).click()  # the q·k chart's options, then more clicks
    wait_idle(page)
    page.get_by_role("combobox", name=i18n.t("dot.compare", lang)).click()
    page.get_by_role("option", name="cat (3)").click()
    wait_idle(page)
    expect(page.locator(".dot-svg")).to_have_count(2)
    _same_as_python(page, "explore-head", [(5, 3), (1, 2), (6, 4)])


def test_a_masked_pair_of_the_translators_decoder_is_pythons_too(page, app_url):
    page.goto(f"{app_url}/translate")
    wait_idle(page)
    page.get_by_text(i18n.t("kind.decoder", "en")).first.click()
    wait_idle(page)
    wait_ready(page)
    _same_as_python(page, "translate-head", [(1, 4), (4, 1), (2, 2)])  # (1, 4): a later key, masked
    expect(page.get_by_text(i18n.t("detail.masked_note", "en"))).to_have_count(0)
    page.mouse.click(*cell_point(page, "A", 1, 4))
    wait_idle(page)
    expect(page.get_by_text(i18n.t("detail.masked_note", "en"))).to_be_visible()


def test_fixed_and_fsum_print_as_python_does(page):
    """pnFixed is f"{x:.{d}f}" (half to even on the exact binary value, "-0.0000" kept) and pnFsum is
    math.fsum, on ties, tiny and large values and sums that cancel."""
    page.set_content("<html><body></body></html>")
    page.add_script_tag(content=asset("panel_predict.js"))
    rng = random.Random(45)
    ties = [k / 2**m for m in range(1, 12) for k in range(-9, 10, 2)]  # 0.03125, 0.09375, ...: exact halves
    values = ties + [rng.uniform(-30, 30) for _ in range(300)] + [rng.uniform(-1e-4, 1e-4) for _ in range(50)]
    values += [0.0, -0.0, -1e-9, 5e-5, 0.99995, 9.99995, 1e-20, -2.5, 123456.78905]
    for d in (3, 4):
        got = page.evaluate("([xs, d]) => xs.map((x) => pnFixed(x, d))", [values, d])
        assert got == [f"{x:.{d}f}" for x in values]
    sums = [[rng.uniform(-5, 5) * rng.choice([1, 1e-8, 1e8]) for _ in range(64)] for _ in range(100)]
    sums += [[1e16, 1.0, -1e16], [0.1] * 10, [1.0, 1e-16, 1e-16], []]
    got = page.evaluate("(xss) => xss.map((xs) => pnFsum(xs))", sums)
    assert got == [math.fsum(xs) for xs in sums]


def test_a_plotly_explanation_follows_a_click(page, app_url):
    """With "How Z is built" open (drawn by Streamlit from the selection), a click also reruns the panels'
    fragment, once: the chart is of the new query word."""
    open_explore(page, app_url, "&q=6&k=1")
    page.get_by_text(i18n.t("tab.sum", "en")).click()
    wait_idle(page)
    title = page.locator(".js-plotly-plot .gtitle")
    expect(title).to_contain_text("The row of milk", timeout=60_000)
    panel(page, "A").scroll_into_view_if_needed()
    page.mouse.click(*cell_point(page, "A", 3, 2))  # cat → black
    wait_idle(page)
    expect(title).to_contain_text("The row of cat", timeout=60_000)
    expect(page.get_by_text("(query 3, key 2)")).to_be_visible()
