"""Overview → Head roles through AppTest: closed by default (nothing measured), then the grid coloured by
a role, the table sorted by it, the probe and the roles that do not apply, in both languages."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.state import Keys
from tests.pages.clicks import click_chart

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_overview(lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/overview.py")
    at.query_params["lang"] = lang
    return at.run()


def role_grid(at: AppTest) -> dict:
    return json.loads(at.get("plotly_chart")[-1].proto.spec)  # the section is the page's last


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_minilm_roles_grid_table_and_what_does_not_apply(lang):
    at = open_overview(lang)
    assert not at.exception
    assert at.subheader[-1].value == i18n.t("roles.title", lang)
    n_charts = len(at.get("plotly_chart"))
    at.toggle(key=Keys.OV_ROLES).set_value(True).run()
    assert not at.exception and not at.error
    assert len(at.get("plotly_chart")) == n_charts + 1
    # MiniLM has no causal mask: induction is not offered, and the page says why
    assert "induction" not in at.selectbox(key=Keys.OV_ROLE).options
    assert any(i18n.t("roles.na.induction", lang) in x.value for x in at.info)
    at.selectbox(key=Keys.OV_ROLE).set_value("previous").run()
    grid = role_grid(at)
    assert grid["layout"]["title"]["text"] == i18n.t("roles.grid_title", lang, role=i18n.t("roles.name.previous", lang))
    table = at.dataframe[-1].value
    assert len(table) == 72
    column = i18n.t("roles.name.previous", lang)
    assert list(table[column]) == sorted(table[column], reverse=True)  # sorted by the chosen role
    assert any(i18n.t("roles.formula.previous", lang) == c.value for c in at.caption)
    assert any("seed 0" in c.value or "种子 0" in c.value for c in at.caption)


def test_smollm2_roles_colour_the_grid_by_induction(smollm2):
    at = open_overview("en")
    at.toggle(key=Keys.OV_ROLES).set_value(True).run()
    at.radio(key=Keys.OV_ROLES_MODEL).set_value("smollm2").run()
    assert not at.exception and not at.error
    assert "induction" in at.selectbox(key=Keys.OV_ROLE).options  # a causal model: every role applies
    at.selectbox(key=Keys.OV_ROLE).set_value("induction").run()
    table = at.dataframe[-1].value
    assert len(table) == 270 and tuple(table.iloc[0][["layer", "head"]]) == (18, 6)
    assert not at.info or not any(i18n.t("roles.na.induction", "en") in x.value for x in at.info)


def test_clicking_a_head_opens_it_on_explore_with_its_probe(smollm2):
    """SmolLM2's top induction head, clicked in the grid: Explore shows that head of SmolLM2 on the probe
    (the stripe the score measured), not the sentence typed before."""
    at = open_overview("en")
    at.toggle(key=Keys.OV_ROLES).set_value(True).run()
    at.radio(key=Keys.OV_ROLES_MODEL).set_value("smollm2").run()
    probe = next(c.value for c in at.caption if "seed 0" in c.value)
    click_chart(at, "overview_roles_grid", [18, 6])
    assert not at.exception and not at.error
    assert at.title[0].value == i18n.t("explore.title", "en")
    assert (at.session_state[Keys.LAYER], at.session_state[Keys.HEAD]) == (18, 6)
    assert at.session_state[Keys.MODEL_PATH] == "smollm2" and at.session_state[Keys.TEXT] in probe
    assert any(c.value.startswith("SmolLM2-135M-Instruct") for c in at.caption)
