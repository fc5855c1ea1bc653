"""A real Chromium on the Lesson: three steps by clicks, a prediction answered, and a step's link opening
Explore on the same sentence, head and pair."""

import re

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.head_geometry import selected, wait_ready

TIMEOUT = 180_000


def _next(page) -> None:
    page.get_by_role("button", name="Next").first.click()
    wait_idle(page, timeout_ms=TIMEOUT)


def test_three_steps_a_prediction_and_the_link_to_the_full_page(page, app_url):
    page.goto(f"{app_url}/lesson")
    wait_idle(page, timeout_ms=TIMEOUT)
    expect(page.get_by_role("heading", name="1. Words become vectors")).to_be_visible(timeout=TIMEOUT)
    for title in ("2. Three linear layers", "3. The factor matrix", "4. A dot product is large"):
        _next(page)
        expect(page.get_by_role("heading", name=re.compile(re.escape(title)))).to_be_visible(timeout=TIMEOUT)
    assert "step=3" in page.url
    expect(page.get_by_text("Step 4 of 11").first).to_be_visible()  # eleven steps, then the summary

    # predict: which is larger, milk·drank or milk·black? then reveal
    expect(page.get_by_text("Which will be larger").first).to_be_visible()
    page.get_by_role("radiogroup").get_by_role("radio", name="drank", exact=True).check(force=True)
    wait_idle(page, timeout_ms=TIMEOUT)
    page.get_by_role("button", name="Reveal the model's answer").click()
    wait_idle(page, timeout_ms=TIMEOUT)
    expect(page.get_by_text(re.compile(r"Right: the model agrees|Not this time")).first).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text(re.compile(r"Predictions: [01] right of 1")).first).to_be_visible()
    expect(page.get_by_text(re.compile(r"agree in sign in \d+ of 32 dimensions")).first).to_be_visible()
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(1)  # the chart, after the reveal

    # the full page on the same view: Explore, the lesson's sentence, layer 2, head 0, milk → drank
    page.get_by_role("button", name="Open this view on its full page").click()
    page.wait_for_url(lambda url: "/lesson" not in url and "q=6" in url, timeout=TIMEOUT)  # Explore is the home page
    wait_idle(page, timeout_ms=TIMEOUT)
    wait_ready(page)
    for part in ("layer=2", "head=0", "q=6", "k=4", "text=The+black+cat+drank+the+milk"):
        assert part in page.url, (part, page.url)
    assert selected(page, "A") == "6,4"
    expect(page.get_by_text("(query 6, key 4)")).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_role("combobox", name="Layer")).to_have_value("2")
    expect(page.get_by_role("combobox", name="Head")).to_have_value("0")
    # the explanation the step was about is the one open: q·k dimension by dimension
    expect(page.get_by_role("radio", name="Why this score: q·k")).to_be_checked()
    # and the way back to the step the full page was opened from
    page.get_by_role("button", name="Back to the lesson, step 4").click()
    page.wait_for_url(lambda url: "/lesson" in url, timeout=TIMEOUT)
    wait_idle(page, timeout_ms=TIMEOUT)
    expect(page.get_by_role("heading", name=re.compile(re.escape("4. A dot product is large")))).to_be_visible(
        timeout=TIMEOUT)


def test_the_downloaded_lesson_opens_offline_with_every_chart_drawn(page, app_url, tmp_path):
    """The summary page is self-contained: opened from disk, every step's chart is drawn by the
    plotly.js inlined in it, and it is in the chosen language."""
    page.goto(f"{app_url}/lesson?lang=zh&step=11")
    wait_idle(page, timeout_ms=TIMEOUT)
    with page.expect_download(timeout=TIMEOUT) as info:
        page.get_by_role("button", name="下载课程（HTML）").click()
    path = tmp_path / "lesson.html"
    info.value.save_as(path)
    assert "<script src" not in path.read_text(encoding="utf-8")  # nothing to fetch
    blocked = []
    page.route("http*://**", lambda route: (blocked.append(route.request.url), route.abort()))
    page.goto(path.as_uri())
    expect(page.locator(".js-plotly-plot .main-svg").first).to_be_visible(timeout=60_000)
    expect(page.locator("section")).to_have_count(11)
    expect(page.locator(".js-plotly-plot")).to_have_count(11)
    expect(page.locator("h2").first).to_have_text("1. 词变成向量")
    assert blocked == []


def test_step_11_predicts_on_smollm2_and_opens_the_leading_head_in_explore(page, app_url):
    """The last step in a real browser: two predictions revealed, the chart drawn after them, and the
    leading head opened in Explore on the prompt with the model that writes."""
    page.goto(f"{app_url}/lesson?step=10")
    wait_idle(page, timeout_ms=TIMEOUT)
    expect(page.get_by_role("heading", name=re.compile(r"^11\. A model that writes"))).to_be_visible(timeout=TIMEOUT)
    expect(page.get_by_text("Step 11 of 11").first).to_be_visible()
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(0)  # nothing revealed yet
    for choice in ("·black", "·black (1)"):  # the likeliest next token, then an earlier token
        page.get_by_role("radiogroup").last.get_by_role("radio", name=choice, exact=True).check(force=True)
        wait_idle(page, timeout_ms=TIMEOUT)
        page.get_by_role("button", name="Reveal the model's answer").click()
        wait_idle(page, timeout_ms=TIMEOUT)
    expect(page.get_by_text(re.compile(r"Predictions: [012] right of 2")).first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(1)
    button = page.get_by_role("button", name=re.compile(r"^Open layer \d+, head \d+ in Explore"))
    layer, head = re.search(r"layer (\d+), head (\d+)", button.inner_text()).groups()
    button.click()
    page.wait_for_url(lambda url: "/lesson" not in url and "model=smollm2" in url, timeout=TIMEOUT)
    wait_idle(page, timeout_ms=TIMEOUT)
    for part in (f"layer={layer}", f"head={head}", "kind=decoder", "q=4", "text=The+black+cat+drank+the"):
        assert part in page.url, (part, page.url)
    expect(page.get_by_role("button", name="Back to the lesson, step 11")).to_be_visible(timeout=TIMEOUT)
