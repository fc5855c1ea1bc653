"""Write's "Why this word" through AppTest, in both languages: the button explains the next token, a
top head's button sets the head view's layer and head, the bars and the agreement in words; on a
two-token prompt the agreement sentence is NOT written. The answer is computed once per (ids, token)
for the whole module (the same numbers, each language drawing them)."""

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.state import Keys
from tests.pages.why_once import why_once

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
_memo: dict = {}


@pytest.fixture(autouse=True)
def once(monkeypatch):
    why_once(monkeypatch, _memo, 16)


def open_write(lang: str, prompt: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=600)
    at.switch_page("views/write.py")
    at.query_params["lang"] = lang
    at.query_params["prompt"] = prompt
    return at.run()


def captions(at) -> str:
    return "\n".join(c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_why_this_word_explains_and_a_head_button_shows_it(smollm2, lang):
    at = open_write(lang, "The black cat drank the milk because it was")
    assert not at.exception and not at.error
    assert any(s.value == i18n.t("why.title", lang) for s in at.subheader)
    at.button(key="wr_why_go").click().run()
    assert not at.exception and not at.error
    answer = at.session_state[Keys.WR_WHY][1]
    assert len(answer.heads) == 270
    (_, layer, head), _ = answer.top[1]
    at.button(key="wr_why_head_1").click().run()
    assert (at.session_state[Keys.WR_LAYER], at.session_state[Keys.WR_HEAD]) == (layer, head)
    assert at.session_state[Keys.WR_WHY][1] is answer  # the answer stays while the step does
    text = captions(at)
    assert "n = 9" in text and "ρ = " in text  # the agreement, earned by nine tokens
    assert i18n.t("why.gap", lang, steps=16, total="", delta="", gap="")[:12] in text
    assert any(str(b.label).startswith(i18n.t("why.head_option", lang, layer=layer, head=head, change="")[:8])
               for b in at.button)
    said = "\n".join([text, *(m.value for m in at.markdown), *(str(b.label) for b in at.button)])
    assert not re.search(r"(?<![\w.])-\d", said), said  # one minus sign (−) for every negative number
    for (_, layer, head), drop in answer.top:  # the change of log p with its sign said once: "−1.506", no "lost"
        want = i18n.t("why.head_option", lang, layer=layer, head=head, change=f"{-drop:+.3f}".replace("-", "−"))
        assert want in [str(b.label) for b in at.button]
    assert "lost" not in said and "损失" not in said


def test_a_two_token_prompt_gets_no_agreement_sentence(smollm2):
    at = open_write("en", "The cat")
    at.button(key="wr_why_go").click().run()
    assert not at.exception and not at.error
    text = captions(at)
    assert "Spearman" not in text and "no rank agreement is said" in text


ZH_PROMPT = "人类是我们"  # SmolLM2: "äºº" "ç±»" "æĺ¯" "æĪ" "ĳ" "ä»" "¬": 我 and 们 split over two tokens each


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_why_this_word_reads_a_chinese_prompt_as_the_written_steps_do(smollm2, lang):
    """#46 item 7: the attribution chart, the button and the KV caption read the byte pieces together, by
    the same function as the steps and bars (token_text): "我…", "…我", never "ä»" or "⟨91⟩", and "·" for no byte."""
    from attention.analysis.token_text import candidate_labels, readable_tokens

    at = open_write(lang, ZH_PROMPT)
    raw = smollm2.tokenizer.convert_ids_to_tokens(smollm2.tokenizer(ZH_PROMPT, add_special_tokens=False)["input_ids"])
    words = readable_tokens(raw)
    assert words == ["人", "类", "是", "我…", "…我", "们…", "…们"], words
    said = captions(at)
    assert "`…们`" in said  # the newest row's token, as the steps write it (today's "¬")
    sinks = next(m.value for m in at.markdown if "StreamingLLM" in m.value)
    assert "…们" in sinks and "¬" not in sinks, sinks  # the attention-sink section names the same row
    at.button(key="wr_why_go").click().run()
    assert not at.exception and not at.error
    answer = at.session_state[Keys.WR_WHY][1]
    spec = next(json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.id.endswith("-wr_why_chart"))
    ticks = [x.strip() for x in spec["layout"]["yaxis"]["ticktext"]]
    assert ticks == words and list(answer.tokens) == raw
    assert not any(0x80 <= ord(c) <= 0xFF or c in "·\ufffd" for x in ticks for c in x), ticks
    token = candidate_labels(smollm2.tokenizer.convert_ids_to_tokens([answer.token_id]), raw)[0]
    assert f"`{token}`" in str(at.button(key="wr_why_go").label)
