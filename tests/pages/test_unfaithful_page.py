"""The page says so when our recomputation and the model's own weights differ: the real model, its
captured weights shifted by 1e-3 at one place in layer 0."""

import dataclasses
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.capture import hf_model

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SHIFT = 1e-3


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_shifted_model_weight_is_an_error_on_the_page(lang, monkeypatch):
    real = hf_model.sites_for

    def shifted(*args):
        sites = list(real(*args))
        off = sites[0].model_weights.copy()
        off[3, 2, 1] += SHIFT  # layer 0, head 3: as if the model had used another weight
        sites[0] = dataclasses.replace(sites[0], model_weights=off)
        return tuple(sites)

    monkeypatch.setattr(hf_model, "sites_for", shifted)
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(lang=lang, text=f"the check sees a shifted weight ({lang})")  # a text no cache holds
    at.run()
    assert not at.exception
    assert [e.value for e in at.error] == [i18n.t("explore.unfaithful", lang, diff=f"{SHIFT:.2e}", tol="1e-05")]
    at.selectbox(key="layer").set_value(1).run()  # an untouched layer: nothing to warn about
    assert not at.exception and not at.error
