"""Timing in the page's own clock, for the browser benchmarks and the tests that read the same things: the
script installed before any page script, the predicates that wait for the head view or a text, the error box.

The app's servers come from harness/app_server.py (streamlit_process: the real app.py, or trivial_app.py
beside this file, the floor of any Streamlit round trip).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from harness.app_server import wait_idle

TRIVIAL_APP = Path(__file__).resolve().parent / "trivial_app.py"

# Installed before any page script: the first Enter keydown or mousedown after __benchT0 is reset
# to null stamps it with performance.now(); predicates below return the elapsed milliseconds.
TIMING_INIT_SCRIPT = """
window.__benchT0 = undefined;
const stamp = (e) => {
  if (window.__benchT0 !== null) return;
  if (e.type === 'mousedown' || e.key === 'Enter') window.__benchT0 = performance.now();
};
window.addEventListener('keydown', stamp, true);
window.addEventListener('mousedown', stamp, true);
"""

RESET_T0 = "() => { window.__benchT0 = null; }"


def timed_page(browser: Browser, url: str, *scripts: str) -> Page:
    """A fresh page at `url` with the timing script (and `scripts`, e.g. harness/settle.py's observer)
    installed before any page script, once the app has run its script."""
    context = browser.new_context(viewport={"width": 1400, "height": 1400})
    for script in (TIMING_INIT_SCRIPT, *scripts):
        context.add_init_script(script)
    page = context.new_page()
    page.goto(url)
    wait_idle(page)
    return page


APP_ERROR = "APP_ERROR"  # what the predicates return when the page shows an error box instead


class AppErrorOnPage(RuntimeError):
    """The app showed an exception box (details are in the server's output, not in the browser)."""


def elapsed_ms(value) -> float:
    """A predicate's result: the elapsed milliseconds, or AppErrorOnPage if the app showed an error."""
    if value == APP_ERROR:
        raise AppErrorOnPage("the app showed an error box instead of the result")
    return float(value)


# The head view (attention/headview) lives in a component's shadow root: find its host and the view on it.
FIND_VIEW = """
const findView = () => {
  const walk = (root) => {
    for (const host of root.querySelectorAll('.hv-host')) { const v = host.hvState && host.hvState.view; if (v) return v; }
    for (const el of root.querySelectorAll('*')) { if (el.shadowRoot) { const v = walk(el.shadowRoot); if (v) return v; } }
    return null;
  };
  return walk(document);
};
"""

# The head view is drawn with `marker` among its key words.
HEAD_VIEW_DRAWN = """
(marker) => {
  if (typeof window.__benchT0 !== 'number') return false;
  if (document.querySelector('[data-testid="stException"]')) return 'APP_ERROR';
""" + FIND_VIEW + """
  const v = findView();
  if (!v || !v.p.key_tokens.includes(marker)) return false;
  return performance.now() - window.__benchT0;
}
"""

# Some markdown block names `needle` (e.g. the detail panel's "Query word: cat (position 3)"): Streamlit's, or
# one of the detail panel's blocks the browser lays out in the head view's shadow root (assets/panel.js, pn-*).
TEXT_SHOWN = """
(needle) => {
  if (typeof window.__benchT0 !== 'number') return false;
  if (document.querySelector('[data-testid="stException"]')) return 'APP_ERROR';
  const blocks = '[data-testid="stMarkdownContainer"], [class^="pn-"]';
  const walk = (root) => {
    for (const el of root.querySelectorAll(blocks)) if (el.textContent.includes(needle)) return true;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot && walk(el.shadowRoot)) return true;
    return false;
  };
  return walk(document) ? performance.now() - window.__benchT0 : false;
}
"""

# The key words the head view shows (None before it is drawn).
HEAD_VIEW_TOKENS = "() => {" + FIND_VIEW + "const v = findView(); return v ? Array.from(v.p.key_tokens) : null; }"


def detail_needle(tokens: list[str], row: int) -> str:
    """What the detail panel says once the word beside `row` is the query word."""
    return f"Query word: {tokens[row]} (position {row})"
