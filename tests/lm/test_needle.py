"""The needle (attention/lm/needle.py) on a tiny random Llama with SmolLM2's tokenizer: every head's top key
equals transformers' own eager attention weights' argmax for the same query; the copy condition read from those
weights gives the same retrieval scores; the key rule (eviction by hiding) equals the eviction lab's run with the
same policy; the DuoAttention split with every group kept equals the full run. One real SmolLM2 needle."""

import numpy as np
import pytest

from attention.analysis import retrieval
from attention.ids import HeadId
from attention.lm import evict_policies as pol
from attention.lm import needle, needle_proof
from attention.lm.needle_prompt import NEEDLES, build
from tests.lm.needle_cases import _eager_rows, _prompt

pytestmark = [pytest.mark.model, pytest.mark.usefixtures("one_torch_thread")]


def test_top_keys_and_scores_equal_transformers_eager_weights(tiny):
    p = _prompt(tiny.tokenizer)
    r = needle.run(tiny, p, NEEDLES[0].needle, NEEDLES[0].question, NEEDLES[0].answer, steps=6)
    assert len(r.steps) >= 2
    text = list(p.ids) + r.written[:-1]  # the last written token was predicted, never read
    eager = _eager_rows(tiny, text, len(p.ids) - 1)  # (steps, layers, heads, n): the queries that chose each token
    assert eager.shape[0] == len(r.steps)
    for t, step in enumerate(r.steps):
        rows = eager[t][..., : step.position + 1]
        assert step.position == len(p.ids) - 1 + t
        assert np.array_equal(step.top_key, rows.argmax(axis=-1)), t
        assert np.abs(step.needle_weight - rows[..., p.span[0]: p.span[1]].sum(-1)).max() < 1e-4
        assert np.abs(step.sink_weight - rows[..., 0]).max() < 1e-4
    theirs = retrieval.scores(eager[..., :].argmax(axis=-1), r.written, p.ids, p.span)
    assert np.array_equal(r.retrieval_scores, theirs)


def test_the_copy_condition_on_a_tiny_model(tiny):
    """On the run's real top keys, a step counts for a head exactly when its top key is inside the needle and
    holds the written token (a plain loop over every head as the reference)."""
    p = _prompt(tiny.tokenizer, 160, 0.9)
    r = needle.run(tiny, p, NEEDLES[0].needle, NEEDLES[0].question, NEEDLES[0].answer, steps=4)
    counts = np.zeros(r.steps[0].top_key.shape, int)
    for s in r.steps:
        for (layer, head), key in np.ndenumerate(s.top_key):
            counts[layer, head] += int(p.span[0] <= key < p.span[1] and p.ids[key] == s.token_id)
    assert np.array_equal(counts, r.copy_counts)
    assert np.array_equal(r.retrieval_scores, counts / (p.span[1] - p.span[0]))


@pytest.mark.parametrize("budget", [12, 40])
def test_the_streaming_rule_equals_the_eviction_lab(tiny, budget):
    """needle.run with the streaming key rule (hiding keys per query) and the eviction lab's own streaming run
    write the same tokens and put every head's top key at the same place."""
    p = _prompt(tiny.tokenizer)
    nd = NEEDLES[0]
    kv = tiny.model.config.num_key_value_heads

    def rule(layer, position, kv_heads):
        return np.broadcast_to(pol.streaming(position, budget, pol.SINKS), (kv_heads, position + 1)).copy()

    mine = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=5, rule=rule)
    lab = needle_proof.policy_run(tiny, p, nd, "streaming", budget, steps=5)
    assert mine.written == lab.written
    for a, b in zip(mine.steps, lab.steps, strict=True):
        assert np.array_equal(a.top_key, b.top_key)
        assert np.abs(a.needle_weight - b.needle_weight).max() < 1e-5
    assert mine.kv_bytes_kept == lab.kv_bytes_kept < mine.kv_bytes_full
    assert kv == 2


def test_duo_with_every_group_kept_is_the_full_run_and_with_none_is_streaming(tiny):
    p = _prompt(tiny.tokenizer)
    nd = NEEDLES[0]
    cfg = tiny.model.config
    every = [HeadId("decoder", L, h) for L in range(cfg.num_hidden_layers) for h in range(cfg.num_attention_heads)]
    full = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=4)
    duo = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=4,
                     rule=needle_proof.duo_rule(every, cfg.num_attention_heads, cfg.num_key_value_heads, 16))
    assert duo.written == full.written
    assert all(np.array_equal(a.top_key, b.top_key) for a, b in zip(duo.steps, full.steps))
    assert duo.kv_bytes_kept == full.kv_bytes_full
    none = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=4,
                      rule=needle_proof.duo_rule([], cfg.num_attention_heads, cfg.num_key_value_heads, 16))
    lab = needle_proof.policy_run(tiny, p, nd, "streaming", 16, steps=4)
    assert none.written == lab.written and none.kv_bytes_kept == lab.kv_bytes_kept


def test_same_layer_draws_keep_the_layers_and_avoid_the_top_heads():
    top = (HeadId("decoder", 3, 1), HeadId("decoder", 3, 2), HeadId("decoder", 7, 0))
    rng = np.random.default_rng(0)
    for _ in range(20):
        d = needle_proof.same_layer_draw(top, 9, {(h.layer, h.head) for h in top}, rng)
        assert [h.layer for h in d] == [3, 3, 7]
        assert not {(h.layer, h.head) for h in d} & {(h.layer, h.head) for h in top}
        assert len(set(d)) == 3


def test_smollm2_finds_a_needle_at_512_tokens_and_some_head_copies_it(smollm2):
    nd = NEEDLES[0]
    p = build(smollm2.tokenizer, nd.needle, nd.question, None, 512, 0.5)
    r = needle.run(smollm2, p, nd.needle, nd.question, nd.answer, steps=16)
    assert r.found, r.answer
    assert r.retrieval_scores.shape == (30, 9)
    assert r.retrieval_scores.max() > retrieval.THRESHOLD
    assert all(s.top_key.dtype.kind == "i" for s in r.steps)


@pytest.mark.parametrize("length,depth", [(128, 0.0), (600, 0.5), (600, 1.0), (2000, 0.3)])
def test_the_prompt_holds_the_needle_at_a_sentence_boundary_within_the_length(smollm2, length, depth):
    nd = NEEDLES[1]
    p = build(smollm2.tokenizer, nd.needle, nd.question, None, length, depth)
    assert len(p.ids) <= length and len(p.ids) > length - 40
    assert smollm2.tokenizer.decode(p.ids[p.span[0]: p.span[1]]).strip() == nd.needle
    assert abs(p.depth - depth) < 0.1
    before = p.text[: p.text.index(nd.needle)]
    assert before.endswith("\n") or before.rstrip().endswith((".", "!", "?"))  # the message's start, or a sentence's end


def test_bad_settings_are_refused_in_words(smollm2):
    tok = smollm2.tokenizer
    for args in [("", "q?"), ("A fact.", " ")]:
        with pytest.raises(ValueError, match="needle"):
            build(tok, *args)
    with pytest.raises(ValueError, match="at least"):
        build(tok, "A fact.", "What?", None, 10)
    with pytest.raises(ValueError, match="depth"):
        build(tok, "A fact.", "What?", None, 200, 1.5)
    p = build(tok, "A fact.", "What?", "My own text. It has two sentences.", 200, 0.5)
    assert not p.builtin and "My own text." in p.text


def test_the_grid_counts_right_runs_only_and_is_read_back_from_disk(tiny, tmp_path):
    from attention.lm import needle_grid

    calls = []
    g = needle_grid.measure(tiny, (100, 140), (0.5,), NEEDLES[:2], steps=3, progress=lambda d, n: calls.append((d, n)),
                            cache_dir=str(tmp_path))
    assert calls[-1] == (4, 4) and g.found.shape == (2, 1, 2) and g.scores.shape[-2:] == (3, 4)
    assert g.right_runs == int(g.found.sum())
    expected = g.scores[g.found].mean(axis=0) if g.found.any() else np.zeros((3, 4))
    assert np.array_equal(g.mean_scores, expected)
    again = needle_grid.measure(tiny, (100, 140), (0.5,), NEEDLES[:2], steps=3, cache_dir=str(tmp_path))
    assert np.array_equal(again.scores, g.scores) and np.array_equal(again.answers, g.answers)
    assert len(list(tmp_path.iterdir())) == 1
    forced = needle_grid.RetrievalGrid("m", (1,), (0.5,), NEEDLES[:2], 3, np.array([[[True, False]]]),
                                       np.stack([np.ones((3, 4)), 5 * np.ones((3, 4))])[None, None],
                                       np.array([[[12, 4]]]), np.array([[["a", "b"]]]), np.array([[[1, 1]]]))
    assert np.array_equal(forced.mean_scores, np.ones((3, 4)))  # the wrong run's 5s are left out
    assert forced.copied_tokens == 12 and forced.retrieval_heads()[0].score == 1.0


def test_the_proof_curve_switches_off_the_ranked_heads_k_at_a_time(tiny, monkeypatch):
    """needle_curve.curve on the tiny model: each k's top run equals needle.run with ranking[:k] off, the draws keep
    each top head's layer (or the nearest with a head left) and never a top head, and the rates count only prompts
    right with every head on; a k past half the heads is left out."""
    from attention.lm import needle_curve

    p, nd = _prompt(tiny.tokenizer, 160, 0.5), NEEDLES[0]
    base = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=3).answer
    # the random model's answer is never the needle: "right" here is writing what every head on writes (a base to break)
    monkeypatch.setattr(retrieval, "is_right", lambda answer, needle, expected=None: answer == base)
    r = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=3)
    assert r.found
    ranked = needle_curve.ranking(r)
    assert len(ranked) == 3 * 4 and len(set(ranked)) == 12
    scores = r.retrieval_scores
    assert [scores[h.layer, h.head] for h in ranked] == sorted(scores.reshape(-1), reverse=True)
    c = needle_curve.curve(tiny, [(p, nd)], ranked, ks=(1, 2, 4, 8), draws=2, steps=3)
    assert c.ks == (1, 2, 4) and c.top_right.shape == (3, 1) and c.random_right.shape == (3, 2, 1)  # 8 of 12: no
    for a, k in enumerate(c.ks):
        off = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=3, off=ranked[:k])
        assert bool(c.top_right[a, 0]) == off.found
        for drawn in c.random[a]:
            assert len(drawn) == k and not set(drawn) & set(ranked[:k])
    assert [h.layer for h in c.random[0][0]] == [ranked[0].layer]
    assert c.base_right[0] and c.counted == 1
    assert np.array_equal(c.top_rate, c.top_right[:, 0].astype(float))


def test_draws_move_to_the_nearest_layer_when_the_top_heads_fill_one():
    top = tuple(HeadId("decoder", 2, h) for h in range(3))  # every head of layer 2 (3 heads a layer)
    d = needle_proof.same_layer_draw(top, 3, {(h.layer, h.head) for h in top}, np.random.default_rng(0), layers=5)
    assert {h.layer for h in d} <= {1, 3} and len(set(d)) == 3
