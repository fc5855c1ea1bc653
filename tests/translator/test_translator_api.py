"""The shipped model: the running examples, and a trace that never lies."""

import threading

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from attention import core
from attention.trace import TOLERANCE, Trace
from attention.translator import load_model, load_snapshots, loss_history, teacher_forced, translate
from attention.translator.corpus import EXAMPLES
from attention.translator.vocab import tokenize

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

TOL = 1e-6


@pytest.mark.parametrize("english, spanish", EXAMPLES)
def test_running_examples_translate_exactly(english, spanish):
    t = translate(english)
    assert t.text == spanish
    assert t.source_tokens == tuple(tokenize(english))
    assert t.target_tokens == tuple(spanish.split())
    assert t.unknown_words == ()
    assert isinstance(t.trace, Trace)


def test_model_is_float32():
    assert all(p.dtype == torch.float32 for p in load_model().parameters())


def test_sites_in_model_order_with_their_tokens():
    t = translate("The black cat drank the milk.")
    cfg = load_model().cfg
    kinds = [(s.kind, s.layer) for s in t.trace.sites]
    expected = [("encoder", i) for i in range(cfg.n_encoder_layers)]
    for i in range(cfg.n_decoder_layers):
        expected += [("decoder", i), ("cross", i)]
    assert kinds == expected
    src = t.source_tokens
    inputs = ("<bos>",) + t.target_tokens
    outputs = t.target_tokens + ("<eos>",)
    for s in t.trace.sites:
        assert s.q.shape == (cfg.n_heads, len(s.query_tokens), cfg.d_head)
        assert s.weights.shape == (cfg.n_heads, len(s.query_tokens), len(s.key_tokens))
        if s.kind == "encoder":
            assert s.query_tokens == s.key_tokens == src
        else:
            assert s.query_tokens == outputs and s.input_tokens == inputs
            assert s.key_tokens == (inputs if s.kind == "decoder" else src)
    assert t.trace.tokens == src
    assert t.trace.site(1, "cross").query_tokens[1] == "gato"  # produced where "el" is fed in
    assert t.trace.site(1, "cross").input_tokens[1] == "el"


@pytest.mark.parametrize("text", ["The ball is blue.", "The black cat drank the milk.",
                                  "My old dogs did not see the queen."])
def test_recomputed_weights_match_the_model_for_every_kind(text):
    trace = translate(text).trace
    assert {s.kind for s in trace.sites} == {"encoder", "decoder", "cross"}
    for s in trace.sites:
        assert s.weights_diff <= TOL, (s.name, s.weights_diff)
        assert s.z_diff <= TOLERANCE, (s.name, s.z_diff)  # z is ~10× larger than the weights
        assert s.faithful
        np.testing.assert_allclose(s.weights.sum(-1), 1.0, atol=1e-6)


def test_model_attention_matches_torch_sdpa_on_the_captured_q_k_v_mask():
    """An outside reference: torch's own scaled_dot_product_attention on the q, k, v each module
    recorded, with its default scale 1/√d_k and a mask built here (one unpadded sentence: the decoder
    hides the future, nothing else is hidden), never the module's own. With V = the identity it
    returns the weights themselves."""
    model = load_model()
    text, target = EXAMPLES[1]
    src = torch.tensor([model.src_vocab.encode(tokenize(text))[0]])
    tgt = torch.tensor([model.tgt_vocab.encode(["<bos>"] + target.split())[0]])
    recorder = []
    with torch.no_grad():
        model(src, tgt, recorder)
    assert [r.kind for r in recorder] == [s.kind for s in translate(text).trace.sites]
    site_by_name = {s.name: s for s in translate(text).trace.sites}
    for r in recorder:
        q, k, v = (x.double() for x in (r.q, r.k, r.v))
        n_q, n_k = q.shape[-2], k.shape[-2]
        mask = torch.ones(n_q, n_k, dtype=torch.bool).tril() if r.kind == "decoder" else None  # True: may attend
        z_ref = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        eye = torch.eye(n_k, dtype=torch.float64).expand(*k.shape[:-1], -1)
        weights_ref = F.scaled_dot_product_attention(q, k, eye, attn_mask=mask)
        torch.testing.assert_close(r.z.double(), z_ref, atol=TOL, rtol=0)
        torch.testing.assert_close(r.weights.double(), weights_ref, atol=TOL, rtol=0)
        site = site_by_name[r.name]  # the same call, as the page sees it
        np.testing.assert_allclose(site.weights, weights_ref[0].numpy(), atol=TOL, rtol=0)
        np.testing.assert_allclose(site.z, z_ref[0].numpy(), atol=1e-5, rtol=0)


def test_decoder_self_attention_is_causal():
    t = translate("The black cat drank the milk.")
    for s in t.trace.sites:
        if s.kind != "decoder":
            continue
        T = len(s.query_tokens)
        np.testing.assert_array_equal(s.mask, core.causal_mask(T).astype(np.float32))
        above = np.triu(np.ones((T, T), dtype=bool), k=1)
        assert np.all(s.weights[:, above] == 0.0)
        assert np.all(s.masked == above)
    for s in t.trace.sites:
        if s.kind != "decoder":
            assert s.mask is None and not s.masked.any()  # one unpadded sentence: nothing hidden


def test_unknown_words_are_reported_and_read_as_unk():
    t = translate("The purple cat drank the zorblax.")
    assert t.unknown_words == ("purple", "zorblax")
    assert t.source_tokens == ("the", "<unk>", "cat", "drank", "the", "<unk>", ".")
    assert t.trace.site(0, "encoder").key_tokens == t.source_tokens
    assert t.trace.unknown_words == ("purple", "zorblax")


def test_the_trace_says_how_it_was_made_in_typed_fields():
    t = translate("The ball is blue.")
    tr = t.trace
    assert (tr.dropped_tokens, tr.unknown_words, tr.unknown_target_words) == (0, (), ())
    assert not tr.decoding_capped and not tr.teacher_forced and tr.capture_path == "recorder"
    assert tr.expected_layers == {"encoder": (0, 1), "decoder": (0, 1), "cross": (0, 1)} and tr.site_problems == ()
    capped = translate("The black cat drank the milk.", max_new_words=2).trace
    assert capped.decoding_capped and len(capped.site(0, "decoder").input_tokens) == 3  # <bos> + 2 words
    long = translate("the cat " * 40).trace  # 80 words: the translator reads its first max_len
    assert long.dropped_tokens == 80 - load_model().cfg.max_len and len(long.tokens) == load_model().cfg.max_len
    forced = teacher_forced("The purple cat.", "el gato zorblax .").trace
    assert forced.teacher_forced and not forced.decoding_capped
    assert forced.unknown_words == ("purple",) and forced.unknown_target_words == ("zorblax",)


def test_empty_text_is_refused():
    with pytest.raises(ValueError):
        translate("   ")


def test_teacher_forced_traces_a_given_target():
    t = teacher_forced("The ball is blue.", "la bola es azul .")
    assert t.target_tokens == ("la", "bola", "es", "azul", ".")
    assert t.trace.site(0, "cross").query_tokens[-1] == "<eos>"
    assert t.trace.faithful


def test_every_snapshot_loads_and_traces():
    snapshots = load_snapshots()
    steps = [step for step, _ in snapshots]
    assert steps[0] == 0 and steps == sorted(set(steps)) and len(steps) >= 12
    assert snapshots[-1][1] is load_model()
    for step, model in snapshots:
        assert all(p.dtype == torch.float32 for p in model.parameters())
        t = teacher_forced("The black cat drank the milk.", "el gato negro bebió la leche .", model=model)
        assert t.trace.max_weights_diff <= TOL and t.trace.max_z_diff <= TOLERANCE, step
        translate("The ball is blue.", model=model, max_new_words=12)  # greedy works at every stage
    loss = loss_history()
    assert len(loss) == steps[-1]
    assert np.mean(loss[-100:]) < 0.1 * np.mean(loss[:10])


def test_concurrent_translations_do_not_mix():
    texts = ["The ball is blue.", "The black cat drank the milk."] * 4
    expected = {x: translate(x).text for x in set(texts)}
    results = {}

    def run(i, text):
        t = translate(text)
        results[i] = (text, t.text, len(t.trace.site(0, "encoder").query_tokens))

    threads = [threading.Thread(target=run, args=(i, x)) for i, x in enumerate(texts)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for text, out, n in results.values():
        assert out == expected[text] and n == len(tokenize(text))


def test_q_k_v_rebuilt_from_the_recorded_input_and_learned_weights():
    from attention.translator import load_model, translate
    from attention.translator.origin import origin

    model = load_model()
    tr = translate("The black cat drank the milk.").trace
    for site in tr.sites:
        for head in range(site.n_heads):
            found = origin(model, site, head, pos=2)
            if site.kind == "cross":
                assert found is None
                continue
            assert found is not None and found.max_diff <= 1e-4
    first = origin(model, tr.site(0, "encoder"), 0, pos=1)  # "black" entering the first layer
    parts = torch.from_numpy(first.embedding.token + first.embedding.position)
    with torch.no_grad():
        x = model.encoder[0].ln_attn(parts[None, None])[0, 0].numpy()
    np.testing.assert_allclose(x, first.x, atol=1e-5)  # x = LayerNorm(E[word]·√d + PE[pos])


@pytest.mark.parametrize("text", ["The black cat drank the milk.", "My grandmother bakes bread every Sunday.",
                                  "the ball is blue"])
def test_word_probs_are_the_models_own_softmax_one_per_word(text):
    """Decoded again step by step with the model's encode/decode (not the traced pass): each produced
    word's probability under torch's softmax of that step's logits."""
    model = load_model()
    t = translate(text, model=model)
    assert len(t.word_probs) == len(t.target_tokens) > 0
    src = torch.tensor([model.src_vocab.encode(list(t.source_tokens))[0]])
    with torch.no_grad():
        memory = model.encode(src)
        ys = torch.tensor([[model.tgt_vocab.id("<bos>")]])
        for word, p in zip(t.target_tokens, t.word_probs, strict=True):
            step = F.softmax(model.decode(ys, memory, src)[0, -1], dim=-1)
            wid = model.tgt_vocab.id(word)
            assert abs(float(step[wid]) - p) < 1e-5
            ys = torch.cat([ys, torch.tensor([[wid]])], dim=1)
    assert all(0.0 < p <= 1.0 for p in t.word_probs)
    assert attention_translate(text).word_probs == pytest.approx(t.word_probs)  # the notebook API


def attention_translate(text):
    import attention

    return attention.translate(text)


def test_confident_inside_the_grammar_unsure_outside_it():
    inside = translate("The black cat drank the milk.")
    assert inside.in_distribution and inside.low_confidence == () and min(inside.word_probs) > 0.99
    outside = translate("My grandmother bakes bread every Sunday.")
    assert not outside.follows_grammar and not outside.in_distribution
    assert outside.low_confidence  # "limpia las platos": the guessed words are marked


@pytest.mark.parametrize("text", ["She reads, every day!", "The cat, the dog; and: the milk?!", "Hello — world...",
                                  "the cat (black) drank"])
def test_punctuation_is_never_an_unknown_word(text):
    t = translate(text)
    assert all(any(c.isalnum() for c in w) for w in t.unknown_words), t.unknown_words
    assert t.skipped_marks and not set(t.skipped_marks) & set(t.source_tokens)
    assert t.trace.unknown_words == t.unknown_words


def test_only_marks_is_nothing_to_translate():
    with pytest.raises(ValueError):
        translate(", ! ?")


def test_every_held_out_sentence_follows_the_grammar_and_others_do_not():
    from attention.translator.corpus import build_corpus
    from attention.translator.coverage import follows_grammar

    test = build_corpus().test
    assert all(follows_grammar(p.source) for p in test)
    for words in ["my grandmother bakes bread every sunday .", "the cat", "cat drank the milk .",
                  "the cat drank the milk . .", "the ball is the blue .", "the cat drank milk"]:
        assert not follows_grammar(words.split()), words


def test_an_unknown_word_keeps_the_sentences_shape():
    """"The zorblax is blue." has exactly the shape of "the ball is blue": the page said it had none of
    the four; that "zorblax" is unknown is said apart (and it is not in distribution)."""
    from attention.translator.coverage import follows_grammar

    assert follows_grammar("the zorblax is blue .".split())
    assert follows_grammar("the zorblax glorped the milk".split())
    assert not follows_grammar("zorblax the is blue .".split())
    out = translate("The zorblax is blue.")
    assert out.follows_grammar and out.unknown_words == ("zorblax",) and not out.in_distribution
