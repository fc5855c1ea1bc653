"""The Write page's logit lens and attention sinks through AppTest, in both languages: one row per layer
plus the embedding, the output row the model's own next token, a layer picked in the lens opens in the
head view, and the sinks table gives each head of that layer its first-token weight and value share."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.plots.bar_table import read_table
from attention.ui.pages import write_lens
from attention.ui.state import Keys

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def open_write(lang: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/write.py")
    at.query_params["lang"] = lang
    for name, value in params.items():
        at.query_params[name] = value
    at.run()
    assert not any(k == "wr_lens_table" for k in keys_of(at))  # the lens costs a pass: off until asked for
    at.toggle(key=write_lens.LENS_ON).set_value(True)
    return at.run()


def sinks_table(at: AppTest, lang: str) -> dict[str, list[str]]:
    """The sinks table (an HTML table, plots/bar_table.py) as {column title: the cells' texts}."""
    for el in at.get("html"):
        head, rows = read_table(el.proto.body)
        if i18n.t("sinks.col_vw", lang) in head:
            return {title: [row[i] for row in rows] for i, title in enumerate(head)}
    raise AssertionError("no sinks table on the page")


def keys_of(at: AppTest) -> list[str]:
    return [getattr(d, "key", None) for d in at.dataframe]



@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lens_and_sinks_on_the_write_page(smollm2, lang):
    at = open_write(lang)
    assert not at.exception and not at.error
    heads = [h.value for h in at.subheader]
    assert i18n.t("lens.title", lang) in heads and i18n.t("sinks.title", lang) in heads
    lens = next(d.value for d in at.dataframe if i18n.t("lens.col_top", lang) in d.value.columns)
    assert len(lens) == 31  # the embedding and 30 layers, the last one the output
    top = lens[i18n.t("lens.col_top", lang)].tolist()
    assert top[-1] == "·the" and top[0] == "·was"  # the output predicts " the"; the embedding reads itself
    assert lens[i18n.t("lens.col_layer", lang)].iloc[-1] == i18n.t("lens.output", lang, layer=29)
    assert any(i18n.t("lens.settles", lang, token="·the", layer=29) == c.value for c in at.caption)
    final = lens[i18n.t("lens.col_final", lang, token="·the")]  # each layer's probability of " the"
    assert not final.isna().any() and final.iloc[-1] == lens[i18n.t("lens.col_p", lang)].iloc[-1]
    assert final.iloc[0] < 1e-6 and final.iloc[-5:].min() > 0.1  # nothing at the embedding, rising late
    sinks = sinks_table(at, lang)
    groups = [int(g) for g in sinks[i18n.t("sinks.col_group", lang)]]
    assert len(sinks) == 5 and groups == [0, 0, 0, 1, 1, 1, 2, 2, 2]  # five columns, a row per head
    weight = np.array(sinks[i18n.t("sinks.col_weight", lang)], float)
    share = np.array(sinks[i18n.t("sinks.col_vw", lang)], float)
    assert ((0 <= weight) & (weight <= 1) & (0 <= share) & (share <= 1)).all()
    assert (share <= weight + 1e-9).sum() >= 5  # the sink's small value: its share below its weight mostly


def test_a_layer_picked_in_the_lens_opens_in_the_head_view(smollm2):
    at = open_write("en")
    at.selectbox(key=write_lens.LENS_PICK).set_value(4).run()
    assert at.session_state[Keys.WR_LAYER] == 18  # picking alone changes nothing
    at.button(key="wr_lens_open").click().run()
    assert not at.exception
    assert at.session_state[Keys.WR_LAYER] == 4 and at.selectbox(key=Keys.WR_LAYER).value == 4
    assert any("Layer 4:" in c.value for c in at.caption)  # the sinks table follows the head view's layer


def test_the_lens_follows_the_step_shown(smollm2):
    at = open_write("en")
    at.button(key="wr_next").click().run()  # " the" written: the lens now reads after it
    assert any(i18n.t("lens.position", "en", pos=9, token="·the") == c.value for c in at.caption)
    lens = next(d.value for d in at.dataframe if "Top token" in d.value.columns)
    assert lens["Top token"].iloc[-1] == "·only"  # greedy's next word (test_write_page)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_lens_box_gives_the_runners_up_room_and_says_what_the_embedding_row_is(smollm2, lang):
    """#46 item 15: the runners-up get the widest column (they were cut), the others narrow ones, and the
    embedding row naming the current token itself is explained (“·was” read back as itself)."""
    import json

    at = open_write(lang)
    el = next(d for d in at.dataframe if i18n.t("lens.col_top", lang) in d.value.columns)
    columns = json.loads(el.proto.columns)
    assert columns[i18n.t("lens.col_next", lang)]["width"] == "large"
    assert columns[i18n.t("lens.col_top", lang)]["width"] == "small"
    p = f"{el.value[i18n.t('lens.col_p', lang)].iloc[0]:.3f}"
    assert i18n.t("lens.embedding_self", lang, token="·was", p=p) in [c.value for c in at.caption]


def test_a_token_rising_then_falling_is_explained():
    from types import SimpleNamespace as Row

    rows = [Row(layer=-1, labels=("·a", "·b"), probs=(1.0, 0.0)), Row(layer=0, labels=("·b", "·c"), probs=(0.97, 0.01)),
            Row(layer=1, labels=("·c", "·b"), probs=(0.6, 0.118)), Row(layer=2, labels=("·c", "·b"), probs=(0.7, 0.1))]
    notes = write_lens.lens_notes(rows, "·a")
    assert notes[0].startswith("The embedding row names the current token itself")
    assert "“·b” rises to 0.970 at layer 0 and later falls to 0.100" in notes[1]
    assert len(write_lens.lens_notes(rows, "·z")) == 1  # no embedding note when it names another token
