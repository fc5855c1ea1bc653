"""The app through Streamlit's AppTest: every page runs, and each control changes what is drawn."""

import json

import pytest

from tests.pages.explore_app import charts, markdown, start
from tests.pages.head_views import head_views, panel_parts, panel_texts

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)


def test_home_page_draws_three_matrices_without_exception():
    at = start()
    assert not at.exception
    views = head_views(at)
    assert len(views) == 1 and not charts(at)  # S, A, Z and lines in one browser view, no plotly matrices
    assert views[0]["key_tokens"] == ["[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]"]
    assert views[0]["numbers"]["A"].shape == (8, 8) and views[0]["numbers"]["Z"].shape == (8, 32)
    assert "Nothing selected" in "\n".join(panel_texts(at))  # the detail panel, drawn by the browser


def test_changing_sentence_layer_and_head_changes_the_drawing():
    at = start()
    import numpy as np

    before = head_views(at)[0]["numbers"]["A"]
    at.session_state["layer"] = 3
    at.run()
    after_layer = head_views(at)[0]["numbers"]["A"]
    at.session_state["head"] = 7
    at.run()
    after_head = head_views(at)[0]["numbers"]["A"]
    assert not np.array_equal(before, after_layer) and not np.array_equal(after_layer, after_head)
    assert (head_views(at)[0]["layer"], head_views(at)[0]["head"]) == (3, 7)
    at.text_area(key="text").set_value("A ball is blue").run()
    assert head_views(at)[0]["key_tokens"] == ["[CLS]", "a", "ball", "is", "blue", "[SEP]"]
    assert not at.exception



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
        assert at.info and not head_views(at)
    elif expect == "warning":
        assert any("dropped" in w.value for w in at.warning)
        assert len(head_views(at)) == 1
    else:
        assert len(head_views(at)) == 1
    at.text_area(key="text").set_value("The ball is blue").run()  # and the app still works after it
    assert not at.exception and len(head_views(at)) == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_bad_model_folder_is_a_clear_error_in_the_pages_language(tmp_path, lang):
    at = start(lang=lang)
    at.sidebar.text_input(key="model_path").set_value(str(tmp_path / "nowhere")).run()
    assert not at.exception
    said = [e.value for e in at.error if "nowhere" in e.value]
    assert len(said) == 1
    assert ("Cannot load a model" in said[0]) == (lang == "en"), said  # no English sentence on the Chinese page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_explanations_run_in_both_languages(lang):
    at = start(lang=lang, q="6", k="4")
    assert not at.exception
    from attention import i18n

    # one explanation at a time: only the open one is built
    assert at.radio(key="explore_tab").options == [i18n.t(f"tab.{n}", lang) for n in ("dot", "sum", "steps", "space",
                                                                                        "origin")]
    assert i18n.t("dot.explain", lang, q="`milk`", k="`drank`") in panel_texts(at, "explain")  # drawn by the browser
    assert i18n.t("sum.explain", lang, q="`milk`") not in markdown(at)
    assert i18n.t("capture.registry", lang) in [c.value for c in at.caption]  # Trace.capture_path, translated
    for name, key in (("sum", "sum.explain"), ("origin", "origin.explain"), ("space", "space.explain"),
                      ("steps", "steps.explain")):
        at.radio(key="explore_tab").set_value(name).run()
        assert not at.exception
        assert i18n.t(key, lang, q="`milk`") in markdown(at)
        assert not panel_parts(at).get("explain")  # q·k closed: its blocks are not made
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
    assert panel_texts(at, "dot-1")[0] == "**`milk` · `black`**"
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
    at = start(q="6", k="4")
    at.radio(key="explore_tab").set_value("sum").run()  # a Plotly explanation (q·k is drawn in the page's own)
    assert json.loads(at.get("plotly_chart")[0].proto.config)["toImageButtonOptions"]["format"] == "png"
    at.sidebar.radio(key="image_format").set_value("svg").run()
    assert not at.exception
    for chart in at.get("plotly_chart"):
        assert json.loads(chart.proto.config)["toImageButtonOptions"]["format"] == "svg"


def test_whole_words_switch_draws_merged_weights_that_still_sum_to_one():
    import base64

    import numpy as np

    at = start(text="The tokenization cat drank the milk")
    assert "##ization" in head_views(at)[0]["key_tokens"]  # the word is split into pieces
    at.toggle(key="merge_words").set_value(True).run()
    assert not at.exception
    merged = [c for c in charts(at) if "tokenization" in c["layout"]["xaxis"]["ticktext"]]
    assert len(merged) == 1
    z = merged[0]["data"][0]["z"]
    arr = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"]).reshape(
        [int(d) for d in str(z["shape"]).split(",")])
    np.testing.assert_allclose(arr.sum(axis=1), 1.0, atol=1e-5)
    assert any("sum over its pieces" in c.value for c in at.caption)
    import attention

    a = attention.trace("The tokenization cat drank the milk").site(0).weights[0].astype(np.float64)  # layer 0, head 0
    assert merged[0]["layout"]["xaxis"]["ticktext"] == ["[CLS]", "the", "tokenization", "cat", "drank", "the", "milk",
                                                        "[SEP]"]
    # by hand: token ##ization are tokens 2 and 3; a query word's rows averaged, a key word's columns summed
    np.testing.assert_allclose(arr[2, 3], (a[2, 4] + a[3, 4]) / 2, atol=1e-6)  # tokenization → cat
    np.testing.assert_allclose(arr[3, 2], a[4, 2] + a[4, 3], atol=1e-6)  # cat → tokenization
    np.testing.assert_allclose(arr[2, 2], (a[2, 2] + a[2, 3] + a[3, 2] + a[3, 3]) / 2, atol=1e-6)
    np.testing.assert_allclose(arr[5, 6], a[6, 7], atol=1e-6)  # whole words stay as they were


def test_whole_words_chart_of_a_long_text_hovers_in_the_chosen_language():
    from attention import i18n

    at = start(lang="zh", text=" ".join(["the black cat drank the milk"] * 12))  # 72 words: hover by position
    at.toggle(key="merge_words").set_value(True).run()
    assert not at.exception
    merged = charts(at)[0]
    assert merged["layout"]["title"]["text"] == i18n.t("words.title", "zh")
    assert merged["data"][0]["hovertemplate"].startswith(f"{i18n.t('chart.query', 'zh')} %{{y}} · "
                                                         f"{i18n.t('chart.key', 'zh')} %{{x}}")


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
    import numpy as np

    import attention

    table = at.dataframe[0].value
    tr = attention.trace("the unbelievably black cat drank the milk")
    assert tr.tokens[2:7] == ("un", "##bel", "##ie", "##va", "##bly") and tr.tokens[8] == "cat"
    # between whole words, by hand: the key word's pieces summed (cat is one), the query word's rows averaged
    by_hand = {(layer, head): float(np.mean(tr.site(layer).weights[head, 2:7, 8])) for layer in range(6)
               for head in range(12)}
    best = max(by_hand, key=by_hand.get)
    layer, head, weight = (table[c].iloc[0] for c in table.columns[:3])
    assert (layer, head) == best and weight == pytest.approx(round(by_hand[best], 4))  # unbelievably → cat
    shown = {(r[0], r[1]): r[2] for r in table.itertuples(index=False)}
    assert all(shown[lh] == pytest.approx(round(w, 4), abs=1e-4) for lh, w in by_hand.items())


def test_every_head_at_once_opens_the_overview_on_the_same_sentence():
    at = start(text="the cat saw the dog")
    at.button(key="to_overview_model").click().run()
    assert not at.exception
    assert at.radio(key="overview_source").value == "model"
    assert at.text_area(key="text").value == "the cat saw the dog"
    assert len(json.loads(at.get("plotly_chart")[0].proto.spec)["data"]) > 72  # the grid of 72 heads
