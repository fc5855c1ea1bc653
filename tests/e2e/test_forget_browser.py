"""A real Chromium at a phone's width on the Forget page: a link names the prompt, policy and budget; "Next
word" writes with the evicted cache, the link then carries the words, the charts are drawn, the page is no
wider than the screen, and the same link in a fresh browser rewrites the same words in Chinese."""

import pytest
from playwright.sync_api import expect

from attention import i18n
from harness.app_server import wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.model]
PROMPT = "Once upon a time a small cat lived in a big old house by the sea with two dogs and a bird"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    yield context
    context.close()


def written(page) -> str:
    return page.locator('[data-testid="stCode"]').first.inner_text()


def test_next_word_on_a_phone_writes_with_the_evicted_cache_and_the_link_rewrites_it(phone, app_url):
    page = phone.new_page()
    page.goto(f"{app_url}/forget?prompt={PROMPT.replace(' ', '+')}&policy=streaming&budget=8&sinks=2&words=1")
    wait_idle(page, timeout_ms=300_000)  # the first visit may expand and load the model
    page.get_by_role("button", name=i18n.t("fg.next", "en")).click()
    wait_idle(page, timeout_ms=120_000)
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(3, timeout=30_000)  # KL, heads, newest row
    assert "words=2" in page.url and "budget=8" in page.url and "policy=streaming" in page.url
    expect(page.locator('[data-testid="stMetricValue"]')).to_have_count(3)  # both policies' KL and the top word
    words = written(page)
    assert words.strip()
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= PHONE["width"] + 1, f"the page is {wide} px wide on a {PHONE['width']} px screen"
    fresh = phone.new_page()
    fresh.goto(page.url.replace("lang=en", "lang=zh") if "lang=" in page.url else page.url + "&lang=zh")
    wait_idle(fresh, timeout_ms=120_000)
    expect(fresh.get_by_role("heading", name=i18n.t("fg.title", "zh"))).to_be_visible()
    assert written(fresh) == words  # greedy: the link rewrites the same words


def test_on_a_phone_in_chinese_the_policy_is_not_clipped_and_budget_sits_level_with_sinks(phone, app_url):
    """Issue 52: at 390 px the policy's box showed "streaming (sinks + re"; the Chinese budget label pushed its
    box below the others."""
    page = phone.new_page()
    page.goto(f"{app_url}/forget?lang=zh&prompt=A+cat&words=0")
    wait_idle(page, timeout_ms=300_000)
    policy = page.get_by_role("combobox", name=i18n.t("fg.policy", "zh"))  # the box's text is its input's value
    assert policy.input_value() == i18n.t("fg.policy_streaming", "zh")
    assert policy.evaluate("el => el.scrollWidth <= el.clientWidth + 1"), "the policy's name is cut in its box"
    budget = page.get_by_role("spinbutton", name=i18n.t("fg.budget", "zh")).bounding_box()
    sinks = page.get_by_role("spinbutton", name=i18n.t("fg.sinks", "zh")).bounding_box()
    assert abs(budget["y"] - sinks["y"]) <= 2, (budget, sinks)
