"""The app through Streamlit's AppTest: every page runs, and each control changes what is drawn."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention.ui.matrices import _on_click

TIMEOUT = 120
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def start(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def heat(spec: dict) -> dict:
    return spec["data"][0]


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_home_page_draws_three_matrices_without_exception():
    at = start()
    assert not at.exception
    specs = charts(at)
    assert len(specs) == 3
    ticks = specs[0]["layout"]["xaxis"]["ticktext"]
    assert ticks == ["[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]"]
    assert "Nothing selected" in "\n".join(i.value for i in at.info)


def test_changing_sentence_layer_and_head_changes_the_drawing():
    at = start()
    before = heat(charts(at)[1])["z"]
    at.session_state["layer"] = 3
    at.run()
    after_layer = heat(charts(at)[1])["z"]
    at.session_state["head"] = 7
    at.run()
    after_head = heat(charts(at)[1])["z"]
    assert before != after_layer != after_head
    at.text_area(key="text").set_value("A ball is blue").run()
    assert charts(at)[0]["layout"]["xaxis"]["ticktext"] == ["[CLS]", "a", "ball", "is", "blue", "[SEP]"]
    assert not at.exception


def test_selection_drives_highlight_and_detail_panel_and_survives_head_change():
    at = start()
    at.session_state["sel_q"] = 6
    at.session_state["sel_k"] = 4
    at.run()
    assert "milk" in markdown(at) and "drank" in markdown(at)
    assert len(charts(at)[1]["layout"]["shapes"]) == 3
    labels = [m.label for m in at.metric]
    assert labels == ["q·k (raw S)", "scaled score", "weight (A)"]
    at.session_state["head"] = 5
    at.run()
    assert at.session_state["sel_q"] == 6 and at.session_state["sel_k"] == 4
    assert len(charts(at)[1]["layout"]["shapes"]) == 3
    assert at.query_params["q"] == "6" and at.query_params["head"] == "5"


def test_click_callback_copies_the_point_into_session_state():
    # the callback is a plain function of session state; run it the way Streamlit would
    import streamlit as st

    from attention.ui import state

    fake = {"explore_A": {"selection": {"points": [{"customdata": [2, 3]}]}}, "sel_q": None, "sel_k": None}
    original = st.session_state
    try:
        st.session_state = fake  # type: ignore[misc]
        _on_click("explore_A", state.EXPLORE_SCOPE)
        assert state.get_selection().cell == (2, 3)
    finally:
        st.session_state = original  # type: ignore[misc]


def test_url_reopens_the_same_view():
    at = start(text="I saw her duck", layer="2", head="4", q="3", k="2")
    assert not at.exception
    assert at.session_state["layer"] == 2 and at.session_state["head"] == 4
    assert charts(at)[0]["layout"]["xaxis"]["ticktext"] == ["[CLS]", "i", "saw", "her", "duck", "[SEP]"]
    assert "her" in markdown(at) and "saw" in markdown(at)


@pytest.mark.parametrize(
    "text, expect",
    [
        ("", "info"),
        ("   \n ", "info"),
        ("word " * 800, "warning"),
        ("<b>bold</b> <script>alert(1)</script> <img src=x onerror=alert(1)>", None),
        ("猫喝了牛奶 🐱🐱", None),
        ("!!! ??? ...", None),
    ],
)
def test_odd_input_gets_a_message_or_a_drawing_never_an_exception(text, expect):
    at = start()
    at.text_area(key="text").set_value(text).run()
    assert not at.exception
    if expect == "info":
        assert at.info and not charts(at)
    elif expect == "warning":
        assert any("dropped" in w.value for w in at.warning)
        assert len(charts(at)) == 3
    else:
        assert len(charts(at)) == 3
    at.text_area(key="text").set_value("The ball is blue").run()  # and the app still works after it
    assert not at.exception and len(charts(at)) == 3


def test_bad_model_folder_is_a_clear_error(tmp_path):
    at = start()
    at.sidebar.text_input(key="model_path").set_value(str(tmp_path / "nowhere")).run()
    assert not at.exception
    assert any("nowhere" in e.value for e in at.error)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explanations_run_in_both_languages(lang):
    at = start(lang=lang, q="6", k="4")
    assert not at.exception
    from attention import i18n

    # one explanation at a time: only the open one is built
    assert at.radio(key="explore_tab").options == [i18n.t(f"tab.{n}", lang) for n in ("dot", "sum", "steps", "space",
                                                                                        "origin")]
    assert i18n.t("dot.explain", lang, q="`milk`", k="`drank`") in markdown(at)
    assert i18n.t("sum.explain", lang, q="`milk`") not in markdown(at)
    for name, key in (("sum", "sum.explain"), ("origin", "origin.explain"), ("space", "space.explain"),
                      ("steps", "steps.explain")):
        at.radio(key="explore_tab").set_value(name).run()
        assert not at.exception
        assert i18n.t(key, lang, q="`milk`") in markdown(at)
        assert i18n.t("dot.explain", lang, q="`milk`", k="`drank`") not in markdown(at)
    assert at.title[0].value == i18n.t("explore.title", lang)
    at.radio(key="explore_tab").set_value("space").run()
    space = next(c for c in charts(at) if any(tr.get("name") == "chosen" for tr in c["data"]))
    names = [tr.get("name") for tr in space["data"]]
    assert i18n.t("space.query", lang) in names and i18n.t("space.key", lang) in names
    assert any(str(n).startswith("to ") for n in names)  # "milk" sends lines to its strongest keys
    at.radio(key="explore_tab").set_value("steps").run()
    at.slider(key="explore_temperature").set_value(3.0).run()  # the temperature slider reruns cleanly
    assert not at.exception
    at.radio(key="explore_tab").set_value("dot").run()
    at.selectbox(key="explore_dot_other").set_value(2).run()  # compare milk·drank with milk·black
    assert "**`milk` · `black`**" in markdown(at)
    # AppTest drops sidebar widget values across page switches (a real browser keeps them, see
    # tests/e2e/test_explain_browser.py), so open the second page from a link, as a person would.
    at = start(lang=lang, q="6", k="4")
    at.switch_page("views/find_heads.py")
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    assert at.title[0].value == i18n.t("relevance.title", lang)
    assert len(at.dataframe[0].value) == 72


def test_relevance_page_ranks_heads_for_the_chosen_pair():
    at = start(q="6", k="4")
    at.switch_page("views/find_heads.py").run()
    table = at.dataframe[0].value
    weights = list(table[table.columns[2]])
    assert weights == sorted(weights, reverse=True)
    assert at.selectbox(key="rel_query").value == 6 and at.selectbox(key="rel_key").value == 4


def test_chart_toolbar_downloads_png_or_svg_as_chosen():
    at = start()
    assert json.loads(at.get("plotly_chart")[0].proto.config)["toImageButtonOptions"]["format"] == "png"
    at.sidebar.radio(key="image_format").set_value("svg").run()
    assert not at.exception
    for chart in at.get("plotly_chart"):
        assert json.loads(chart.proto.config)["toImageButtonOptions"]["format"] == "svg"


def test_whole_words_switch_draws_merged_weights_that_still_sum_to_one():
    import base64

    import numpy as np

    at = start(text="The tokenization cat drank the milk")
    assert "##ization" in charts(at)[1]["layout"]["xaxis"]["ticktext"]  # the word is split into pieces
    at.toggle(key="merge_words").set_value(True).run()
    assert not at.exception
    merged = [c for c in charts(at) if "tokenization" in c["layout"]["xaxis"]["ticktext"]]
    assert len(merged) == 1
    z = merged[0]["data"][0]["z"]
    arr = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(
        [int(d) for d in str(z["shape"]).split(",")])
    np.testing.assert_allclose(arr.sum(axis=1), 1.0, atol=1e-5)
    assert any("sum over its pieces" in c.value for c in at.caption)


def test_relevance_page_with_whole_words_lists_words_and_keeps_the_token_selection():
    at = start(text="the unbelievably black cat drank the milk", q="3", k="8")  # q: "##bel", k: "cat"
    at.switch_page("views/find_heads.py").run()
    at.toggle(key="merge_words").set_value(True).run()
    assert not at.exception
    picker = at.selectbox(key="rel_query")
    assert "unbelievably (2)" in picker.options and picker.value == 2  # the word "##bel" belongs to
    assert at.selectbox(key="rel_key").value == 4  # [CLS] the unbelievably black cat
    assert any("Whole words" in c.value for c in at.caption)
    assert at.session_state["sel_q"] == 2 and at.session_state["sel_k"] == 8  # a word's first piece: "un"
    import attention
    from attention.analysis import word_merge

    table = at.dataframe[0].value
    layer, head, weight = (table[c].iloc[0] for c in table.columns[:3])
    merged, _, _ = word_merge.merged_weights(attention.trace("the unbelievably black cat drank the milk").site(layer))
    assert weight == pytest.approx(round(float(merged[head, 2, 4]), 4))  # unbelievably → cat, between words


def test_every_head_at_once_opens_the_overview_on_the_same_sentence():
    at = start(text="the cat saw the dog")
    at.button(key="to_overview_model").click().run()
    assert not at.exception
    assert at.radio(key="overview_source").value == "model"
    assert at.text_area(key="text").value == "the cat saw the dog"
    assert len(json.loads(at.get("plotly_chart")[0].proto.spec)["data"]) > 72  # the grid of 72 heads


def test_a_as_lines_replaces_the_heatmap_and_keeps_the_selection():
    at = start(q="6")  # "milk"
    at.toggle(key="explore_as_lines").set_value(True).run()
    assert not at.exception
    lines = next(c for c in charts(at) if "A as lines" in c["layout"]["title"]["text"])
    assert any(tr.get("name") == "chosen" for tr in lines["data"])  # milk's lines stand out
    assert not any("A = softmax" in c["layout"]["title"]["text"] for c in charts(at))  # the heatmap gave way
    long = start(text="word " * 100)
    assert long.toggle(key="explore_as_lines").disabled  # 102 tokens: too many words to line up
