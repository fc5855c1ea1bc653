"""Chart text in real Chromium: the measure itself (a clipped and an overlapping text are seen); at 390 px,
in both languages, no chart text is clipped or overlapped on Change one word, where a title spans the width;
at 1280 px the detail panel's numbers are whole. (Every page's charts at 1280 px: test_page_tour_browser.py.)"""

import pytest

from harness.app_server import wait_idle
from harness.text_boxes import COLLECT, problems


def _page_at(browser, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})
    yield context.new_page()
    context.close()


@pytest.fixture
def wide_page(browser):
    yield from _page_at(browser, 1280, 1000)


def test_the_measure_sees_a_clipped_and_an_overlapping_text():
    box = {"x0": 0, "y0": 0, "x1": 100, "y1": 100}
    chart = {"chart": 0, "box": box, "texts": [
        {"kind": "title", "text": "cut", "x0": 10, "y0": -8, "x1": 60, "y1": 6},
        {"kind": "annotation", "text": "a", "x0": 10, "y0": 50, "x1": 60, "y1": 62},
        {"kind": "axis", "text": "b", "x0": 40, "y0": 55, "x1": 90, "y1": 67},
        {"kind": "xtick", "text": "t1", "x0": 0, "y0": 90, "x1": 20, "y1": 99},
        {"kind": "xtick", "text": "t2", "x0": 10, "y0": 90, "x1": 30, "y1": 99},  # ticks: plotly's own business
        {"kind": "toolbar", "text": "toolbar", "x0": 50, "y0": 0, "x1": 98, "y1": 9},  # on the clipped title
    ]}
    assert problems([chart]) == ["chart 0: title 'cut' is clipped", "chart 0: title 'cut' overlaps toolbar 'toolbar'",
                                 "chart 0: annotation 'a' overlaps axis 'b'"]


@pytest.fixture
def narrow_page(browser):
    yield from _page_at(browser, 390, 900)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_toolbar_covers_no_title_at_390_px(narrow_page, app_url, lang):
    """A phone's width: a chart title spans the figure and plotly's toolbar (top right, on hover) lay on
    it until every figure kept a band for it (attention/ui/charts.py)."""
    narrow_page.goto(f"{app_url}/compare?lang={lang}")  # the default pair on MiniLM: the grid and A_B − A_A shown
    wait_idle(narrow_page, timeout_ms=300_000)
    narrow_page.wait_for_function(  # the grid and A_B − A_A drawn (a loaded machine may lag the script's end)
        """() => document.querySelectorAll('[data-testid="stPlotlyChart"] .gtitle').length >= 2""", timeout=300_000)
    narrow_page.wait_for_timeout(500)
    measured = narrow_page.evaluate(COLLECT)
    assert sum(any(t["kind"] == "toolbar" for t in c["texts"]) for c in measured) >= 2, measured  # grid, A_B − A_A
    assert not problems(measured), "\n".join(problems(measured))


CUT = """(els) => els.map(el => ({text: el.innerText, cut: el.scrollWidth > el.clientWidth + 1}))"""


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_detail_panels_numbers_are_whole_at_1280_px(wide_page, app_url, lang):
    """The detail panel beside the head view showed "21.… 3.7… 0.3…" at 1280 px."""
    from playwright.sync_api import expect

    wide_page.goto(f"{app_url}/?q=6&k=4&lang={lang}")
    wait_idle(wide_page, timeout_ms=300_000)
    values = wide_page.locator(".pn-metric-value")  # the detail panel's metrics (ui/head_view/panel_view.py)
    expect(values).to_have_count(4, timeout=120_000)
    metrics = values.evaluate_all(CUT)
    assert len(metrics) == 4, metrics
    assert not [m for m in metrics if m["cut"]], metrics

