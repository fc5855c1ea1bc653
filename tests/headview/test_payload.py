"""The head view's payload: every number it prints equals the trace's at the printed precision, masked
cells are flagged (never 0), tokens stay themselves, and the sizes stay within budget."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np
import pytest

import attention
from attention.headview import page
from attention.headview.payload import (
    MASKED_CODE,
    SINGLE_HEAD,
    WHOLE_TRACE,
    Decimals,
    decode_ints,
    decoded,
    PLAIN_BYTES,
    encode_ints,
    head_payload,
    round_to,
    site_header,
)
from harness.random_sites import random_site, random_trace
from tests.lanes import loads_model

SITES = {
    "encoder 12": lambda: random_site(12, kind="encoder"),
    "decoder 40 (masked)": lambda: random_site(40, kind="decoder", seed=1),
    "cross 9x14": lambda: random_site(9, 14, kind="cross", seed=2),
    "decoder with bias and softcap": lambda: random_site(20, kind="decoder", seed=3, bias=True, softcap=5.0),
    "decoder 300 (16-bit q, k)": lambda: random_site(300, kind="decoder", heads=1, d_head=64, seed=4),
}


def printed(x: np.ndarray, decimals: int) -> np.ndarray:
    """What Python prints for each value at `decimals`, read back as a number (-0.0 == 0.0)."""
    return np.vectorize(lambda v: float(f"{v:.{decimals}f}"))(np.asarray(x, dtype=np.float64))


@pytest.mark.parametrize("name", SITES)
@pytest.mark.parametrize("decimals", [SINGLE_HEAD, WHOLE_TRACE], ids=["single head", "whole trace"])
def test_every_printed_number_equals_the_trace(name: str, decimals: Decimals):
    site = SITES[name]()
    for head in range(site.n_heads):
        got = decoded(head_payload(site, head, decimals=decimals))
        open_ = ~site.masked
        assert np.array_equal(got["S"], printed(site.scores[head], decimals.score))
        assert np.array_equal(got["scaled"][open_], printed(site.scaled(head)[open_], decimals.scaled))
        assert np.array_equal(got["A"][open_], printed(site.weights[head][open_], decimals.weight))
        assert np.array_equal(got["Z"], printed(site.z[head], decimals.z))


def test_masked_cells_are_flagged_not_zero():
    site = random_site(16, kind="decoder")
    p = head_payload(site, 0)
    a = decode_ints(p["A"])
    assert site.masked.any()
    assert np.array_equal(a == MASKED_CODE, site.masked)
    got = decoded(p)
    assert np.isnan(got["A"][site.masked]).all() and np.isnan(got["scaled"][site.masked]).all()
    assert np.array_equal(got["masked"], site.masked)


def test_cross_attention_keeps_both_sides():
    site = random_site(6, 11, kind="cross")
    p = head_payload(site, 1)
    assert (len(p["query_tokens"]), len(p["key_tokens"])) == (6, 11)
    assert p["key_tokens"][0].startswith("k:") and not decoded(p)["masked"].any()
    assert decoded(p)["Z"].shape == (6, site.d_head)


def test_repeated_and_markup_tokens_stay_themselves():
    site = random_site(10, kind="encoder")
    p = head_payload(site, 0)
    assert p["query_tokens"] == list(site.query_tokens)
    assert p["query_tokens"].count("the") == 3 and "<b>x</b>" in p["query_tokens"] and "&amp;" in p["key_tokens"]
    # inside the HTML the JSON holds no "<": no token can close the script; parsing gives them back
    fragment = page.render_html(p)
    data = fragment.split('class="hv-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data and ">" not in data and "&" not in data
    assert json.loads(data)["query_tokens"] == list(site.query_tokens)


@pytest.mark.parametrize("value", [0.03125, -0.03125, 0.09375, 2.5e-5, -7.5e-5, 1.00005, 123.45675, 1e-12])
@pytest.mark.parametrize("decimals", [0, 1, 2, 4])
def test_round_to_rounds_as_python_prints(value: float, decimals: int):
    for x in (np.array([value], np.float64), np.array([value], np.float32)):
        exact = Decimal(float(x[0])).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_EVEN)
        assert round_to(x, decimals)[0] == int(exact.scaleb(decimals))


def test_round_to_on_many_float64_values():
    x = np.random.default_rng(0).normal(size=20_000) * 10
    assert np.array_equal(round_to(x, 4) / 1e4, printed(x, 4))


def test_encode_ints_picks_the_smallest_type_and_round_trips():
    for values, dtype in [([0, 200], "uint8"), ([-1, 10_000], "int16"), ([-5, 5], "int8"), ([0, 70_000], "int32")]:
        a = np.array([values, values[::-1]], np.int64)
        enc = encode_ints(a)
        assert enc["dtype"] == dtype
        assert np.array_equal(decode_ints(enc), a)
    with pytest.raises(ValueError):
        encode_ints(np.array([0, 2**40]))


def _first_draw_bytes(n: int) -> int:
    """What the browser receives to draw one head of n tokens: the payload and the front end."""
    site = random_site(n, kind="encoder", heads=1, d_head=64, spread=1.0)
    text = json.dumps(head_payload(site, 0), separators=(",", ":"))
    return len(text) + len(page.core_js()) + len(page.asset("headview.css"))


def test_first_draw_at_512_tokens_is_under_2_mb():
    assert _first_draw_bytes(512) <= 2_000_000
    assert _first_draw_bytes(128) <= 200_000


def test_saved_whole_trace_at_128_tokens_is_under_2_65_mb():
    # random q, k, v compress worse than a real model's: the real MiniLM is checked below
    assert len(page.document_bytes(random_trace(128))) <= 2_650_000


@pytest.fixture(scope="module")
@loads_model
def minilm_128():
    from harness.texts import text_of_tokens

    return attention.trace(text_of_tokens(128))


def test_saved_minilm_trace_at_128_tokens_is_under_2_65_mb(minilm_128):
    assert [(s.kind, s.n_heads, len(s.query_tokens)) for s in minilm_128.sites] == [("encoder", 12, 128)] * 6
    assert len(page.document_bytes(minilm_128)) <= 2_650_000  # bertviz: 53 MB


def test_minilm_numbers_equal_the_trace(minilm_128):
    site = minilm_128.sites[3]
    got = decoded(head_payload(site, 7))
    assert np.array_equal(got["S"], printed(site.scores[7], 4))
    assert np.array_equal(got["A"], printed(site.weights[7], 4))


def test_front_end_is_ascii_so_the_saved_file_can_be_windows_1252():
    # outside the byte store the saved page must mean the same in any charset; inside a <script>
    # a character reference is not decoded, so a non-ASCII character there would break the code
    for path in page.ASSETS.iterdir():
        path.read_text(encoding="utf-8").encode("ascii")
    assert page.standalone_js().isascii()


def test_a_weights_only_site_is_refused_not_drawn_from_a_guess():
    import dataclasses

    from attention.headview.payload import trace_payload

    full = random_site(6, kind="encoder")
    weights = full.model_weights
    only = dataclasses.replace(full, q=full.q[..., :0], k=full.k[..., :0], v=full.v[..., :0],
                               model_z=full.model_z[..., :0], missing_qkv="disentangled")
    with pytest.raises(ValueError, match="disentangled"):
        head_payload(only, 0)
    tr = attention.Trace("t", "m", full.query_tokens, (full, only))
    doc = trace_payload(tr)
    assert len(doc["sites"]) == 1 and doc["omitted"] == [{"kind": "encoder", "layer": only.layer,
                                                          "reason": "disentangled"}]
    with pytest.raises(ValueError):
        trace_payload(attention.Trace("t", "m", full.query_tokens, (only,)))
    assert np.array_equal(only.weights, weights)


def test_byte_level_tokens_travel_as_text_beside_the_raw_tokens():
    import numpy as np

    from attention.trace import make_site

    q = np.ones((1, 3, 2), np.float32)
    tokens = ("The", "Ġcat", "Ċ")
    site = make_site(layer=0, kind="decoder", query_tokens=tokens, key_tokens=tokens, q=q, k=q, v=q, scale=1.0,
                     model_weights=np.full((1, 3, 3), 1 / 3, np.float32), model_z=q)
    header = site_header(site)
    assert header["query_tokens"] == list(tokens)  # raw, for the hover
    assert header["key_labels"] == ["The", "·cat", "⏎"]
    plain = make_site(layer=0, kind="encoder", query_tokens=("[CLS]", "cat"), key_tokens=("[CLS]", "cat"),
                      q=q[:, :2], k=q[:, :2], v=q[:, :2], scale=1.0, model_weights=np.full((1, 2, 2), 0.5, np.float32),
                      model_z=q[:, :2])
    assert "key_labels" not in site_header(plain)  # nothing to add: no bytes sent


def test_small_arrays_go_plain_and_larger_ones_through_zlib_and_both_come_back_exactly():
    rng = np.random.default_rng(3)
    small = rng.integers(-30_000, 30_000, (3, 64))  # int16: 384 bytes, a written word's own row
    large = rng.integers(-30_000, 30_000, (40, 64))  # 5,120 bytes
    assert small.size * 2 <= PLAIN_BYTES < large.size * 2
    enc_small, enc_large = encode_ints(small), encode_ints(large)
    assert enc_small.get("plain") == 1 and "plain" not in enc_large
    assert len(enc_small["data"]) == 4 * -(-small.size * 2 // 3)  # base64 of the byte planes, nothing more
    for a, enc in ((small, enc_small), (large, enc_large)):
        assert np.array_equal(decode_ints(enc), a)
