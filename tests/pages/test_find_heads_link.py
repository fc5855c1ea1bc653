"""From Explore's detail panel to Find heads with the same pair; Find heads opens on a meaningful pair."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.analysis.head_links import default_pair
from tests.pages.clicks import click_component, click_dataframe_row
from tests.pages.head_views import head_views, panel_button, panel_table, panel_texts, selections

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.mark.parametrize("tokens, verbs, pair", [
    (["[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]"], {"drank"}, (6, 4)),
    (["the", "cat", "drank", "the", "black", "milk", "."], {"drank"}, (5, 2)),
    (["the", "cat", "drank", "the", "black", "milk", "."], set(), (5, 4)),  # no verb known: the word before
    (["<s>", "the", ".", "</s>"], set(), (0, 0)),
    (["the", "ball", "is", "blue", "."], set(), (3, 1)),
])
def test_default_pair_is_a_content_word_and_the_verb(tokens, verbs, pair):
    assert default_pair(tokens, verbs) == pair


def test_find_heads_opens_on_milk_and_drank_and_names_the_sentence():
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/find_heads.py").run()
    assert not at.exception
    assert at.selectbox(key="rel_query").value == 6 and at.selectbox(key="rel_key").value == 4
    said = " ".join(m.value for m in at.markdown)
    assert i18n.t("relevance.pair", "en", q="`milk`", k="`drank`", text="[CLS] the black cat drank the milk [SEP]") \
        in said


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_detail_panel_offers_find_heads_for_the_selected_pair(lang):
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params.update(q="6", k="4", layer="2", head="5", lang=lang)
    at.run()
    assert not at.exception
    assert panel_button(at) == i18n.t("relevance.explore_link", lang, q="milk", k="drank")
    click_component(at, "explore-head-panel-detail", "find_heads", 1)  # the button's trigger, as the browser sends it
    assert not at.exception
    assert at.selectbox(key="rel_query").value == 6 and at.selectbox(key="rel_key").value == 4
    assert i18n.t("relevance.title", lang) in [t.value for t in at.title]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_sink_is_explained_with_weight_times_value_length(lang):
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params.update(q="6", k="4", layer="2", head="0", lang=lang)
    at.run()
    assert not at.exception
    start = i18n.t("detail.special", lang, tok="`[CLS]`", w="0", m="0", word="w", ww="0", m_word="0").split("0")[0]
    notes = [text for text in panel_texts(at) if text.startswith(start[:20])]
    assert len(notes) == 1 and "[CLS]" in notes[0]
    columns, _ = panel_table(at)
    assert i18n.t("detail.col_moved", lang) in columns


def test_a_clicked_row_opens_that_head_in_explore_with_the_pair_selected():
    """The row's on_select callback, with the selection the browser sends; the third row, so a
    callback that always took the first (or swapped layer and head) would open another head."""
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/find_heads.py").run()
    table = at.dataframe[0].value
    layer, head = (int(table[c].iloc[2]) for c in table.columns[:2])
    assert (layer, head) != (int(table.iloc[0, 0]), int(table.iloc[0, 1]))
    click_dataframe_row(at, "rel_table", 2)
    assert not at.exception
    assert at.title[0].value == i18n.t("explore.title")
    assert (at.selectbox(key="layer").value, at.selectbox(key="head").value) == (layer, head)
    assert (at.session_state["sel_q"], at.session_state["sel_k"]) == (6, 4)  # milk → drank
    assert [(v["layer"], v["head"]) for v in head_views(at)] == [(layer, head)] and selections(at) == [(6, 4)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_find_heads_compares_with_a_third_word_and_names_the_rank_1_key(lang):
    """"rank of the key in the row = 2" said nothing of what was first ([CLS]), and nothing compared
    drank with black, which is the article's question."""
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params["lang"] = lang
    at.switch_page("views/find_heads.py").run()
    assert not at.exception
    said = " ".join(m.value for m in at.markdown)
    assert "`black`" in said and i18n.t("relevance.compare", lang).split("{q}")[0] in said
    table = at.dataframe[0].value
    assert i18n.t("relevance.col_other", lang, o="black") in table.columns
    second = table[table[i18n.t("relevance.col_rank", lang)] == 2]
    assert len(second) and set(second[i18n.t("relevance.col_top", lang)]) <= {"[CLS]", "[SEP]", "the", "black", "cat",
                                                                               "milk", "."}
    assert (table[table[i18n.t("relevance.col_rank", lang)] == 1][i18n.t("relevance.col_top", lang)] == "drank").all()
