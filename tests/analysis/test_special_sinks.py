"""Special tokens in the detail panel: weight × ‖v‖ beside the weight, checked on the real model."""

import numpy as np
import pytest

from attention.analysis.details import top_keys


@pytest.mark.model
def test_weight_times_value_length_is_what_a_key_can_add_to_z():
    import attention

    tr = attention.trace("The black cat drank the milk")
    site = tr.site(2, "encoder")
    milk = tr.tokens.index("milk")
    top = top_keys(site, 0, milk, n=len(tr.tokens))
    for kw in top:
        length = np.linalg.norm(site.v[0, kw.key].astype(np.float64))
        assert abs(kw.moved - kw.weight * length) < 1e-9
        assert kw.special == (kw.token in ("[CLS]", "[SEP]"))
    # z is the sum of the weighted values: its length is at most the sum of these bounds
    assert np.linalg.norm(site.z[0, milk].astype(np.float64)) <= sum(kw.moved for kw in top) + 1e-4
    assert next(kw for kw in top if kw.token == "[CLS]").weight > 0.3  # the milk -> [CLS], layer 2 head 0
