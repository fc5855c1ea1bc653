"""The needle's shared starts and kept rows (attention/lm/needle_prefill.py, needle_rows.py): a grid that reads each
start before a needle once gives every run's own numbers bit for bit, and the rows kept for the long head view are
the model's own attention (transformers' eager weights), on a tiny Llama and on SmolLM2."""

import numpy as np
import pytest

from attention.lm import needle
from attention.lm.needle_prompt import NEEDLES, build
from tests.lm.needle_cases import _eager_rows, _prompt

pytestmark = [pytest.mark.model, pytest.mark.usefixtures("one_torch_thread")]


def _same_run(a, b) -> bool:
    """Two needle runs wrote the same tokens with bit-for-bit the same top keys, needle and sink weights."""
    return (a.answer == b.answer and a.written == b.written and np.array_equal(a.top_keys, b.top_keys)
            and all(np.array_equal(x.needle_weight, y.needle_weight) and np.array_equal(x.sink_weight, y.sink_weight)
                    for x, y in zip(a.steps, b.steps, strict=True)))


def test_the_shared_grid_gives_every_runs_own_numbers_on_a_tiny_model(tiny, monkeypatch, tmp_path):
    """The grid's shared starts (needle_prefill.Shelf: the filler before the needle read once, for the other needles
    and the longer haystacks) against every run reading its whole prompt itself: the same answers, top keys,
    weights and scores, exactly; and fewer tokens read."""
    from attention.lm import needle_grid, needle_prefill

    monkeypatch.setattr(needle_prefill, "PIECE", 32)  # pieces the tiny prompts outgrow several times
    shelf = needle_prefill.Shelf(tiny)
    prompts = sorted([(build(tiny.tokenizer, nd.needle, nd.question, None, n, d), nd)
                      for n in (150, 260) for d in (0.3, 0.8) for nd in NEEDLES[:2]],
                     key=lambda x: x[0].ids[: x[0].span[0]])
    before = 0
    for p, nd in prompts:
        alone = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=4)
        start = shelf.before_needle(p.ids, p.span[0], needle.room(tiny, p, 4))
        shared = needle.run(tiny, p, nd.needle, nd.question, nd.answer, steps=4, start=start)
        assert _same_run(alone, shared), (len(p.ids), p.span)
        before += p.span[0]
    assert shelf.read_tokens < before / 2  # the starts were read once, not once a needle
    kw = dict(lengths=(150, 260), depths=(0.3, 0.8), needles=NEEDLES[:2], steps=4)
    fast, plain = needle_grid.measure(tiny, **kw), needle_grid.measure(tiny, shared=False, **kw)
    assert np.array_equal(fast.scores, plain.scores) and np.array_equal(fast.answers, plain.answers)
    assert np.array_equal(fast.found, plain.found) and np.array_equal(fast.copyable, plain.copyable)


def test_the_pieces_end_at_whole_pieces_then_the_needle_then_the_prompt():
    from attention.lm import needle_prefill

    assert needle_prefill.boundaries(1500, 1100, 512) == [512, 1024, 1100, 1500]
    assert needle_prefill.boundaries(1500, 1024, 512) == [512, 1024, 1500]
    assert needle_prefill.boundaries(300, 0, 512) == [300]
    assert needle_prefill.boundaries(300, 20, 512) == [20, 300]


def test_smollm2_shared_starts_give_every_runs_own_numbers(smollm2):
    """The real model, two lengths whose needles lie past the first whole piece (the trunk shared across lengths)
    and two needles sharing each start: bit for bit the per-run numbers."""
    from attention.lm import needle_prefill

    shelf = needle_prefill.Shelf(smollm2)
    prompts = sorted([(build(smollm2.tokenizer, nd.needle, nd.question, None, n, 0.8), nd)
                      for n in (700, 1100) for nd in NEEDLES[:2]], key=lambda x: x[0].ids[: x[0].span[0]])
    assert all(p.span[0] > needle_prefill.PIECE for p, _ in prompts)
    for p, nd in prompts:
        alone = needle.run(smollm2, p, nd.needle, nd.question, nd.answer, steps=3)
        start = shelf.before_needle(p.ids, p.span[0], needle.room(smollm2, p, 3))
        assert _same_run(alone, needle.run(smollm2, p, nd.needle, nd.question, nd.answer, steps=3, start=start))
    assert shelf.read_tokens == needle_prefill.PIECE + sum({p.span[0] - needle_prefill.PIECE for p, _ in prompts})


def _rows_match_eager(lm, length: int, steps: int, tol: float) -> float:
    """Every layer's kept rows, read back through a long Site, against transformers' eager weights of the whole text."""
    from attention.analysis import long_rows
    from attention.lm import needle_rows

    p = _prompt(lm.tokenizer, length, 0.5)
    nd = NEEDLES[0]
    r = needle.run(lm, p, nd.needle, nd.question, nd.answer, steps=steps, keep=True)
    text = list(p.ids) + r.written[:-1]
    eager = _eager_rows(lm, text, len(p.ids) - 1)  # (steps, layers, heads, n)
    tokens = lm.tokenizer.convert_ids_to_tokens(text)
    worst = 0.0
    for layer in range(lm.n_layers):
        site = needle_rows.site(r.rows, layer, tokens)
        assert site.shape == (len(r.steps), len(text)) and site.is_long
        for head in range(eager.shape[2]):
            for i, step in enumerate(r.steps):
                row = long_rows.row(site, head, i)
                worst = max(worst, float(np.abs(row - eager[i, layer, head]).max()))
                assert int(row.argmax()) == int(step.top_key[layer, head])
                assert not row[step.position + 1:].any()  # the causal rule: nothing after the query
    assert worst < tol, worst
    return worst


def test_kept_rows_are_the_models_own_attention_on_a_tiny_model(tiny):
    _rows_match_eager(tiny, 200, 5, 1e-5)


def test_kept_rows_are_smollm2s_own_attention(smollm2):
    _rows_match_eager(smollm2, 160, 4, 1e-4)


def test_keeping_rows_with_a_key_rule_is_refused(tiny):
    with pytest.raises(ValueError, match="every key"):
        needle.run(tiny, _prompt(tiny.tokenizer), "x", "y", steps=2, keep=True, rule=lambda layer, p, kv: None)
