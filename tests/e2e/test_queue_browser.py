"""Admission in the real app: with ATTENTION_MAX_TRACES=1 and the first trace held (harness/slow_trace.py),
the second visitor's page says "1 person ahead of you", a third (in Chinese) "前面还有 2 人", and each
then gets its own result, in order. Deterministic: the test holds the trace and lets it go."""

from __future__ import annotations

import pytest

from harness.page_timing import HEAD_VIEW_TOKENS
from harness.sentences import tokens_of
from harness.app_server import streamlit_process, wait_idle
from harness.head_geometry import wait_ready

SHOWS = "(m) => { const t = (" + HEAD_VIEW_TOKENS + ")(); return !!t && t.includes(m); }"
TIMEOUT_MS = 180_000


@pytest.fixture
def held_app(tmp_path):
    hold = tmp_path / "hold"
    env = {"ATTENTION_MAX_TRACES": "1", "ATTENTION_TEST_HOLD": str(hold)}
    with streamlit_process(extra_env=env, preimport=("harness.slow_trace",),
                           log_path=str(tmp_path / "server.log")) as server:
        yield server.url, hold


def opened(browser, url: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1400})
    page = context.new_page()
    page.goto(url)
    wait_ready(page, TIMEOUT_MS)
    wait_idle(page)
    return page


def submit(page, label: str, text: str) -> None:
    box = page.get_by_label(label)
    box.fill(text)
    box.press("Control+Enter")


def test_past_the_limit_a_visitor_waits_in_a_visible_queue_then_gets_its_result(browser, held_app):
    url, hold = held_app
    first, second = opened(browser, url), opened(browser, url)
    third = opened(browser, url + "/?lang=zh")
    hold.touch()  # from now on traces wait until the test lets them go
    try:
        submit(first, "Sentence", "the quiet tiger watched the river")
        for _ in range(1_800):  # until the server holds the first trace (a bound, not a measurement)
            if hold.with_suffix(".held").exists():
                break
            first.wait_for_timeout(100)
        assert hold.with_suffix(".held").exists(), "the first trace never started"

        submit(second, "Sentence", "the old piano followed the bright rocket")
        second.get_by_text("1 person ahead of you").wait_for(timeout=TIMEOUT_MS)
        submit(third, "句子", "my clever violin found the lantern")
        third.get_by_text("前面还有 2 人").wait_for(timeout=TIMEOUT_MS)
        assert second.get_by_text("1 person ahead of you").is_visible()  # still waiting, not slowed
    finally:
        hold.unlink(missing_ok=True)

    for page, text, marker in ((first, "the quiet tiger watched the river", "tiger"),
                               (second, "the old piano followed the bright rocket", "piano"),
                               (third, "my clever violin found the lantern", "violin")):
        page.wait_for_function(SHOWS, arg=marker, polling=200, timeout=TIMEOUT_MS)
        wait_idle(page)
        assert page.evaluate(HEAD_VIEW_TOKENS) == tokens_of(text)
        assert page.get_by_text("ahead of you").count() == 0 and page.get_by_text("前面还有").count() == 0
