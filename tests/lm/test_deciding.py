"""The deciding heads on SmolLM2: the ten likeliest tokens are the model's softmax, a measured drop is the
head really switched off (written out here), and the estimate is the mask's derivative (a finite difference)."""

import numpy as np
import pytest
import torch

from attention import head_mask
from attention.analysis import deciding_heads as dh
from attention.capture import hf_ablation
from attention.lm import deciding

pytestmark = pytest.mark.model
PROMPT = "The black cat drank the milk because it was"


def _log_p(lm, ids, token_id, off=frozenset(), keep_scale=None):
    sw = hf_ablation.switches(lm, [frozenset(off)]) if off else {}
    if keep_scale is not None:  # one head's keep set to keep_scale (a finite difference of the estimate)
        (kind, layer, h), scale = keep_scale
        module, nh, hs = hf_ablation._sites(lm)[(kind, layer)]
        keep = torch.ones(1, nh, 1, 1)
        keep[0, h] = scale
        sw = {id(module): head_mask.Switch(keep, torch.zeros(1, nh, 1, hs))}
    with head_mask.switched_off(sw), torch.inference_mode():
        logits = lm.model(input_ids=torch.tensor([ids])).logits[0, -1].double()
    return float(torch.log_softmax(logits, -1)[token_id])


def test_deciding_heads_on_smollm2_are_measured_and_estimated_as_said(smollm2):
    d = deciding.decide(smollm2, PROMPT)
    ids = smollm2.tokenizer(PROMPT)["input_ids"]
    with torch.inference_mode():
        probs = torch.softmax(smollm2.model(input_ids=torch.tensor([ids])).logits[0, -1].double(), -1).numpy()
    order = np.argsort(-probs)[:10]
    assert list(d.top_ids) == order.tolist()
    assert np.allclose(d.top_probs, probs[order], atol=1e-9)
    # float32 logits by another path (a batch, gradients on): equal to float32's precision at logits of ~20,
    # not to 1e-6 (one torch thread or two changes the last digits)
    assert d.token_id == d.top_ids[0] and abs(d.log_p - np.log(probs[order[0]])) < 1e-5
    assert len(d.picked) == dh.CANDIDATES == len(d.drops)
    (head, drop) = d.confirmed[0]
    assert abs(drop - (d.log_p - _log_p(smollm2, ids, d.token_id, {head}))) < 1e-4
    assert d.confirmed[0][1] >= d.confirmed[-1][1]
    best = d.heads[int(d.picked[0])]
    eps = 1e-3
    fd = (_log_p(smollm2, ids, d.token_id, keep_scale=(best, 1.0)) -
          _log_p(smollm2, ids, d.token_id, keep_scale=(best, 1.0 - eps))) / eps
    assert abs(fd - d.estimates[int(d.picked[0])]) < 0.05 * abs(fd) + 1e-3
    assert set(d.rows) == {h for h, _ in d.shown}
    for row in d.rows.values():
        assert row.shape == (len(ids),) and abs(row.sum() - 1) < 1e-5
    assert dh.decides(d.drops)  # on this prompt the leading head takes more than a tenth of the word's probability
