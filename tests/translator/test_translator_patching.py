"""Change one word for the translator: attention.compare on two sources, and patching every head from
the run on B into the run on A (translator/head_patching.py)."""

import numpy as np
import pytest

import attention
from attention import sources
from attention.translator import head_patching

pytestmark = pytest.mark.model  # reads the translator's weights (tests/lanes.py)

A = "the black cat drank the milk ."
B = "the black dog drank the milk ."


@pytest.fixture(scope="module")
def cat_dog():
    return attention.compare(A, B, model="translator")


def test_both_translations_and_every_site_are_compared(cat_dog):
    assert cat_dog.output.kind == "translation" and "gato" in cat_dog.output.text_a and "perro" in cat_dog.output.text_b
    assert [(s.a, s.b) for s in cat_dog.alignment.changed] == [((2, 3), (2, 3))]
    assert cat_dog.grid().shape == (6, 4) and (cat_dog.grid() > 0).any()


def test_every_head_patched_ranks_and_all_at_once_restores_everything(cat_dog):
    seen = []
    p = cat_dog.patching(progress=lambda done, total: seen.append((done, total)))
    assert p.labels == ("gato", "perro") and seen == [(24, 24)] and len(p.ranked()) == 24
    assert np.isfinite(p.restored).all() and p.ranked()[0][1] > 0.1
    # every head's z at every aligned position: the decoder's stream is B's, so B's word's log-probability
    together = head_patching.patch_heads(sources.get("translator").kept("trace"), A, B, cat_dog.alignment,
                                         together=True)
    assert together.restored[0] == pytest.approx(1.0, abs=1e-6)


def test_identical_sources_leave_nothing_to_restore():
    same = attention.compare(A, A, model="translator")
    assert same.identical and (same.grid() == 0).all() and (same.grid("max_abs") == 0).all()
    p = same.patching()
    assert "no difference to restore" in p.note and p.ranked() == []
