"""The Write page read as a learner reads it (issue 46), in both languages: a colour legend under the
head view, the step shown named plainly, a warning before Next word replaces later words, and greedy
mode said to ignore temperature."""

import html
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from tests.pages.head_views import head_views

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
PROMPT = "The black cat drank the milk because it was"


def open_write(lang: str = "en", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/write.py")
    at.query_params["lang"] = lang
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def legends(at: AppTest) -> list[str]:
    return [html.unescape(el.proto.body) for el in at.get("html") if "hv-legend" in el.proto.body]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_head_view_has_a_legend_that_says_what_dark_blue_means_in_s_and_in_a(smollm2, lang):
    at = open_write(lang)
    at.button(key="wr_next").click().run()
    assert not at.exception and not at.error
    shown = legends(at)
    assert len(shown) == 1, "one legend under the head view"
    view = head_views(at)[0]
    s = view["numbers"]["S"][~view["numbers"]["masked"]]
    m = f"{np.abs(s).max():.1f}"
    body = shown[0]
    for title in ("headview.S", "headview.A", "headview.Z"):
        assert i18n.t(title, lang) in body
    assert f"<span>−{m}</span>" in body and f"<span>{m}</span>" in body  # S's ends: this head's largest |q·k|
    assert i18n.t("legend.opposite", lang) in body  # dark blue: very negative in S, near 1 in A
    assert i18n.t("legend.masked", lang) in body  # causal: the grey of the later words
