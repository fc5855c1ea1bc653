"""A real Chromium on the Find-the-needle page: a link names a short needle run; the answer and the score
chart are drawn, the sidebar lists the page beside Forget, the forgetting comparison's button fills its table,
and the link carries the settings (greedy: the same answer again in a fresh page, in Chinese)."""

import pytest
from playwright.sync_api import expect

from attention import i18n
from harness.app_server import wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.model]


def test_a_link_finds_the_needle_and_the_caches_are_compared(page, app_url):
    page.goto(f"{app_url}/find_needle?length=160&depth=0.5&budget=24&go=1")
    wait_idle(page, timeout_ms=300_000)  # the first visit may expand and load the model
    expect(page.get_by_role("heading", name=i18n.t("nd.title", "en"))).to_be_visible()
    nav = page.locator('[data-testid="stSidebarNav"]')
    expect(nav.get_by_text(i18n.t("page.find_needle", "en"))).to_be_visible()
    answer = page.locator('[data-testid="stCode"]').first.inner_text()
    assert answer.strip()
    expect(page.locator('[data-testid="stPlotlyChart"]').first).to_be_visible()
    assert "length=160" in page.url and "budget=24" in page.url
    tables = page.locator('[data-testid="stDataFrame"]')
    before = tables.count()  # the long head view's table of the followed head's largest weights
    page.get_by_role("button", name=i18n.t("nd.forget_run", "en")).click()
    wait_idle(page, timeout_ms=300_000)
    expect(tables).to_have_count(before + 1, timeout=30_000)
    fresh = page.context.new_page()
    fresh.goto(page.url + "&lang=zh" if "lang=" not in page.url else page.url.replace("lang=en", "lang=zh"))
    wait_idle(fresh, timeout_ms=300_000)
    expect(fresh.get_by_role("heading", name=i18n.t("nd.title", "zh"))).to_be_visible()
    assert fresh.locator('[data-testid="stCode"]').first.inner_text() == answer
