"""Head roles on the real models: MiniLM (no causal mask) and SmolLM2 (its known induction heads and sinks),
and the proof that SmolLM2's induction heads matter more than random heads."""

import numpy as np
import pytest

import attention
from attention.analysis import head_roles
from attention.capture import hf_ablation, role_proof

pytestmark = pytest.mark.model


def test_minilm_gets_the_roles_that_apply_and_says_which_do_not():
    roles = attention.head_roles(seed=0)
    assert roles.shape == (6, 12) and not roles.causal and roles.kind == "encoder"
    assert roles.tokens[0] == "[CLS]" and roles.tokens[-1] == "[SEP]"
    assert (roles.start, roles.length) == (3, 12)  # [CLS] words : then 12 words, twice
    assert roles.tokens[roles.start:roles.start + 12] == roles.tokens[roles.start + 12:roles.start + 24]
    assert not roles.applies("induction") and np.isnan(roles.scores["induction"]).all()
    for role in ("previous", "duplicate", "sink", "local", "broad"):
        assert np.isfinite(roles.scores[role]).all(), role
    assert roles.top("previous", 1)[0].score > 0.8  # layer 0 has a previous-token head
    assert len([x for x in roles.to_csv().splitlines() if not x.startswith("#")]) == 1 + 72
    with pytest.raises(ValueError, match="causal language model"):  # no next-token head: nothing to prove on
        role_proof.prove(hf_ablation.load(None), roles, "previous")


@pytest.fixture(scope="module")
def smollm2_roles(smollm2) -> head_roles.HeadRoles:
    return attention.head_roles(attention.SMOLLM2, seed=0, length=12)  # the session's loaded model


def test_smollm2_has_its_known_induction_heads_and_sinks(smollm2_roles):
    roles = smollm2_roles
    assert roles.shape == (30, 9) and roles.causal and roles.kind == "decoder" and not roles.notes
    assert roles.length == 12 and roles.tokens[roles.start:roles.start + 12] == roles.tokens[roles.start + 12:]
    top = roles.top("induction", 3)
    assert ("decoder", 18, 6) in [h for h, _ in top]
    assert roles.scores["induction"][18, 6] > 0.5 and roles.scores["induction"][17, 4] > 0.5
    assert roles.sink_rate > 0.7  # most heads park more than 0.3 of their weight on the first token


def test_switching_induction_heads_off_hurts_more_than_random_heads(smollm2, smollm2_roles):
    proof = role_proof.prove(smollm2, smollm2_roles, "induction", ks=(1, 3, 5), draws=6, probes=2)
    assert proof.ranked[0] == ("decoder", 18, 6)
    assert proof.random_loss.shape == (3, 6)
    assert all(len(d) == k for per_k, k in zip(proof.random_heads, proof.ks) for d in per_k)
    assert not set(proof.ranked) & {h for per_k in proof.random_heads for d in per_k for h in d}
    # judged against the random draws: above every one of them, and by several of their deviations
    assert (proof.top_loss > proof.random_loss.max(axis=1)).all(), proof.rows()
    assert (proof.z() > 3).all(), proof.rows()
    assert proof.top_loss[-1] > proof.base_loss


def test_switching_previous_token_heads_off_hurts_more_than_random_heads(smollm2, smollm2_roles):
    proof = attention.head_role_proof(role="previous", ks=(1, 3), draws=5, probes=2)
    assert proof.ranked[0] == smollm2_roles.top("previous", 1)[0].head
    assert (proof.top_loss > proof.random_loss.max(axis=1)).all(), proof.rows()


def test_the_proofs_loss_is_the_models_own_cross_entropy_on_the_repeated_half(smollm2):
    """With no head off, the loss the proof reads is torch's cross-entropy of transformers' own logits on the
    guessable tokens of the second copy (its first token cannot be guessed), and a head off changes it."""
    import torch

    from attention.analysis import role_probes

    text = role_probes.text(seed=3, length=12)
    ids = smollm2.tokenizer(text, return_tensors="pt")["input_ids"]
    where = role_probes.layout(smollm2.tokenizer.convert_ids_to_tokens(ids[0].tolist()), 12)
    with torch.inference_mode():
        logits = smollm2.model(input_ids=ids).logits[0].double()  # (T, vocab)
    guessable = torch.arange(where.start + where.length + 1, where.start + 2 * where.length)
    want = float(torch.nn.functional.cross_entropy(logits[guessable - 1], ids[0, guessable]))
    base, off = role_proof._repeat_losses(smollm2, text, 12, [frozenset(), frozenset({("decoder", 18, 6)})])
    assert abs(base - want) < 1e-5, (base, want)
    assert off > base + 0.1  # the best induction head off: the repeat is guessed worse
