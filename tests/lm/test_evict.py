"""Eviction on the real SmolLM2 (attention/lm/evict.py): nothing evicted equals generate(); the streaming
policy equals transformers' own forward pass with a 4-D mask hiding the same keys; every policy's kept
sets behave as a cache does (within the budget, never a key back). The model loads once per session."""

import numpy as np
import pytest
import torch

import attention
from attention.lm import evict, evict_policies

pytestmark = pytest.mark.model
PROMPT = ("Alice keeps three keys: a red key for the barn, a blue key for the house and a green key for the "
          "shed. She lost the blue key in the garden last week. To open the house, she needs the")


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    """One torch thread, as a pytest-xdist worker and the app run: with -n 0 on a busy 2-core machine, two
    threads waiting on each other made these tests 4x slower (attention/blas.py)."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_a_budget_as_long_as_the_text_changes_nothing(smollm2):
    plain = attention.generate(PROMPT, steps=3)
    for policy in evict_policies.POLICIES:
        e = attention.evict(PROMPT, policy=policy, budget=500, steps=3)
        assert [s.token_id for s in e.steps] == [s.token_id for s in plain.steps], policy
        for mine, theirs in zip(e.steps, plain.steps, strict=True):
            assert np.abs(mine.probs - theirs.chosen_from.probs).max() < 1e-5, policy
            assert mine.kl < 1e-9 and mine.same_top and mine.evicted == 0, policy
            assert np.abs(mine.lost).max() == 0.0


def test_streaming_equals_transformers_with_a_4d_mask(smollm2):
    """Written rows see the kept keys, the prompt's rows everything: one forward pass of the whole text with
    that (1, 1, n, n) additive mask, by transformers' eager attention, gives every step's distribution."""
    budget, sinks = 16, 4
    e = evict.start(smollm2, PROMPT, "streaming", budget=budget, sinks=sinks)
    for _ in range(5):
        e.step()
    n, p0 = e.n - 1, e.prompt_len  # the last word chosen was not read; queries p0 − 1 … n − 1 chose the words
    ids = e.ids[:n]
    mask = torch.full((n, n), float("-inf")).triu(1)
    keys = torch.arange(n)
    for p in range(p0, n):  # the rule written out: the first `sinks` keys and the most recent budget − sinks
        keep = (keys < sinks) | ((keys > p - (budget - sinks)) & (keys <= p))
        mask[p] = torch.where(keep, 0.0, float("-inf"))
    model = smollm2.model
    before = model.config._attn_implementation
    model.set_attn_implementation("eager")
    try:
        with torch.inference_mode():
            logits = model(input_ids=torch.tensor([ids]), attention_mask=mask[None, None]).logits[0]
    finally:
        model.set_attn_implementation(before)
    probs = torch.softmax(logits.double(), dim=-1).numpy()
    assert max(s.evicted for s in e.steps) > 0 and max(s.kl for s in e.steps) > 1e-4  # something was evicted
    assert (e.steps[0].kept[0][0] == np.arange(p0)).all()  # the prompt's last query read everything
    for s in e.steps:
        assert np.abs(s.probs - probs[s.position]).max() < 1e-5, f"step {s.index}"


@pytest.mark.parametrize("policy", ["h2o", "tova", "snapkv"])
def test_kept_sets_behave_like_a_cache(smollm2, policy):
    budget = 24
    e = evict.start(smollm2, PROMPT, policy, budget=budget)
    for _ in range(4):
        e.step()
    p0 = e.prompt_len
    for before, s in zip(e.steps, e.steps[1:]):
        for layer, mask in s.kept_mask.items():
            grown = np.pad(before.kept_mask[layer], ((0, 0), (0, 1)), constant_values=True)
            assert not (mask & ~grown).any(), f"{policy}: a key came back at layer {layer}"
            assert mask[:, -1].all()  # a query sees itself
            most = budget + (s.position - p0 + 1 if policy == "snapkv" else 0)
            assert (mask.sum(axis=1) <= most).all()
            if policy == "tova":
                assert (mask == mask[0]).all()  # one set per layer
            hidden = np.repeat(~mask, 3, axis=0)
            assert np.abs(s.rows[layer][hidden]).max(initial=0.0) == 0.0  # the evicted row never read them
        assert ((0 <= s.lost) & (s.lost <= 1 + 1e-6)).all()
    assert any(s.evicted for s in e.steps)


def test_what_a_head_lost_is_the_full_caches_weight_on_the_evicted_keys(smollm2):
    """`.lost` against the model's own weights with the text read again in one pass, no cache at all."""
    from attention.lm import writer

    e = evict.start(smollm2, PROMPT, "streaming", budget=16)
    for _ in range(3):
        e.step()
    s = e.steps[-1]
    again = writer.Writing(smollm2, "", ids=e.ids[: s.position + 1])
    for layer in (0, 7, 29):
        row = again.site(layer).model_weights[:, -1]  # (heads, position + 1)
        hidden = np.repeat(~s.kept_mask[layer], 3, axis=0)
        assert np.abs((row * hidden).sum(axis=1) - s.lost[layer]).max() < 1e-5
    assert s.lost.max() > 0.1


def test_the_full_cache_read_late_says_what_it_says_word_by_word(smollm2):
    """The full cache reads the words written since it last read when first asked (several in one pass): the
    same words, distributions and losses as when it reads each word as it comes (< 1e-5: float rounding)."""
    one = evict.start(smollm2, PROMPT, "h2o", budget=16)
    for _ in range(5):
        one.step().kl  # noqa: B018 - read now: the full cache follows word by word
        assert one.full_behind == 0
    late = evict.start(smollm2, PROMPT, "h2o", budget=16)
    for _ in range(5):
        late.step()
    assert late.full_behind == 4  # nothing read yet: word 0's query is the prompt's last, read with it
    late.read_full()
    assert late.full_behind == 0
    assert [s.token_id for s in late.steps] == [s.token_id for s in one.steps]
    for a, b in zip(one.steps, late.steps, strict=True):
        assert np.abs(a.full - b.full).max() < 1e-5 and np.abs(a.lost - b.lost).max() < 1e-5, a.index
        assert (a.probs == b.probs).all()  # the evicted cache never waits for the full one
    assert max(s.kl for s in late.steps) > 1e-3 and late.steps[-1].lost.max() > 0.01  # something evicted and lost


@pytest.mark.parametrize("policy", evict_policies.POLICIES)
def test_every_policy_keeps_exactly_what_the_page_says_it_keeps(smollm2, policy):
    """The Forget page says "saw {seen} of {n} keys" and, for snapkv, why it exceeds the budget (issue 52): each
    policy's kept count per key/value head is keys_seen's, at every word, every layer and head."""
    budget = 24
    e = evict.start(smollm2, PROMPT, policy, budget=budget)
    for _ in range(4):
        e.step()
    for s in e.steps:
        want = evict_policies.keys_seen(policy, budget, s.position, e.prompt_len)
        for layer, mask in s.kept_mask.items():
            assert (mask.sum(axis=1) == want).all(), (policy, s.index, layer, mask.sum(axis=1), want)
    assert e.steps[-1].position + 1 > budget  # the budget bit
