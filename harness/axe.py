"""An axe-core audit of a page in real Chromium. axe-core comes inside a Python package
(axe-playwright-python ships axe.min.js), so it runs offline and .ci/run installs it with the rest."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

# WCAG 2.0, 2.1 and 2.2 at levels A and AA: the rules the audit ran
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
SERIOUS = ("serious", "critical")


@cache
def axe_source() -> str:
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("axe-core is missing: pip install -r requirements-dev.txt (axe-playwright-python)")
    return (Path(spec.submodule_search_locations[0]) / "axe.min.js").read_text(encoding="utf-8")


def audit(page, tags: tuple[str, ...] = WCAG_TAGS) -> list[dict]:
    """axe's violations on the page as it is now: [{id, impact, help, nodes: [{target, summary}]}]."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(content=axe_source())
    return page.evaluate(
        """async (tags) => {
          const r = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => ({ target: n.target.flat().join(" "), impact: n.impact,
                                         summary: n.failureSummary || "", html: n.html.slice(0, 160) })) }));
        }""",
        list(tags),
    )


def serious(violations: list[dict]) -> list[str]:
    """One line per node of a serious or critical violation."""
    return [f"{v['id']} ({n['impact'] or v['impact']}): {n['target']} :: {n['html']} :: "
            f"{n['summary'].splitlines()[-1] if n['summary'] else ''}"
            for v in violations for n in v["nodes"] if (n["impact"] or v["impact"]) in SERIOUS]


def open_drawn(page, url: str, path: str, lang: str, timeout_ms: int = 300_000) -> None:
    """Open one page of the app in `lang` and wait until it has drawn (the script idle, any head view
    ready, plotly's text laid out)."""
    if path.split("?")[0] == "explore":  # the home page's link is "/" ("/explore" is "page not found")
        path = path[len("explore"):]
    page.goto(f"{url}/{path}{'&' if '?' in path else '?'}lang={lang}")
    _drawn(page, timeout_ms)


def navigate_drawn(page, name: str, timeout_ms: int = 300_000) -> None:
    """Go to another page of the app by its link in the sidebar (the same session, its language kept, no
    new load of the app's scripts) and wait until it has drawn, as open_drawn does."""
    page.locator(f'[data-testid="stSidebarNav"] a[href$="/{name}"]').first.click()
    page.wait_for_url(f"**/{name}?*", timeout=timeout_ms)
    _drawn(page, timeout_ms)


def _drawn(page, timeout_ms: int) -> None:
    from harness.app_server import wait_idle

    wait_idle(page, timeout_ms=timeout_ms)
    if page.locator(".hv-host, .hv").count():
        page.locator(".hv[data-ready='1']").first.wait_for(timeout=timeout_ms)
    page.wait_for_timeout(500)


def sideways_overflow(page) -> int:
    """How many CSS pixels the page is wider than the window (0: it never scrolls sideways). Streamlit
    scrolls its main area itself, so that box counts too (shadow roots' content widens it as well)."""
    return page.evaluate("""() => {
      const doc = document.documentElement, main = document.querySelector('[data-testid="stMain"]');
      return Math.max(doc.scrollWidth - doc.clientWidth, main ? main.scrollWidth - main.clientWidth : 0);
    }""")
