"""A class pressing "Next word" at once on one hosted replica (issue #55): one Chromium, a context per pupil,
one model read at a time (ATTENTION_MAX_TRACES=1) and room for about one Writing (ATTENTION_SESSIONS_MB=8, so
the others are emptied and read again from their links). While the test holds the model's reads
(harness/slow_write.py), no press can be answered with its word, so every pupil but the one whose turn is held
must be TOLD, in words, that it waits, and the one whose turn is held that its word is being written (said
before any wait, issue #55's 2 s bound). Then the test lets go: every press ends in its word, transformers' own
greedy continuation, and a pupil who pressed twice while waiting gets one or two words, never more (two clicks
that reach the server before its run starts are one rerun to Streamlit). Deterministic: the
test holds the turn and lets it go; the bounds are bounds, not measurements."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlencode, urlparse

import pytest

from harness.greedy import greedy_ids
from harness.app_server import streamlit_process, wait_idle

pytestmark = [pytest.mark.browser, pytest.mark.model]
PROMPTS = ("The quiet tiger watched the river and", "My clever violin found the lantern near", 
           "The old piano followed the bright rocket to")
BOUND_MS = 180_000
WAITING = re.compile("waiting its turn|waiting their turn|ahead of you")
TOLD = re.compile(f"{WAITING.pattern}|being written")  # waits, or its turn came and the word is on its way


@pytest.fixture
def class_app(tmp_path):
    hold = tmp_path / "hold"
    env = {"ATTENTION_HOSTED": "1", "ATTENTION_MAX_TRACES": "1", "ATTENTION_SESSIONS_MB": "8",
           "ATTENTION_WRITE_AHEAD": "0", "ATTENTION_TEST_HOLD": str(hold)}
    with streamlit_process(extra_env=env, preimport=("harness.slow_write",),
                           log_path=str(tmp_path / "server.log")) as server:
        yield server.url, hold


def ids_of(page) -> list[int]:
    return [int(i) for i in parse_qs(urlparse(page.url).query).get("ids", [""])[0].split(",") if i]


def test_every_press_of_a_class_ends_in_its_word_or_says_it_waits(browser, class_app):
    url, hold = class_app
    pupils = []
    for prompt in PROMPTS:  # a class arriving, one after another; each read empties the one before (8 MB)
        page = browser.new_context(viewport={"width": 1400, "height": 1400}).new_page()
        page.goto(f"{url}/write?{urlencode({'prompt': prompt})}")
        wait_idle(page, timeout_ms=BOUND_MS)
        page.get_by_role("button", name="Next word").wait_for(timeout=BOUND_MS)
        pupils.append(page)
    hold.touch()  # from now on the model's reads wait until the test lets them go
    try:
        for page in pupils:
            page.get_by_role("button", name="Next word").click()
        pupils[-1].get_by_role("button", name="Next word").click()  # pressed twice while waiting
        for _ in range(1_800):  # until one pupil's read holds the one turn (a bound, not a measurement)
            if hold.with_suffix(".held").exists():
                break
            pupils[0].wait_for_timeout(100)
        assert hold.with_suffix(".held").exists(), "no press reached the model"
        told = []
        for i, page in enumerate(pupils):
            try:  # the held pupil too: told its word is being written, the others that they wait
                page.get_by_text(TOLD).first.wait_for(timeout=30_000)
                told.append(i)
            except Exception:  # noqa: BLE001 - counted below
                pass
        assert told == list(range(len(pupils))), f"pupils told they wait or are being written: {told}"
        assert sum(page.get_by_text(WAITING).count() > 0 for page in pupils) >= len(pupils) - 1  # behind the held
        assert all(ids_of(page) == [] for page in pupils)  # nothing written while held
    finally:
        hold.unlink(missing_ok=True)
    for i, (page, prompt, pressed) in enumerate(zip(pupils, PROMPTS, (1, 1, 2), strict=True)):
        try:
            page.wait_for_function("() => (new URLSearchParams(location.search).get('ids') || '').split(',')"
                                   ".filter(Boolean).length >= 1", polling=200, timeout=BOUND_MS)
        except Exception as exc:  # noqa: BLE001 - said with what the page shows
            alerts = page.locator('[data-testid="stAlert"]').all_inner_texts()
            raise AssertionError(f"pupil {i}: no word; ids {ids_of(page)}; the page says {alerts}") from exc
        wait_idle(page, timeout_ms=BOUND_MS)
        assert page.get_by_text(TOLD).count() == 0, "still says it waits or is being written after its word came"
        assert not page.locator('[data-testid="stException"]').count()
        written = ids_of(page)
        assert 1 <= len(written) <= pressed, f"pupil {i} pressed {pressed} times and got {len(written)} words"
        assert written == greedy_ids(prompt, len(written)), f"{prompt!r}: not the greedy continuation"
    for page in pupils:
        page.context.close()
