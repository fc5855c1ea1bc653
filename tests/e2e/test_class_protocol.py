"""The class bench's protocol client (bench/class_protocol.py, harness/st_protocol.py) against the real app (the
lane's shared server; the bench starts a hosted one): two sessions speaking Streamlit's own protocol press "Next
word" together twice; every press must end in its word, and each session's words must be transformers' own greedy
continuation of its prompt. No browser: the app server is what this needs of the e2e lane."""

from __future__ import annotations

import pytest

from bench.class_protocol import run_class
from harness.app_server import run_in_own_loop
from harness.greedy import greedy_ids

pytestmark = [pytest.mark.browser, pytest.mark.model]
SESSIONS, WORDS = 2, 2
WAVE_S = 90.0  # a bound on a wave, not a measurement


def test_every_press_on_the_protocol_ends_in_its_greedy_word(app_url):
    res = run_in_own_loop(run_class(app_url, None, SESSIONS, WORDS, prompt_tokens=0, wave_s=WAVE_S))
    assert res["sockets_failed"] == [] and res["cache_misses"] == 0
    assert [w["answered"] for w in res["waves"]] == [SESSIONS] * WORDS, res["waves"]
    for p in res["pupils"]:
        assert [pr.outcome for pr in p.presses] == ["answered"] * WORDS
        assert all(pr.word > pr.t0 for pr in p.presses)  # the word came after its own press
        assert p.ids == greedy_ids(p.prompt, WORDS), f"{p.prompt!r}: not the greedy continuation"
