"""A real Chromium on the Learning page: moving the training-step slider changes the heatmap."""

from playwright.sync_api import expect

from harness.app_server import wait_idle

READ_A = "(el) => JSON.stringify(el.querySelector('.js-plotly-plot').data[0].z)"


def test_moving_the_step_slider_redraws_the_weights(page, app_url):
    page.goto(f"{app_url}/learning")
    wait_idle(page, timeout_ms=180_000)
    charts = page.locator('[data-testid="stPlotlyChart"]')
    expect(charts.nth(1)).to_be_visible(timeout=120_000)
    before = page.evaluate(READ_A, charts.nth(1).element_handle())
    slider = page.get_by_role("slider", name="Training step")
    slider.focus()
    slider.press("Home")  # back to step 0
    wait_idle(page, timeout_ms=180_000)
    expect(page.get_by_text("step 0").first).to_be_visible(timeout=60_000)
    after = page.evaluate(READ_A, page.locator('[data-testid="stPlotlyChart"]').nth(1).element_handle())
    assert before != after


STATE = """() => {
  const slider = document.querySelector('[data-testid="stSlider"] [aria-valuetext]');
  const charts = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')];
  return {
    slider: slider ? slider.getAttribute('aria-valuetext') : null,
    titles: charts.slice(0, 2).map(c => ((c.layout.title && c.layout.title.text) || '').replace(/<[^>]*>/g, '')),
    markers: charts.slice(2).map(c => ((c.layout.shapes || [])[0] || {}).x0),
    // greyed out: the page's title and the head pickers, which sit outside the playing fragment
    stale: [...document.querySelectorAll('h1, [data-testid="stRadio"]')]
      .filter(e => e.closest('[data-stale="true"]')).length,
  };
}"""


SLIDER = """document.querySelector('[data-testid="stSlider"] [aria-valuetext]')?.getAttribute('aria-valuetext')"""
STEPS = (0, 20)
# A click while Play redraws the charts every tick: on a loaded machine (a full suite on 2 cores) the browser
# can take longer than Playwright's 30 s default to act on it (a CI run timed out right after scrolling to ⏸)
CLICK_WHILE_PLAYING_MS = 120_000  # the first two snapshot steps of the shipped weights
WATCH_STALE = """() => {
  window.__stale = 0;
  const outside = () => [...document.querySelectorAll('h1, [data-testid="stRadio"]')]
    .some(e => e.closest('[data-stale="true"]'));
  new MutationObserver(() => { if (outside()) window.__stale++; })
    .observe(document.body, {attributes: true, subtree: true, attributeFilter: ['data-stale']});
}"""


def _same_step(state: dict) -> int:
    """The step the slider shows; the heatmap titles and every curve's marker must show it too."""
    step = int(str(state["slider"]).replace(",", ""))
    assert all(title.endswith(f"step {step}") for title in state["titles"]), (step, state["titles"])  # <br> gone
    assert state["markers"] and all(x == max(step, 1) for x in state["markers"]), (step, state["markers"])
    return step


def test_play_keeps_slider_heatmaps_and_markers_on_the_same_step(page, app_url):
    page.goto(f"{app_url}/learning")
    wait_idle(page, timeout_ms=180_000)
    expect(page.locator('[data-testid="stPlotlyChart"]').nth(6)).to_be_visible(timeout=120_000)
    assert _same_step(page.evaluate(STATE)) == 4000
    page.get_by_role("button", name="▶ Play").click()
    pause = page.get_by_role("button", name="⏸ Pause")
    expect(pause).to_be_visible(timeout=30_000)
    # while it plays, the page stays usable: the title and the pickers outside the playing fragment are
    # never greyed out (watched by a MutationObserver from the first step on), the pickers enabled
    # Play from the last step starts again at 0; a busy machine may draw the next tick before 0 was ever shown
    page.wait_for_function(f"() => ({SLIDER}) !== '4000'", timeout=120_000)
    page.evaluate(WATCH_STALE)
    page.wait_for_function(f"() => !['0', '4000'].includes({SLIDER}) && ({SLIDER}) !== '{STEPS[1]}'",
                           timeout=300_000)  # two ticks on (a busy machine ticks slower than 0.8 s)
    expect(page.get_by_role("radio", name="encoder self-attention")).to_be_enabled()
    assert page.evaluate("() => window.__stale") == 0
    pause.click(timeout=CLICK_WHILE_PLAYING_MS)
    expect(page.get_by_role("button", name="▶ Play")).to_be_visible(timeout=60_000)
    wait_idle(page)
    page.wait_for_timeout(2000)  # no tick after a pause
    paused = _same_step(page.evaluate(STATE))  # slider, titles and markers agree where it stopped
    assert paused > 0 and _same_step(page.evaluate(STATE)) == paused  # and it stays there
    slider = page.get_by_role("slider", name="Training step")  # one step before the last, then on to the end
    slider.focus()
    slider.press("End")
    slider.press("ArrowLeft")
    wait_idle(page)
    assert 0 < _same_step(page.evaluate(STATE)) < 4000
    page.get_by_role("button", name="▶ Play").click()
    expect(page.get_by_role("button", name="⏸ Pause")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("button", name="▶ Play")).to_be_visible(timeout=240_000)
    wait_idle(page)
    page.wait_for_timeout(2000)
    assert _same_step(page.evaluate(STATE)) == 4000
    # ▶ from the last step starts again at 0 and goes on past it (the slider drawn before the restart
    # once sent its old value as a move, which ended Play after one tick with the slider left on 0)
    page.get_by_role("button", name="▶ Play").click()
    page.wait_for_function(f"() => !['0', '4000'].includes({SLIDER})", timeout=300_000)
    page.get_by_role("button", name="⏸ Pause").click(timeout=CLICK_WHILE_PLAYING_MS)
    expect(page.get_by_role("button", name="▶ Play")).to_be_visible(timeout=60_000)
    wait_idle(page)
    assert 0 < _same_step(page.evaluate(STATE)) < 4000
