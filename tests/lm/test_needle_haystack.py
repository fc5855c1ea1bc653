"""A person's haystack in the needle prompt (attention/lm/needle_prompt.py) with SmolLM2's tokenizer: one longer
than the length is cut at its end and the Prompt says where and to how much; the depth shown is the share of the
haystack's tokens before the needle; a Chinese text splits at its own full stops."""

import pytest

from attention.lm.needle_prompt import NEEDLES, build, sentences

pytestmark = pytest.mark.model
ND = NEEDLES[0]


def test_a_long_haystack_is_cut_at_its_end_and_says_so(smollm2):
    long = " ".join(f"Sentence number {i} is about the weather." for i in range(3_000))  # ~30,000 tokens
    p = build(smollm2.tokenizer, ND.needle, ND.question, long, 512, 0.5)
    assert len(p.ids) <= 512 and p.cut
    assert p.sentences == 3_000 and 0 < p.kept_sentences < 100 and p.kept_tokens < p.given_tokens
    assert p.last_kept == f"Sentence number {p.kept_sentences - 1} is about the weather."  # cut right after it
    assert p.last_kept in p.text and f"number {p.kept_sentences} is" not in p.text
    short = build(smollm2.tokenizer, ND.needle, ND.question, "One short sentence. Another one.", 512, 0.5)
    assert not short.cut  # repeated to fill the length, nothing left out
    assert not build(smollm2.tokenizer, ND.needle, ND.question, None, 512, 0.5).cut  # the built-in one: never said


def test_the_depth_is_the_share_of_haystack_tokens_before_the_needle(smollm2):
    tok = smollm2.tokenizer
    text = "猫在屋顶上睡觉。" * 3 + "这是一段很长很长的句子，讲的是一座古老的城市和它那些弯弯曲曲的小街道以及街边的小店。"
    assert len(sentences(text)) == 4  # Chinese full stops split without a space after them
    p = build(tok, ND.needle, ND.question, text, 504, 0.5)
    before = tok.decode(p.ids[: p.span[0]])
    sizes = [len(tok(" " + s, add_special_tokens=False)["input_ids"]) for s in sentences(text)]
    kept = [sizes[j % len(sizes)] for j in range(p.kept_sentences)]
    tokens_before = sum(kept[: before.count("。")])
    assert abs(p.depth - tokens_before / sum(kept)) < 1e-9
    assert abs(p.depth - 0.5) < 0.1  # nearest boundary to half the haystack's tokens
