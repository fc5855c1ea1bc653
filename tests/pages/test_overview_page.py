"""The Overview page through AppTest, on the real default model (all-MiniLM-L6-v2: 6 layers × 12 heads)."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.pages.clicks import click_chart
from tests.pages.head_views import head_views

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

TIMEOUT = 180
APP = str(Path(__file__).resolve().parents[2] / "app.py")
SPLIT = "the unbelievably black cat drank the milk"  # "unbelievably" is un ##bel ##ie ##va ##bly


def overview(text: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    if text is not None:
        at.session_state["text"] = text
    at.switch_page("views/overview.py").run()
    assert not at.exception
    return at


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def grid(at: AppTest) -> dict:
    return charts(at)[0]


def named(spec: dict, name: str) -> dict:
    return next(t for t in spec["data"] if t.get("name") == name)


def thumbnail_shape(spec: dict) -> str:
    return named(spec, "L0 H0")["z"]["shape"]


def test_page_draws_the_grid_the_table_and_the_rollout():
    at = overview()
    specs = charts(at)
    assert len(specs) == 2  # the grid, the rollout
    clicks = named(specs[0], "heads")["customdata"]
    assert len(clicks) == 72 and clicks[0] == [0, 0] and clicks[13] == [1, 1]
    assert thumbnail_shape(specs[0]) == "8, 8"  # [CLS] the black cat drank the milk [SEP]
    assert specs[1]["layout"]["xaxis"]["ticktext"] == ["[CLS]", "the", "black", "cat", "drank", "the", "milk", "[SEP]"]
    table = at.dataframe[0].value
    assert len(table) == 72 and "entropy (nats)" in table.columns
    assert at.text_area(key="text").value == "The black cat drank the milk"


def test_whole_words_toggle_changes_the_grid_and_says_how():
    at = overview(SPLIT)
    before = grid(at)
    assert thumbnail_shape(before) == "13, 13"
    at.toggle(key="merge_words").set_value(True).run()
    assert not at.exception
    after = grid(at)
    assert thumbnail_shape(after) == "9, 9"
    assert named(before, "L0 H0")["z"] != named(after, "L0 H0")["z"]
    assert "unbelievably" in charts(at)[1]["layout"]["xaxis"]["ticktext"]
    captions = " ".join(c.value for c in at.caption)
    assert "summed" in captions and "averaged" in captions


def test_ordering_by_a_statistic_reorders_the_grid_and_the_table():
    at = overview()
    model_order = named(grid(at), "titles")["text"]
    assert model_order[:3] == ["L0 H0", "L0 H1", "L0 H2"]
    at.selectbox(key="overview_order").set_value("previous_share").run()
    assert not at.exception
    by_previous = named(grid(at), "titles")["text"]
    assert sorted(by_previous) == sorted(model_order) and by_previous != model_order
    table = at.dataframe[0].value
    shares = table["share on previous token"].tolist()
    assert shares == sorted(shares, reverse=True)
    assert by_previous[0] == f"L{table['layer'].iloc[0]} H{table['head'].iloc[0]}"
    at.toggle(key="overview_ascending").set_value(True).run()
    table = at.dataframe[0].value
    assert table["share on previous token"].tolist() == sorted(shares)
    assert named(grid(at), "titles")["text"][0] == f"L{table['layer'].iloc[0]} H{table['head'].iloc[0]}"


def test_a_clicked_thumbnail_opens_explore_on_that_head_and_the_sentence_survives():
    at = overview("the cat saw the dog")
    click_chart(at, "overview_grid", [2, 5], trace="heads")  # layer 2, head 5: swapped, both would exist
    assert not at.exception
    assert at.title[0].value == "Explore attention"  # the click opened Explore
    assert at.selectbox(key="layer").value == 2 and at.selectbox(key="head").value == 5
    assert at.text_area(key="text").value == "the cat saw the dog"
    assert [(v["layer"], v["head"]) for v in head_views(at)] == [(2, 5)]  # Explore's head view
    assert at.query_params["layer"] == "2" and at.query_params["head"] == "5"


def test_a_click_on_the_rollout_selects_that_word_everywhere():
    at = overview()
    click_chart(at, "overview_rollout", [6, -1], trace="query words")  # the row word "milk"
    assert not at.exception
    assert at.session_state["sel_q"] == 6 and at.selectbox(key="overview_word").value == 6
    highlight = named(grid(at), "highlight")  # the grid outlines milk's row in every thumbnail
    assert highlight["y"][0] == named(grid(at), "L0 H0")["y0"] + 6 - 0.5
    click_chart(at, "overview_rollout", [0, 0], trace="cells")  # the first cell: [CLS]
    assert at.session_state["sel_q"] == 0 and at.selectbox(key="overview_word").value == 0


def test_picking_a_word_outlines_its_row_and_selects_it_everywhere():
    at = overview()
    at.selectbox(key="overview_word").set_value(6).run()  # "milk"
    assert not at.exception
    assert at.session_state["sel_q"] == 6
    assert "highlight" in [t.get("name") for t in grid(at)["data"]]
    assert len(charts(at)[1]["layout"]["shapes"]) == 1  # the rollout outlines the same row


def test_blank_text_gets_the_explore_message():
    at = overview("   ")
    assert not charts(at)
    assert "Type a sentence" in at.info[0].value


def test_export_buttons_are_offered():
    at = overview()
    labels = [b.proto.label for b in at.get("download_button")]
    assert any(".csv" in s for s in labels) and any(".npz" in s for s in labels) and any(".json" in s for s in labels)


def test_every_kind_of_an_encoder_decoder_model_draws(tmp_path):
    import torch
    import transformers as tf
    from transformers import AutoModel, AutoTokenizer

    from attention.capture import hf_model

    torch.manual_seed(0)
    config = tf.BartConfig(
        d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4, decoder_attention_heads=4,
        encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64, vocab_size=30522, pad_token_id=0,
        bos_token_id=101, eos_token_id=102, decoder_start_token_id=101)
    AutoModel.from_config(config).save_pretrained(tmp_path)
    AutoTokenizer.from_pretrained(hf_model.default_model_path()).save_pretrained(tmp_path)
    at = overview("the unbelievably black cat")
    for kind in ("encoder", "decoder", "cross"):
        # AppTest drops the sidebar's widget values on a page switch: set the folder before every run
        at.session_state["model_path"] = str(tmp_path)
        at.run()
        at.selectbox(key="overview_kind").set_value(kind)
        at.toggle(key="merge_words").set_value(kind != "decoder")
        at.session_state["model_path"] = str(tmp_path)
        at.run()
        assert not at.exception, kind
        assert len(named(grid(at), "heads")["customdata"]) == 8  # 2 layers × 4 heads
        has_rollout = len(charts(at)) == 2
        assert has_rollout == (kind == "encoder")
        if kind == "cross":
            assert any("No rollout for cross-attention" in i.value for i in at.info)
            assert "mean distance (tokens)" not in at.dataframe[0].value.columns  # it does not apply
            assert "distance" not in at.selectbox(key="overview_order").options
            assert any("two different sentences" in c.value for c in at.caption)


def translator_overview(text: str | None = None) -> AppTest:
    at = overview()
    if text is not None:
        at.session_state["tr_text"] = text
    at.radio(key="overview_source").set_value("translator").run()
    assert not at.exception
    return at


def test_the_translator_shows_every_kind_with_its_own_words():
    at = translator_overview("The black cat drank the milk.")
    assert "leche" in at.code[0].value  # the translation is shown above the grid
    assert at.text_input(key="tr_text").value == "The black cat drank the milk."
    seen = {}
    for kind in ("encoder", "decoder", "cross"):
        at.selectbox(key="overview_kind").set_value(kind).run()
        assert not at.exception, kind
        spec = grid(at)
        assert len(named(spec, "heads")["customdata"]) == 8  # 2 layers × 4 heads
        seen[kind] = [o for o in at.selectbox(key="overview_word").options]
        assert len(charts(at)) == (2 if kind == "encoder" else 1)  # rollout over the encoder only
        assert len(at.dataframe[0].value) == 8
    assert any("milk" in o for o in seen["encoder"])
    assert any("leche" in o for o in seen["decoder"]) and any("leche" in o for o in seen["cross"])
    assert any("No rollout for cross-attention" in i.value for i in at.info)
    # no whole-words switch: the tokens are words (the other toggles open the atlas and the Head roles section)
    assert {w.key for w in at.toggle} == {"overview_ascending", "overview_atlas", "overview_roles",
                                          "cvd_colours"}  # cvd: the sidebar
    assert "Translate page" in " ".join(c.value for c in at.caption)
    assert named(grid(at), "heads")["hovertext"][0].endswith("click: open it on the Translate page")
    labels = [b.proto.label for b in at.get("download_button")]
    assert any(".csv" in s for s in labels) and any(".npz" in s for s in labels) and any(".json" in s for s in labels)


def test_a_clicked_translator_thumbnail_opens_translate_on_that_head():
    at = translator_overview("The ball is blue.")
    at.selectbox(key="overview_kind").set_value("cross").run()
    click_chart(at, "overview_grid", [1, 2], trace="heads")
    assert not at.exception
    assert at.radio(key="tr_kind").value == "cross"
    assert at.selectbox(key="tr_layer").value == 1 and at.selectbox(key="tr_head").value == 2
    assert [(v["layer"], v["head"]) for v in head_views(at)] == [(1, 2)]
    assert at.text_input(key="tr_text").value == "The ball is blue."


def test_translator_sentence_without_words_gets_the_translate_message():
    at = translator_overview("   ")
    assert not charts(at)
    assert "Type an English sentence" in at.info[0].value


def test_ordering_by_distance_then_showing_cross_attention_falls_back_to_model_order():
    at = translator_overview()
    at.selectbox(key="overview_order").set_value("distance").run()
    at.selectbox(key="overview_kind").set_value("cross").run()
    assert not at.exception
    assert at.selectbox(key="overview_order").value == "model"
    assert named(grid(at), "titles")["text"][:2] == ["L0 H0", "L0 H1"]


def test_grid_and_rollout_words_are_in_the_chosen_language():
    from attention import i18n

    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.switch_page("views/overview.py")
    at.query_params["lang"] = "zh"
    at.run()
    assert not at.exception
    grid_spec, rollout = charts(at)
    assert named(grid_spec, "titles")["text"][13] == i18n.t("chart.head", "zh", layer=1, head=1)
    flat = rollout["layout"]["title"]["text"].replace("<br>", "").replace(" ", "")  # wrapped to the chart's width
    assert flat == i18n.t("overview.rollout_title", "zh").replace(" ", "")
