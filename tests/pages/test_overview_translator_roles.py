"""Overview → Head roles on the translator through AppTest: its three kinds of attention, each with the roles
that apply to it and the page saying why the others do not, in both languages; a click opens Translate."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import attention
from attention import i18n
from attention.ui.state import Keys
from tests.pages.clicks import click_chart

pytestmark = pytest.mark.model  # the translator's weights load
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_roles(lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("views/overview.py")
    at.query_params["lang"] = lang
    at.run()
    at.radio(key=Keys.OV_SOURCE).set_value("translator").run()
    at.toggle(key=Keys.OV_ROLES).set_value(True).run()
    assert not at.exception and not at.error
    return at


def infos(at: AppTest) -> str:
    return "\n".join(x.value for x in at.info)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_kind_gets_the_roles_that_apply_and_says_why_not_the_others(lang):
    at = open_roles(lang)
    assert at.radio(key=Keys.OV_ROLES_KIND).options == [i18n.t(f"kind.{k}", lang) for k in ("decoder", "encoder", "cross")]
    # the masked decoder: every role, nothing said to be missing
    induction = i18n.t("roles.name.induction", lang)
    assert induction in at.selectbox(key=Keys.OV_ROLE).options
    reasons = [i18n.t("roles.na.induction", lang), *(i18n.t(f"roles.na.cross.{r}", lang)
                                                      for r in ("previous", "duplicate", "induction", "local"))]
    assert not any(why in infos(at) for why in reasons)
    assert len(at.dataframe[-1].value) == 2 * 4  # 2 decoder layers × 4 heads
    probe = next(c.value for c in at.caption if "“the " in c.value)
    shipped = attention.head_roles("translator")  # the same probe, measured by the package
    assert f"“{shipped.text}”" in probe and f"“{shipped.target}”" in probe  # both sentences named
    # the encoder: no causal mask, no induction, and why
    at.radio(key=Keys.OV_ROLES_KIND).set_value("encoder").run()
    assert not at.exception and not at.error
    assert induction not in at.selectbox(key=Keys.OV_ROLE).options
    assert i18n.t("roles.na.induction", lang) in infos(at)
    # cross-attention: sink and broad only, each other role said not to apply, and why
    at.radio(key=Keys.OV_ROLES_KIND).set_value("cross").run()
    assert not at.exception and not at.error
    assert at.selectbox(key=Keys.OV_ROLE).options == [i18n.t("roles.name.sink", lang), i18n.t("roles.name.broad", lang)]
    for role in ("previous", "duplicate", "induction", "local"):
        assert i18n.t(f"roles.na.cross.{role}", lang) in infos(at)
    table = at.dataframe[-1].value
    assert list(table.columns) == [i18n.t(c, lang) for c in ("roles.layer", "roles.head", "roles.name.sink",
                                                             "roles.name.broad")]
    assert np.all((table.iloc[:, 2] >= 0) & (table.iloc[:, 2] <= 1))


def test_clicking_a_translator_head_opens_it_on_translate_with_the_english_probe():
    at = open_roles("en")
    at.radio(key=Keys.OV_ROLES_KIND).set_value("encoder").run()
    probe = next(c.value for c in at.caption if "“the " in c.value)
    click_chart(at, "overview_roles_grid", [1, 2])
    assert not at.exception and not at.error
    assert at.title[0].value == i18n.t("translate.title", "en")
    assert (at.session_state[Keys.TR_KIND], at.session_state[Keys.TR_LAYER], at.session_state[Keys.TR_HEAD]) == (
        "encoder", 1, 2)
    text = at.session_state[Keys.TR_TEXT]
    assert text.startswith("the ") and f"“{text}”" in probe
