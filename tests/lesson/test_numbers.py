"""What the lesson reads from a trace, on the real MiniLM and the real translator, checked against
torch's own softmax and the model's own weights."""

import numpy as np
import pytest
import torch

import attention
from attention.lesson import numbers as lesson
from tests.lanes import loads_model

TEXT = "The black cat drank the milk"
MILK, DRANK, BLACK, CAT = 6, 4, 2, 3


@pytest.fixture(scope="module")
@loads_model
def tr():
    return attention.trace(TEXT)


@pytest.fixture(scope="module")
@loads_model
def out():
    return attention.translate("The ball is blue.")


def test_the_focus_is_milk_drank_black():
    tokens = ("[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]")
    assert lesson.focus(tokens, {"drank"}) == lesson.Focus(MILK, DRANK, BLACK)
    assert lesson.focus(("[CLS]", "hello", "[SEP]")).query == 1  # one word: still three positions in range
    assert lesson.content_positions(("[CLS]", "milk", ".", "[SEP]")) == [1]


def test_top_word_leaves_markers_out_and_is_the_row_maximum_among_words(tr):
    for site in tr.sites:
        for head in range(site.n_heads):
            top = lesson.top_word(site, head, MILK)
            words = lesson.content_positions(site.key_tokens)
            assert top in words and site.weights[head, MILK, top] == max(site.weights[head, MILK, j] for j in words)
            share = lesson.markers_share(site, head, MILK)
            assert share == pytest.approx(float(site.weights[head, MILK, [0, 7]].sum()), abs=1e-6)


def test_the_hand_picked_head_where_milk_does_not_prefer_drank(tr):
    """Layer 0, head 0: milk gives cat more than drank, so the claim fails there; the finder's head
    is one where it gives drank the most weight of any head."""
    site = tr.site(0, "encoder")
    f = lesson.Focus(MILK, DRANK, BLACK)
    assert site.weights[0, MILK, CAT] > site.weights[0, MILK, DRANK] and not lesson.holds(site, 0, f)
    best = lesson.best_head(tr, "encoder", MILK, DRANK)
    every = [s.weights[h, MILK, DRANK] for s in tr.sites for h in range(s.n_heads)]
    assert best.weight == pytest.approx(float(max(every)))
    assert lesson.holds(tr.site(best.layer, "encoder"), best.head, f)


def test_temperature_change_matches_torch_softmax(tr):
    site = tr.site(2, "encoder")
    for head in (0, 5):
        change = lesson.temperature_change(site, head, MILK, DRANK, 0.5)
        logits = torch.from_numpy(site.scores[head, MILK].astype(np.float64)) * site.scale
        assert change.before == pytest.approx(float(torch.softmax(logits, -1)[DRANK]), abs=1e-5)
        assert change.before == pytest.approx(float(site.weights[head, MILK, DRANK]), abs=1e-5)
        assert change.after == pytest.approx(float(torch.softmax(logits / 0.5, -1)[DRANK]), abs=1e-5)
        assert change.direction == ("up" if change.after > change.before else "down")


def test_larger_dot_and_sum_shares(tr):
    site = tr.site(1, "encoder")
    winner = lesson.larger_dot(site, 3, MILK, DRANK, BLACK)
    assert site.scores[3, MILK, winner] == max(site.scores[3, MILK, DRANK], site.scores[3, MILK, BLACK])
    shares = lesson.sum_shares(site, 3, MILK, n=8)
    assert sum(shares.shares) == pytest.approx(1.0) and list(shares.shares) == sorted(shares.shares, reverse=True)
    w, v = site.weights[3, MILK].astype(float), site.v[3].astype(float)  # w_j·‖v_j‖ over their sum, by hand
    size = w * np.sqrt((v**2).sum(axis=1))
    assert shares.shares == pytest.approx(tuple(size[list(shares.keys)] / size.sum()), rel=1e-6)


def test_the_decoder_cannot_see_a_word_not_yet_written(out):
    site = out.trace.site(0, "decoder")
    pair = lesson.mask_pair(site)
    assert site.query_tokens[pair.query] == "la" and site.key_tokens[pair.key] == "azul"
    assert pair.hidden and site.weights[:, pair.query, pair.key].max() == 0.0


def test_azul_reads_blue(out):
    site = out.trace.site(1, "cross")
    target = lesson.last_content(site.query_tokens)
    source, row = lesson.cross_reads(site, target)
    assert site.query_tokens[target] == "azul" and site.key_tokens[source] == "blue"
    assert row.sum() == pytest.approx(1.0, abs=1e-5)


def test_score_counts_right_and_answered():
    assert lesson.score({}) == (0, 0)
    assert lesson.score({"top|a": ("4", True), "dot|a": ("2", False), "cross|b": ("3", True)}) == (2, 3)


def test_the_lesson_follows_the_encoder_else_the_decoder_and_knows_a_weights_only_site(tr, out):
    from dataclasses import replace

    both = out.trace
    assert lesson.lesson_kind(tr) == "encoder" and lesson.lesson_kind(both) == "encoder"
    decoder_only = replace(both, sites=tuple(s for s in both.sites if s.kind == "decoder"))
    assert lesson.lesson_kind(decoder_only) == "decoder"
    assert lesson.lesson_kind(replace(both, sites=tuple(s for s in both.sites if s.kind == "cross"))) is None
    assert lesson.missing_qkv(tr, "encoder") == ""
    weights_only = replace(tr, sites=(tr.sites[0], replace(tr.sites[1], missing_qkv="disentangled")))
    assert lesson.missing_qkv(weights_only, "encoder") == "disentangled"
    assert lesson.missing_qkv(weights_only, "decoder") == ""
