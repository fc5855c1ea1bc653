"""Writing with the built-in SmolLM2, step by step with the KV cache: every step's rows against the
whole text read again in one pass, greedy against transformers' own generate(), the distribution
against softmax written out here. The model is loaded once per session (tests/conftest.py)."""

import numpy as np
import pytest
import torch

import attention
from attention.lm import writer

pytestmark = pytest.mark.model
PROMPT = "The black cat drank the milk because it was"


@pytest.fixture(scope="module")
def written(smollm2):
    w = writer.start(smollm2, PROMPT)
    for _ in range(5):
        w.step()
    return w


def close(a, b, what):
    """float32 sums in another order: within 1e-5 of the largest magnitude (weights are ≤ 1: absolute)."""
    tol = 1e-5 * max(1.0, float(np.abs(b).max()))
    assert np.abs(a - b).max() <= tol, f"{what}: {np.abs(a - b).max()} > {tol}"


def test_every_step_equals_the_whole_text_read_again(smollm2, written):
    again = writer.Writing(smollm2, "", ids=list(written.ids))  # one pass over every token, no cache
    assert len(written.layers) == 30
    for layer in written.layers:
        a, b = written.site(layer), again.site(layer)
        for name in ("q", "k", "v", "model_weights", "model_z", "weights", "z"):
            close(getattr(a, name), getattr(b, name), f"layer {layer} {name}")
        assert a.faithful
        for step in written.steps:  # the rows each step recorded are the rows of its position
            pos = step.cache_len
            rows = step.rows[layer]
            close(rows.q, b.q[:, pos : pos + 1], "q row")
            close(rows.weights, b.model_weights[:, pos : pos + 1, : pos + 1], "weights row")
            close(rows.z, b.model_z[:, pos : pos + 1], "z row")
            close(np.repeat(rows.k, 3, axis=0), b.k[:, pos : pos + 1], "new key")
    prompt_only = written.trace(step=0)  # the text as it stood before anything was written
    assert prompt_only.tokens == tuple(written.tokens[: written.n - 5]) and prompt_only.faithful
    close(prompt_only.site(7, "decoder").weights, again.site(7).weights[:, : written.n - 5, : written.n - 5], "prefix")


def test_a_prompt_read_in_chunks_equals_it_read_in_one_pass_and_keeps_less(smollm2, written, monkeypatch):
    """The prompt is read PREFILL_CHUNK tokens at a time through the cache (a 2,048-token prompt at once kept
    4.5 GB of weights): every site as one pass gives it, and the kept weights only reach the keys before."""
    again = writer.Writing(smollm2, "", ids=list(written.ids))  # one pass (shorter than a chunk)
    monkeypatch.setattr(writer, "PREFILL_CHUNK", 4)
    chunked = writer.Writing(smollm2, "", ids=list(written.ids))
    assert [b.shape[1] for b in chunked.stores[0].blocks] == [4] * (written.n // 4) + [written.n % 4] * (written.n % 4 > 0)
    for layer in chunked.layers:
        a, b = chunked.site(layer), again.site(layer)
        for name in ("q", "k", "v", "model_weights", "model_z", "weights", "z"):
            close(getattr(a, name), getattr(b, name), f"layer {layer} {name}")
        assert a.faithful
    close(chunked.next.logits, again.next.logits, "logits after the prompt")
    kept = sum(b.nbytes for b in chunked.stores[0].blocks)
    assert kept < 0.75 * sum(b.nbytes for b in again.stores[0].blocks)
    assert chunked.step().token_id == again.step().token_id


def test_greedy_writing_equals_transformers_generate(smollm2, written):
    ids = torch.tensor([written.ids[: written.n - 5]])
    with torch.inference_mode():
        out = smollm2.model.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=5)
    assert out[0, -5:].tolist() == [s.token_id for s in written.steps]
    assert written.written == " the only thing that could"


def test_the_distribution_is_softmax_of_logits_over_t_then_top_k_then_top_p(smollm2):
    w = writer.start(smollm2, PROMPT, temperature=0.7, top_k=20, top_p=0.5)
    with torch.inference_mode():  # the logits are the model's own for the position after the prompt
        plain = smollm2.model(torch.tensor([w.ids])).logits[0, -1].numpy()
    np.testing.assert_allclose(w.next.logits, plain, atol=1e-4)
    z = w.next.logits.astype(np.float64) / 0.7
    p = np.exp(z - z.max())
    p /= p.sum()
    kept = np.argsort(-p, kind="stable")[:20]
    p20 = np.zeros_like(p)
    p20[kept] = p[kept] / p[kept].sum()
    order = np.argsort(-p20, kind="stable")
    ahead = np.cumsum(p20[order]) - p20[order]
    want = np.zeros_like(p)
    want[order[ahead < 0.5]] = p20[order[ahead < 0.5]]
    want /= want.sum()
    np.testing.assert_allclose(w.next.probs, want, rtol=1e-9, atol=1e-12)
    assert w.next.top_probs[0] == pytest.approx(want.max())
    assert sum(1 for x in want if x > 0) < 20  # top-p really cut inside the top 20


def test_grouped_query_heads_share_their_groups_keys(written):
    site = written.site(18)
    assert site.n_heads == 9 and written.stores[18].kv_heads == 3
    for g in range(3):
        for h in (3 * g + 1, 3 * g + 2):
            np.testing.assert_array_equal(site.k[h], site.k[3 * g])
            np.testing.assert_array_equal(site.v[h], site.v[3 * g])
    assert not np.array_equal(site.k[0], site.k[3])


def test_a_seed_draws_the_same_words_and_going_back_rewrites_them(smollm2):
    w = writer.start(smollm2, "Once upon a time", temperature=1.2)
    first = [w.step(seed=11).token_id for _ in range(4)]
    w.back(1)
    assert w.n == len(w.tokens) and len(w.steps) == 1 and w.site(0).q.shape[1] == w.n
    again = [w.step(seed=11).token_id for _ in range(3)]
    assert again == first[1:]  # step i is drawn with default_rng((seed, i)): the same draw again
    assert w.steps[0].seed == 11 and 0 < w.steps[1].probability <= 1


def test_readable_labels(written):
    assert written.tokens[:3] == ["The", "Ġblack", "Ġcat"]  # raw, for hover and exports
    assert [s.label for s in written.steps[:2]] == ["·the", "·only"]
    assert all(not lab.startswith("Ġ") for lab in written.next.top_labels)


@pytest.mark.parametrize("prompt", ["tab\there\x07bell", "café 😀 ok", "<b>bold</b> &amp; <script>x</script>",
                                    "黑猫喝了牛奶，因为它", "line one\nline two"])
def test_hostile_prompts_are_read_literally(smollm2, prompt):
    w = writer.start(smollm2, prompt)
    assert smollm2.tokenizer.decode(w.ids) == prompt  # every character read, none dropped or rewritten
    w.step()
    labels = [writer.readable(t, w.scheme) for t in w.tokens]
    assert all(ch >= " " for lab in labels for ch in lab)  # no invisible control character in a label
    assert w.site(0).faithful


def test_an_empty_prompt_is_refused_with_words(smollm2):
    with pytest.raises(ValueError, match="The prompt is empty"):
        writer.start(smollm2, "")


def test_a_long_prompt_is_cut_and_writing_stops_at_the_cap(smollm2):
    w = writer.start(smollm2, PROMPT, limits=writer.Limits(prompt=4, total=6))
    assert w.cut == 5 and w.n == 4 and w.tokens[-1] == "Ġdrank"
    assert w.step() is not None and w.step() is not None
    assert w.full and w.step() is None


def test_writing_stops_at_the_end_of_text_token(smollm2):
    w = writer.start(smollm2, PROMPT)
    assert w.step(token_id=smollm2.tokenizer.eos_token_id) is None
    assert w.ended and w.step() is None and w.steps == []


def test_the_notebook_functions(smollm2):
    nt = attention.next_token(PROMPT, top_k=3, temperature=-1)
    assert len(nt.top()) == 10 and nt.top()[0][0] == "·the" and nt.settings.clamped == ("temperature",)
    assert sum(p for _, p, _ in nt.top()) == pytest.approx(1.0)  # top-3 renormalised; the rest are 0
    out = attention.generate(PROMPT, steps=3)
    assert out.written == " the only thing" and len(out.steps) == 3
    assert out.steps[2].rows[0].q.shape == (9, 1, 64) and out.steps[2].rows[0].k.shape == (3, 1, 64)
    assert out.trace().site(0, "decoder").weights.shape == (9, out.n, out.n)


def test_the_last_site_is_kept_until_going_back(smollm2):
    """Asked again for the same layer and length, site() gives the same object (the page finds what a
    callback made from it by identity); after going back, a text of the same length is another text."""
    w = writer.start(smollm2, "Once upon a time")
    w.step()
    w.step()
    assert w.site(4) is not w.site(3)
    site = w.site(3)
    assert w.site(3) is site
    w.back(1)
    w.step(token_id=w.steps[0].token_id)  # the same length as before, another word
    again = w.site(3)
    assert again is not site and again.query_tokens[-1] == w.tokens[-1] != site.query_tokens[-1]


def same_rows(a, b, what):
    for layer in b:
        for name in ("q", "k", "v", "weights", "z"):
            np.testing.assert_array_equal(getattr(a[layer], name), getattr(b[layer], name), f"{what}: {layer} {name}")


def test_a_word_read_ahead_is_the_word_the_step_reads(smollm2):
    """Writing.ahead reads the token the next step would choose (the model's work done while the learner
    reads): the step takes those rows, equal bit for bit to reading it at the step. A step that chooses
    another token (settings changed since) drops them, the cache loses their key and value, and what it
    reads equals a writing that never read ahead; so does going back."""
    early, plain = writer.start(smollm2, "Once upon a time", temperature=1.2), writer.start(smollm2, "Once upon a time",
                                                                                           temperature=1.2)
    assert early.ahead(seed=5) and not early.ahead(seed=5)  # read once
    read = early._ahead
    a, b = early.step(seed=5), plain.step(seed=5)
    assert a.token_id == b.token_id == read.token_id and a.rows is read.rows and early._ahead is None
    same_rows(a.rows, b.rows, "taken")
    np.testing.assert_array_equal(early.next.logits, plain.next.logits)
    assert early.ahead(seed=5)
    other = (early._ahead.token_id + 1) % len(smollm2.tokenizer)
    same_rows(early.step(token_id=other).rows, plain.step(token_id=other).rows, "another token")
    assert early.ahead()
    early.back(1), plain.back(1)
    for _ in range(2):
        same_rows(early.step().rows, plain.step().rows, "after going back")
    np.testing.assert_array_equal(early.site(9).weights, plain.site(9).weights)


def test_a_long_prompt_is_written_lean_and_agrees_with_the_full_reading(smollm2):
    """Past the length where every head's weights are kept, a writing reads with the model's SDPA and keeps
    no weights (O(n) a word); its words and its rows of A are those of the weights-keeping path and of the
    whole text traced again."""
    import numpy as np

    from attention import sources
    from attention.lm import writer
    from attention.lm.written import Limits

    words = "the cat sat on a mat and then it went home to sleep because it was tired".split()
    prompt = " ".join(np.random.default_rng(2).choice(words, size=600))
    ids = smollm2.tokenizer(prompt)["input_ids"][:480]
    lean = writer.Writing(smollm2, "", Limits(prompt=480, total=600), ids=ids)
    full = writer.Writing(smollm2, "", Limits(prompt=480, total=482), ids=ids)  # total 482: weights kept
    assert lean.lean and not full.lean
    assert not lean.stores[0].blocks and full.stores[0].blocks
    for _ in range(3):
        a, b = lean.step(), full.step()
        if b is None:
            break
        assert a.token_id == b.token_id
        np.testing.assert_allclose(lean._logits[-1], full._logits[-1], atol=2e-3)
    n = lean.n
    site = lean.site(18)
    assert site.is_long and site.faithful and site.shape == (n, n)
    again = sources.get(sources.SMOLLM2).run(smollm2, smollm2.tokenizer.decode(lean.ids)).trace.site(18, "decoder")
    rows = [0, 5, 240, n - 3, n - 2, n - 1]
    for head in (0, 4, 8):
        np.testing.assert_allclose(site.pattern(head, rows), again.pattern(head, rows), atol=1e-5)
    if len(full.steps) == 3:
        kept = full.site(18)
        np.testing.assert_allclose(site.pattern(4, rows[-3:]), kept.pattern(4, rows[-3:])[:, :n], atol=1e-5)
    lean.back(1)
    assert lean.n == n - 2 and lean.site(18).shape == (n - 2, n - 2) and lean.stores[18].z_diff.shape == (n - 2,)


def test_kept_keys_are_the_caches_own_memory_and_an_old_site_keeps_its_own(smollm2):
    """The KV cache writes keys into the writer's store (lm/kv_buffer.py): one copy, not two. Going back
    and writing another word never changes a site assembled before."""
    w = writer.start(smollm2, PROMPT)
    first = w.step()
    store = w.stores[3]
    cached = w._cache.layers[store.cache_index]
    assert np.shares_memory(store.kv()[0], cached.keys.numpy()) and cached.keys.shape[-2] == w.n
    kv_bytes = sum(a.nbytes for s in w.stores.values() for a in (s.buffer.k, s.buffer.v))
    assert kv_bytes < w.nbytes() < sum(s.nbytes() for s in w.stores.values()) + kv_bytes  # counted once
    before = store.long_site(tuple(w.tokens))  # k and v: views of the store's (here: the cache's) memory
    assert np.shares_memory(before.k, cached.keys.numpy())
    keys, values = before.k.copy(), before.v.copy()
    w.back(0)
    other = (first.token_id + 1) % len(smollm2.tokenizer)
    w.step(token_id=other)
    assert np.array_equal(before.k, keys) and np.array_equal(before.v, values)
    again = writer.Writing(smollm2, "", ids=list(w.ids))  # the new word's keys are those of a fresh reading
    close(w.site(3).k, again.site(3).k, "keys after going back")
    close(w.next.logits, again.next.logits, "logits after going back")


def test_chinese_pieces_are_written_as_their_characters_in_steps_and_candidates(smollm2):
    """#46 item 7: SmolLM2 reads Chinese as UTF-8 byte pieces; each written step and each next-token
    candidate is labelled as the whole text reads (a character split over tokens written whole, "…" where
    it goes on), the same as readable_tokens over the whole sequence, never ⟨e5⟩ once completed."""
    from attention.analysis.token_text import readable_tokens

    ids = smollm2.tokenizer("我们是人类", add_special_tokens=False)["input_ids"]
    w = writer.start(smollm2, "The cat")
    for token_id in ids:
        w.step(token_id=token_id)
    whole = readable_tokens(w.tokens)
    assert [s.label for s in w.steps] == whole[-len(ids):]
    assert "".join(s.label for s in w.steps).replace("…", "") != ""  # characters, not hex bytes
    assert not any("⟨" in s.label for s in w.steps)
    assert any("…" in s.label for s in w.steps)  # SmolLM2 does split some of these characters
    raw = w.tokens[-1]  # the last candidate, read with the text before it, is labelled as the sequence labels it
    assert w.candidate_label(raw, len(w.steps) - 1) == whole[-1]
