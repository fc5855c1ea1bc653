"""Where q, k, v come from, on a grouped-query model (tiny Llama: 4 query heads over 2 key/value heads):
W_K and W_V hold fewer rows than W_Q, so query head h reads key/value group h·2 // 4."""

from dataclasses import replace

import numpy as np
import pytest
import torch

from attention.capture import hf_model, projections
from harness import tiny_families

POS = 2


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    folder = tmp_path_factory.mktemp("llama-gqa")
    tiny_families.build("llama-gqa", tiny_families.tokenizer(), folder)
    lm = hf_model.read_model(str(folder))
    return lm, hf_model.trace_batch(lm, ["the black cat drank the milk"])[0]


@pytest.mark.model
def test_every_head_of_a_grouped_query_model_is_answered_without_an_error(llama):
    lm, tr = llama
    for site in tr.sites:
        for head in range(site.n_heads):  # heads 2 and 3 read rows past W_K's end before the fix
            projections.origin(lm, tr, site, head, POS)  # None: Llama normalises and rotates x first


@pytest.mark.model
def test_query_head_h_is_rebuilt_from_key_value_group_h_times_groups_over_heads(llama):
    """A site whose q, k, v are exactly x·Wᵀ (the model's norm and rotation left out) is recognised
    only when W_K and W_V are read at the group's rows."""
    lm, tr = llama
    site = tr.site(1, "decoder")
    module = dict(lm.model.named_modules())[site.name]
    x = tr.layer_inputs["encoder"][site.layer][POS]  # a decoder-only model's stream is kept as one side
    d = site.d_head
    q, k, v = (np.array(a) for a in (site.q, site.k, site.v))
    with torch.no_grad():
        for head in range(site.n_heads):
            group = head * 2 // 4
            for arr, proj, h in ((q, module.q_proj, head), (k, module.k_proj, group), (v, module.v_proj, group)):
                w = proj.weight[h * d:(h + 1) * d].numpy()
                b = 0 if proj.bias is None else proj.bias[h * d:(h + 1) * d].numpy()
                arr[head, POS] = w @ x + b
    plain = replace(site, q=q, k=k, v=v)
    for head in range(site.n_heads):
        found = projections.origin(lm, tr, plain, head, POS)
        assert found is not None and found.max_diff < 1e-5, head
