"""A long-context model in the real app: a tiny random BERT whose positions allow 2,048 tokens, opened
from its local folder through a link, traced at its full length and drawn in the head view. Every cell
stays reachable (zoom, hover naming both words, click reaching the detail panel)."""

from __future__ import annotations

import urllib.parse

import pytest
import torch
import transformers as tf
from playwright.sync_api import expect

from attention.capture import hf_model
from bench.texts import text_of_tokens
from harness.app_server import wait_idle
from harness.head_geometry import cell_point

N = 2_048


@pytest.fixture(scope="module")
def long_model(tmp_path_factory):
    """Two layers of two heads, 2,048 positions, the default model's tokenizer told it may read 2,048."""
    folder = tmp_path_factory.mktemp("long_bert")
    torch.manual_seed(0)
    config = tf.BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, max_position_embeddings=N)
    tf.BertModel(config).save_pretrained(folder)
    tokenizer = tf.AutoTokenizer.from_pretrained(hf_model.default_model_path(), model_max_length=N)
    tokenizer.save_pretrained(folder)
    return str(folder)


def hover_tip(page, q: int, k: int) -> dict[str, str]:
    page.mouse.move(*cell_point(page, "A", q, k))
    rows = page.locator(".hv-tip .hv-tip-row")
    return {r.locator(".hv-tip-label").inner_text(): r.locator(".hv-tip-value").inner_text() for r in rows.all()}


def test_a_2048_token_head_draws_and_every_cell_is_reachable(page, app_url, long_model):
    text = text_of_tokens(N)
    tokens = hf_model.load(long_model).tokenizer.convert_ids_to_tokens(
        hf_model.load(long_model).tokenizer(text)["input_ids"])
    assert len(tokens) == N
    query = urllib.parse.urlencode({"text": text, "model": long_model, "layer": 1, "head": 1})
    page.goto(f"{app_url}/?{query}")  # Explore is the landing page
    wait_idle(page, timeout_ms=300_000)
    a = page.locator('[data-matrix="A"][data-view]').first
    a.wait_for(timeout=300_000)
    assert a.get_attribute("data-view") == f"0,0,{N},{N}"  # the whole matrix at first, nothing dropped
    expect(page.get_by_text("were dropped")).to_have_count(0)
    a.scroll_into_view_if_needed()

    t = hover_tip(page, N - 1, 5)  # the last query at full view: even 0.2 px cells can be hovered
    assert a.get_attribute("data-hover") == f"{N - 1},5"
    assert t["query"] == f"{tokens[N - 1]}  #{N - 1}" and t["key"] == f"{tokens[5]}  #5"

    q, k = 1_500, 700
    page.mouse.move(*cell_point(page, "A", q, k))
    for _ in range(9):  # zoom in around the pointer until single cells are several pixels wide
        page.mouse.wheel(0, -300)
    page.wait_for_function("""() => { const walk = (r) => r.querySelector('[data-matrix="A"]') ||
        [...r.querySelectorAll('*')].map(e => e.shadowRoot && walk(e.shadowRoot)).find(Boolean);
        const v = walk(document).dataset.view.split(',').map(Number); return v[2] - v[0] < 40; }""")
    page.wait_for_timeout(300)  # the last wheel events
    x0, y0, x1, y1 = (float(v) for v in a.get_attribute("data-view").split(","))
    per_px = N / float(a.get_attribute("data-plot").split(",")[2])  # cells under one screen pixel at full view
    assert x0 - per_px <= k < x1 + per_px and y0 - per_px <= q < y1 + per_px  # zoomed around the pointer
    q, k = int(y0) + 3, int(x0) + 2
    t = hover_tip(page, q, k)
    assert a.get_attribute("data-hover") == f"{q},{k}"
    assert t["query"] == f"{tokens[q]}  #{q}" and t["key"] == f"{tokens[k]}  #{k}"
    page.mouse.click(*cell_point(page, "A", q, k))
    assert a.get_attribute("data-selected") == f"{q},{k}"
    wait_idle(page, timeout_ms=300_000)
    expect(page.get_by_text(f"Query word: {tokens[q]} (position {q})").first).to_be_visible(timeout=120_000)
    assert "head=1" in page.url
