"""When a page has settled as a person sees it: the last change of the page after an action.

A MutationObserver (installed before any page script, and on every open shadow root) stamps each
change of the page with performance.now(); after an action we wait until the script is not running
and nothing has changed for QUIET_MS, then read the last stamp. Changes a person cannot see are left
out: Streamlit's own data-test-* attributes, anything under a <style> or <script>, and the "stale"
mark Streamlit puts on the elements a run redraws: a stale element fades only after its style's
transition delay (`opacity 1s ease-in 0.5s` in Streamlit 1.67, read from the page), so a mark taken
off before then was never seen; one taken off later counts (the element faded and comes back).
`any` keeps the older measure, every change but data-test-* attributes, for comparison. Also counted:
SVG nodes added or removed (a Plotly figure rebuilt replaces thousands) and whether each chart (a
plotly graph div, or the q·k drawing of assets/dot.js) is the same DOM node as before or a new one.

The one definition of "settled" the benchmarks use (headview_latency --settle, browser_latency's click →
settled): install OBSERVER_SCRIPT before the page's scripts (harness/page_timing.timed_page(browser, url,
OBSERVER_SCRIPT)), call reset(page) before the action and wait_settled(page) after it.
"""

from __future__ import annotations

from playwright.sync_api import Page

QUIET_MS = 1200

OBSERVER_SCRIPT = """
(() => {
  const S = window.__settle = { last: 0, any: 0, svgAdded: 0, svgRemoved: 0, observed: new WeakSet(), fades: new WeakMap() };
  const testAttr = (m) => m.type === 'attributes' && m.attributeName && m.attributeName.startsWith('data-test');
  const delayMs = (el) => { const d = getComputedStyle(el).transitionDelay || '0s';
    return parseFloat(d) * (d.trim().endsWith('ms') ? 1 : 1000); };
  const staleMark = (m) => { // an element container's stale mark: seen only once it has started to fade
    const el = m.target;
    if (m.type !== 'attributes' || !el.getAttribute || el.getAttribute('data-testid') !== 'stElementContainer') return false;
    if (m.attributeName === 'class') return true; // its class follows the mark (Streamlit's styles)
    if (m.attributeName !== 'data-stale') return false;
    const now = performance.now();
    if (el.getAttribute('data-stale') === 'true') { S.fades.set(el, now + delayMs(el)); return true; }
    const from = S.fades.get(el);
    S.fades.delete(el);
    return from === undefined || now < from; };
  const invisible = (m) => testAttr(m) || staleMark(m)
    || (m.target && m.target.closest && m.target.closest('style,script'));
  const countSvg = (nodes) => { let n = 0;
    for (const x of nodes) if (x.nodeType === 1 && (x instanceof SVGElement || x.querySelector('svg'))) {
      n += 1 + x.querySelectorAll('*').length; }
    return n; };
  const seen = (list) => { let any = false;
    for (const m of list) {
      if (!testAttr(m)) S.any = performance.now();
      if (invisible(m)) continue;
      any = true;
      if (m.type === 'childList') { S.svgAdded += countSvg(m.addedNodes); S.svgRemoved += countSvg(m.removedNodes); }
      for (const x of m.addedNodes || []) if (x.nodeType === 1) watchShadows(x);
    }
    if (any) S.last = performance.now(); };
  const opts = { subtree: true, childList: true, attributes: true, characterData: true };
  const watch = (root) => { if (S.observed.has(root)) return; S.observed.add(root); new MutationObserver(seen).observe(root, opts); };
  const watchShadows = (el) => { if (el.shadowRoot) { watch(el.shadowRoot); el.shadowRoot.querySelectorAll('*').forEach(watchShadows); }
    el.querySelectorAll && el.querySelectorAll('*').forEach((c) => c.shadowRoot && watchShadows(c)); };
  const start = () => { watch(document.documentElement); document.querySelectorAll('*').forEach(watchShadows); };
  S.rescan = () => document.querySelectorAll('*').forEach(watchShadows);  // shadow roots attached late
  if (document.documentElement) start(); else document.addEventListener('DOMContentLoaded', start);
})();
"""

CHARTS = """const charts = () => { const out = [], walk = (r) => {
  r.querySelectorAll('.js-plotly-plot, .dot-svg').forEach((e) => out.push(e));
  r.querySelectorAll('*').forEach((e) => e.shadowRoot && walk(e.shadowRoot)); }; walk(document); return out; };"""

# Before an action: watch shadow roots made since, zero the counters, tag every chart (kept or made anew?).
RESET = """() => { """ + CHARTS + """ const S = window.__settle; S.rescan(); S.svgAdded = 0; S.svgRemoved = 0; S.last = 0; S.any = 0;
  charts().forEach((d) => { d.__settleTag = true; }); }"""

QUIET = """([t0Name, quiet]) => { """ + CHARTS + """ const S = window.__settle, t0 = window[t0Name];
  const app = document.querySelector('[data-testid="stApp"]');
  if (typeof t0 !== 'number' || !app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (performance.now() - Math.max(S.last, S.any, t0) < quiet) return false;
  const plots = charts();
  return { settled: Math.max(S.last - t0, 0), any: Math.max(S.any - t0, 0), svgAdded: S.svgAdded, svgRemoved: S.svgRemoved,
           plots: plots.length, plotsKept: plots.filter((d) => d.__settleTag).length }; }"""


def reset(page: Page) -> None:
    page.evaluate(RESET)


def wait_settled(page: Page, t0_name: str = "__benchT0", timeout_ms: int = 120_000) -> dict:
    """{settled: ms from the action to the page's last visible change, any: to its last change of any
    kind but data-test-* attributes (the older measure), svgAdded, svgRemoved (SVG nodes), plots,
    plotsKept (charts whose node survived the action)}."""
    return page.wait_for_function(QUIET, arg=[t0_name, QUIET_MS], polling=100, timeout=timeout_ms).json_value()
