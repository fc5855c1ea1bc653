"""A real Chromium on the Overview page: click a thumbnail to open that head in Explore; click a rollout word
to outline its row in every thumbnail."""

from playwright.sync_api import expect

from harness.app_server import wait_idle
from harness.head_geometry import wait_ready
from harness.plot_geometry import chart_point

GRID, ROLLOUT = 0, 1  # charts in page order


SENTENCE = "the cat saw the dog"


def open_overview(page, app_url) -> None:
    """Through the navigation, as a person would (a deep link is only honoured once the router has run)."""
    page.goto(app_url)
    wait_idle(page)
    page.get_by_role("link", name="Overview").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(2, timeout=60_000)
    page.locator('[data-testid="stPlotlyChart"] .nsewdrag').first.wait_for(timeout=60_000)


def thumbnail_centre(page, layer: int, head: int) -> tuple[float, float]:
    """Data coordinates of the click target of one thumbnail, read from the drawn figure."""
    page.wait_for_function(  # the grid drawn with its click targets (a busy machine drew the page's charts late)
        """(n) => { const el = document.querySelectorAll('[data-testid="stPlotlyChart"]')[n];
            const gd = el && el.querySelector('.js-plotly-plot');
            return !!(gd && gd._fullData && gd._fullData.some(d => d.name === 'heads' && d.customdata)); }""",
        arg=GRID, timeout=60_000)
    chart = page.locator('[data-testid="stPlotlyChart"]').nth(GRID).element_handle()
    return tuple(page.evaluate(
        """([el, layer, head]) => { const gd = el.querySelector('.js-plotly-plot');
            const t = gd._fullData.find(d => d.name === 'heads');
            const i = t.customdata.findIndex(c => c[0] === layer && c[1] === head);
            return [t.x[i], t.y[i]]; }""", [chart, layer, head]))


def test_clicking_a_thumbnail_opens_that_head_in_explore(page, app_url):
    open_overview(page, app_url)
    page.mouse.click(*chart_point(page, GRID, *thumbnail_centre(page, layer=3, head=7)))
    wait_idle(page)
    expect(page.get_by_role("heading", name="Explore attention")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("combobox", name="Layer")).to_have_value("3")
    expect(page.get_by_role("combobox", name="Head")).to_have_value("7")
    wait_ready(page)  # the head view of that head is drawn
    assert "layer=3" in page.url and "head=7" in page.url


def test_clicking_a_rollout_word_outlines_its_row_in_the_grid(page, app_url):
    open_overview(page, app_url)
    page.locator('[data-testid="stPlotlyChart"]').nth(ROLLOUT).scroll_into_view_if_needed()  # below the fold
    page.mouse.click(*chart_point(page, ROLLOUT, -1, 6))  # the word beside row 6 of the rollout: "milk"
    wait_idle(page)
    expect(page.get_by_role("combobox", name="Outline a query word's row")).to_have_value("milk (6)", timeout=30_000)
    names = page.evaluate("""(el) => el.querySelector('.js-plotly-plot')._fullData.map(d => d.name)""",
                          page.locator('[data-testid="stPlotlyChart"]').nth(GRID).element_handle())
    assert "highlight" in names


def test_a_sentence_typed_in_explore_comes_to_the_overview_and_back(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    box = page.get_by_label("Sentence")
    box.fill(SENTENCE)
    box.press("Control+Enter")
    wait_idle(page)
    page.get_by_role("link", name="Overview").click()
    wait_idle(page)
    expect(page.get_by_label("Sentence")).to_have_value(SENTENCE, timeout=10_000)
    page.locator('[data-testid="stPlotlyChart"] .nsewdrag').first.wait_for(timeout=60_000)
    page.mouse.click(*chart_point(page, GRID, *thumbnail_centre(page, layer=1, head=2)))
    wait_idle(page)
    expect(page.get_by_role("heading", name="Explore attention")).to_be_visible(timeout=60_000)
    expect(page.get_by_label("Sentence")).to_have_value(SENTENCE)


def test_the_translators_cross_attention_head_opens_on_the_translate_page(page, app_url):
    open_overview(page, app_url)
    page.get_by_text("the built-in English→Spanish translator").click()
    wait_idle(page)
    expect(page.get_by_text("leche").first).to_be_visible(timeout=60_000)  # the translation, above the grid
    page.get_by_role("combobox", name="Attention").click()
    page.get_by_role("option", name="encoder–decoder cross-attention").click()
    wait_idle(page)
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(1, timeout=60_000)  # no rollout for cross
    page.locator('[data-testid="stPlotlyChart"] .nsewdrag').first.wait_for(timeout=60_000)
    page.mouse.click(*chart_point(page, GRID, *thumbnail_centre(page, layer=1, head=2)))
    wait_idle(page)
    expect(page.get_by_role("heading", name="Attention in a translator")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("radio", name="encoder–decoder cross-attention")).to_be_checked(timeout=30_000)
    expect(page.get_by_role("combobox", name="Layer")).to_have_value("1", timeout=30_000)
    expect(page.get_by_role("combobox", name="Head")).to_have_value("2")


def test_every_head_at_once_from_translate_opens_the_translators_overview(page, app_url):
    page.goto(app_url)
    wait_idle(page)
    page.get_by_role("link", name="Translate").click()
    wait_idle(page)
    page.get_by_text("encoder–decoder cross-attention").click()
    wait_idle(page)
    page.get_by_role("button", name="Every head at once").click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="Overview: the whole model at once")).to_be_visible(timeout=60_000)
    expect(page.get_by_role("radio", name="the built-in English→Spanish translator")).to_be_checked()
    expect(page.get_by_role("combobox", name="Attention")).to_have_value("encoder–decoder cross-attention")
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(1, timeout=60_000)
