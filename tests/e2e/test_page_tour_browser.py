"""One tour of every page at 1280 px in each language, in real Chromium, seen by two tests: an axe-core
audit (WCAG 2.0–2.2, A and AA) of every page finds no serious or critical violation, and no chart title,
axis title, annotation, legend entry or word beside a point is clipped by its chart or lies on another
text, nor under plotly's toolbar (boxes measured in the DOM, not pixels).

Each page view costs Chromium and the app server seconds of CPU, so the two tests share one visit per
view and language (a module fixture: pytest-xdist deals whole files to its workers, so a fixture shared
across files would be computed twice). The pages the chart test measures are opened by their link with its
parameters, the others from the sidebar; each page is audited as first drawn, before any tab is clicked."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from attention import i18n
from attention.ui.state import PAGES
from harness.app_server import wait_idle
from harness.axe import audit, navigate_drawn, open_drawn, serious
from harness.text_boxes import COLLECT, problems

TABS = ("dot", "sum", "steps", "space", "origin")
# The views whose charts are measured, each opened by its link: its explanation tabs are then clicked in
# turn (a tab is a rerun, not a new page). The overview is measured twice, the second view not audited.
VIEWS = {"explore": ("explore?q=6&k=4", TABS), "translate": ("translate?q=5&k=5&kind=cross", ("sum", "space")),
         "learning": ("learning", (None,)), "overview": ("overview", (None,)),
         "overview:translator": ("overview?source=translator&kind=encoder", (None,)),
         "find_heads": ("find_heads", (None,))}


@dataclass
class Audited:
    """One page of PAGES as first drawn: what the sidebar and the address say, and axe's serious lines."""
    name: str
    url: str
    apps: int  # how many app containers the page holds (1)
    shown: str  # the sidebar's marked page, its text after the icon
    serious: list[str]


@dataclass
class Tour:
    audited: list[Audited] = field(default_factory=list)
    charts: int = 0  # charts measured, over every view and tab
    found: list[str] = field(default_factory=list)  # clipped or overlapping texts, "<path> <tab>: <problem>"


def _audit(page, name: str) -> Audited:
    shown = page.locator('[data-testid="stSidebarNav"] a[aria-current="page"]')
    return Audited(name, page.url, page.locator('[data-testid="stAppViewContainer"]').count(),
                   shown.inner_text().splitlines()[-1].strip(), serious(audit(page)))


def _measure(page, tour: Tour, path: str, tabs: tuple, lang: str) -> None:
    for tab in tabs:
        if tab not in (None, "dot"):  # "dot" is open first
            page.get_by_text(i18n.t(f"tab.{tab}", lang), exact=True).first.click()
            wait_idle(page, timeout_ms=300_000)
            page.wait_for_timeout(500)  # plotly lays text out after the chart is attached (drawn pages waited)
        measured = page.evaluate(COLLECT)
        tour.charts += len(measured)
        tour.found += [f"{path} {tab or ''}: {p}" for p in problems(measured)]


def take_tour(page, app_url: str, lang: str) -> Tour:
    """Every page of PAGES audited once (a measured view by its link, the others from the sidebar after
    it), and every view of VIEWS measured in each of its tabs after its audit."""
    tour = Tour()
    for name in [*PAGES, *(v for v in VIEWS if v not in PAGES)]:
        if name in VIEWS:
            open_drawn(page, app_url, VIEWS[name][0], lang)
        else:
            navigate_drawn(page, name)
        if name in PAGES:
            tour.audited.append(_audit(page, name))
        if name in VIEWS:
            _measure(page, tour, *VIEWS[name], lang)
    return tour


@pytest.fixture(scope="module", params=["en", "zh"])
def tour(request, browser, app_url) -> tuple[str, Tour]:
    lang = request.param
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    try:
        yield lang, take_tour(context.new_page(), app_url, lang)
    finally:
        context.close()


@pytest.mark.browser
def test_axe_finds_no_serious_violation_on_any_page(tour):
    lang, seen = tour
    found = []
    for a in seen.audited:  # this page, drawn in this language (the sidebar marks the page shown)
        assert a.apps == 1, a.name
        assert f"lang={lang}" in a.url and a.shown == i18n.t(PAGES[a.name].title_key, lang), a.name
        found += [f"{a.name}: {line}" for line in a.serious]
    audited = len(seen.audited)
    assert audited == len(PAGES) >= 7
    assert not found, "\n".join(found)


def test_no_chart_text_is_clipped_or_overlapped_at_1280_px(tour):
    _, seen = tour
    charts, found = seen.charts, seen.found
    assert charts >= 15  # the charts were there to be measured
    assert not found, "\n".join(found)
