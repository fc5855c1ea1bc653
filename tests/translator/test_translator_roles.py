"""The translator's head roles on its own probe: every word known, the decoder masked, the encoder and the
cross-attention given only the roles that apply to them."""

import numpy as np
import pytest

import attention
from attention.translator import load_model, roles, teacher_forced

pytestmark = pytest.mark.model  # reads the shipped weights


@pytest.fixture(scope="module")
def measured():
    return roles.measure(load_model())


def test_the_probe_is_in_the_translators_own_words():
    model = load_model()
    text, target = roles.probe(model)
    tr = teacher_forced(text, target, model).trace
    assert tr.unknown_words == () and tr.unknown_target_words == ()  # no <unk> on either side
    assert roles.probe(model) == (text, target) and roles.probe(model, seed=1) != (text, target)
    with pytest.raises(ValueError):
        roles.probe(model, length=40)  # 2 × 40 + 1 positions do not fit 64


def test_each_kind_gets_the_roles_that_apply(measured):
    dec, enc, cross = measured["decoder"], measured["encoder"], measured["cross"]
    assert dec.causal and dec.notes == {} and dec.tokens[0] == "<bos>" and (dec.start, dec.length) == (1, 12)
    assert not enc.causal and set(enc.notes) == {"induction"} and enc.tokens[0] == roles.PREFIX
    assert set(cross.notes) == {"previous", "duplicate", "induction", "local"}
    for r in (dec, enc, cross):
        assert r.shape == (2, 4)
        for role in ("sink", "broad"):
            assert np.all((r.scores[role] >= 0) & (r.scores[role] <= 1 + 1e-9))
    assert measured["decoder"].text == measured["cross"].text and dec.target.split()[:12] == dec.target.split()[12:]


def test_the_package_measures_each_kind_and_refuses_one_it_has_not(measured):
    got = attention.head_roles("translator", kind="encoder")
    assert np.allclose(got.scores["previous"], measured["encoder"].scores["previous"])
    assert attention.head_roles("translator").kind == "decoder"  # the default: the masked one
    with pytest.raises(ValueError):
        roles.measure(load_model(), kinds=("nope",))
