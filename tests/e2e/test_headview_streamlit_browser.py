"""The head view as a Streamlit element in real Chromium (tests/e2e/apps/headview_app.py): a click
reaches Python at once, a selection set in Python reaches the view, and at 512 tokens the matrices come
once while a click sends back only the selection."""

from __future__ import annotations

from playwright.sync_api import expect

from harness.frames import FrameCounter
from harness.app_server import ROOT, streamlit_process, wait_idle
from harness.head_geometry import cell_point

APP = ROOT / "tests" / "e2e" / "apps" / "headview_app.py"


def test_streamlit_click_reaches_python_and_python_selection_reaches_the_view(browser):
    with streamlit_process(app=APP) as server:
        context = browser.new_context(viewport={"width": 1400, "height": 1400})
        pg = context.new_page()
        counter = FrameCounter()
        pg.on("websocket", counter.attach)
        pg.goto(f"{server.url}/?n=8&kind=decoder")
        wait_idle(pg)
        pg.wait_for_selector(".hv[data-ready='1']", timeout=60_000)
        pg.mouse.click(*cell_point(pg, "A", 5, 3))
        assert pg.locator('[data-matrix="S"]').get_attribute("data-selected") == "5,3"  # at once
        pg.wait_for_selector("text=selected=5,3 clicks=1", timeout=30_000)
        pg.mouse.click(*cell_point(pg, "A", 4, -1))
        pg.wait_for_selector("text=selected=4,-1 clicks=2", timeout=30_000)
        wait_idle(pg)
        pg.get_by_role("button", name="Select 1,2").click()
        pg.wait_for_selector("text=selected=1,2 clicks=2", timeout=30_000)
        expect(pg.locator('[data-matrix="A"]')).to_have_attribute("data-selected", "1,2")  # inside a shadow root

        # 512 tokens: the matrices come once; a click sends back only the selection
        pg.goto(f"{server.url}/?n=512&kind=encoder")
        wait_idle(pg)
        pg.wait_for_selector(".hv[data-ready='1']", timeout=60_000)
        wait_idle(pg)
        load = counter.take()
        pg.mouse.click(*cell_point(pg, "A", 100, 200))
        pg.wait_for_selector("text=selected=100,200", timeout=30_000)
        wait_idle(pg)
        click = counter.take()
        context.close()
    assert load > 300_000, load  # the matrices did come
    assert click <= 50_000, f"a click sent {click} bytes"
