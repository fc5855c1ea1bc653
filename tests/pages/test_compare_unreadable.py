"""Change one word in Chinese on the default model (issue 52): MiniLM reads "我今天早上喝了一杯热茶。" as
[UNK]s, so the page says the model cannot read these characters (not "change a word") and offers SmolLM2,
which then sees the change."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.analysis.special_tokens import unknown_count
from attention.ui import state
from attention.ui.state import Keys

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
A, B = "我今天早上喝了一杯热茶。", "我今天早上喝了一杯冷茶。"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_minilm_says_it_cannot_read_chinese_and_offers_smollm2(lang, smollm2):
    at = AppTest.from_file(APP, default_timeout=600)
    at.query_params["lang"] = lang
    at.session_state[Keys.CMP_A], at.session_state[Keys.CMP_B] = A, B
    at.switch_page(state.PAGES["compare"].path)
    at.run()
    assert not at.exception
    said = [w.value for w in at.warning]
    head = i18n.t("compare.unreadable", lang).split("{")[0]
    assert any(head in w or w.startswith("all-MiniLM") for w in said), said
    assert not any(i.value.startswith(i18n.t("compare.identical", lang).split("{")[0]) for i in at.info)
    at.button(key="cmp_use_smollm2").click().run()
    assert not at.exception and at.session_state[Keys.CMP_MODEL] == "smollm2"
    assert not any(i18n.t("compare.unreadable", lang).split("{")[0] in w.value for w in at.warning)


def test_unknown_tokens_are_counted():
    assert unknown_count(["[CLS]", "[UNK]", "[UNK]", "。", "[SEP]"]) == 2 and unknown_count(["Ġcat", "<unk>"]) == 1
