"""A real Chromium: select a pair, see the dot-product anatomy; switch to Chinese and keep it."""

import re

import pytest
from playwright.sync_api import expect

from attention import i18n

from harness.app_server import wait_idle
from harness.head_geometry import cell_point, wait_ready


def test_selecting_a_pair_shows_the_anatomy_chart(page, app_url):
    page.goto(f"{app_url}/?text=The+black+cat+drank+the+milk")
    wait_idle(page)
    wait_ready(page)
    page.mouse.click(*cell_point(page, "A", 6, 4))  # milk (row 6) → drank (column 4)
    wait_idle(page)
    expect(page.get_by_text("(query 6, key 4)")).to_be_visible(timeout=30_000)
    expect(page.get_by_text("The score of milk → drank is the dot product")).to_be_visible()
    anatomy = page.locator(".dot-svg")
    expect(anatomy).to_have_count(1)
    expect(anatomy.locator("text").filter(has_text="q_d·k_d per dimension (sum = the cell of S)")).to_have_count(1)
    expect(anatomy).to_have_attribute("aria-label", re.compile(r"^Σ q_d·k_d = −?\d+\.\d{4} = S\[6, 4\]$"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_new_pair_moves_the_same_bars_without_building_the_chart_again(page, app_url, lang):
    """#45.3: the q·k chart is kept (the same SVG node) and updated in place when another cell is
    clicked; its sum is the new cell's score, the one the detail panel prints."""
    page.goto(f"{app_url}/?text=The+black+cat+drank+the+milk&q=6&k=4&lang={lang}")
    wait_idle(page)
    wait_ready(page)
    chart = page.locator(".dot-svg")
    expect(chart).to_have_attribute("aria-label", re.compile(r"= S\[6, 4\]$"), timeout=30_000)
    expect(chart.locator("text").filter(has_text=i18n.t("dot.vectors", lang))).to_have_count(1)
    heights = chart.evaluate("(svg) => { svg.__kept = true; return [...svg.querySelectorAll('rect')].map((r) => r.getAttribute('height')); }")
    page.mouse.click(*cell_point(page, "A", 6, 2))  # milk → black
    wait_idle(page)
    expect(chart).to_have_attribute("aria-label", re.compile(r"= S\[6, 2\]$"), timeout=30_000)
    assert chart.evaluate("(svg) => svg.__kept === true"), "the chart was built again, not updated"
    moved = chart.evaluate("(svg) => [...svg.querySelectorAll('rect')].map((r) => r.getAttribute('height'))")
    assert len(moved) == len(heights) and moved != heights  # the same bars, moved to k of "black"
    score = re.search(r"= (−?\d+\.\d{4}) =", chart.get_attribute("aria-label")).group(1).replace("−", "-")
    dot = page.locator(".pn-metric-value").first  # the detail panel's q·k
    expect(dot).to_contain_text(score)


def test_chinese_stays_chosen_across_reruns_and_pages(page, app_url):
    page.goto(f"{app_url}/?text=The+black+cat+drank+the+milk")
    wait_idle(page)
    page.locator('[data-testid="stSidebar"]').get_by_text("中文").click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="探索注意力")).to_be_visible()
    assert "lang=zh" in page.url
    page.get_by_role("combobox", name="注意力头").click()
    page.get_by_role("option", name="3", exact=True).click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="探索注意力")).to_be_visible()
    page.locator('[data-testid="stSidebarNav"]').get_by_text("查找注意力头").click()
    wait_idle(page)
    expect(page.get_by_role("heading", name="哪些注意力头连接这两个词？")).to_be_visible()


def test_a_chinese_link_names_every_page_in_chinese_on_the_first_visit(page, app_url):
    page.goto(f"{app_url}/translate?lang=zh")
    wait_idle(page)
    nav = page.locator('[data-testid="stSidebarNav"]')
    for name in ("探索", "课程", "翻译", "学习过程", "查找注意力头", "总览"):
        expect(nav.get_by_text(name, exact=True)).to_be_visible()
    expect(nav.get_by_text("Explore", exact=True)).to_have_count(0)
