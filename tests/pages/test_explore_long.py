"""Explore on SmolLM2 with a text longer than the head view draws cell by cell: the head is shown by the long
head view (pooled first, exact tiles, the selection's exact row and column: never every cell), and the selected
query's exact row as a table; the check's figure is z's."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.ui.head_view.long_view import EXACT_MAX

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
WORDS = "the cat sat on a mat and then it went home to sleep because it was tired of the long day".split()


def _text(tokenizer, n: int) -> str:
    words = " ".join(np.random.default_rng(1).choice(WORDS, size=2 * n))
    return tokenizer.decode(tokenizer(words, add_special_tokens=False)["input_ids"][:n])


@pytest.mark.parametrize("lang", ["en", "zh"])  # the words of the long view in both languages
def test_a_long_text_is_drawn_pooled_with_an_exact_window_and_row(smollm2, lang):
    from attention import sources

    n = EXACT_MAX + 88
    text = _text(smollm2.tokenizer, n)
    at = AppTest.from_file(APP, default_timeout=600)
    at.query_params.update({"model": "smollm2", "text": text, "kind": "decoder", "layer": "17", "head": "4",
                            "q": "590", "lang": lang})
    at.run()
    assert not at.exception and not at.error
    captions = [c.value for c in at.caption]
    head = i18n.t("long.caption", lang, n="|", side=0, cell=0).split("|")[1][:12]
    assert any(head in c for c in captions)
    said = i18n.t("explore.caption_long", lang, model="", n=0, site="", head=0, heads=0, d_k=0, diff="|")
    assert any(said.split("|")[1][:40] in c for c in captions)  # the check compared z, and says so
    keys = [e.key for e in at.get("bidi_component")]
    assert "explore-long" in keys and "explore-long-lines" in keys  # the long view and its row and column
    assert "explore-head" not in keys  # no head view: every cell would be sent
    assert [n.value for n in at.number_input] == [590, None]  # the boxes follow the selection
    table = at.dataframe[0].value
    site = sources.get(sources.SMOLLM2).run(smollm2, text).trace.site(17, "decoder")
    assert site.is_long and len(site.query_tokens) == n
    row = site.pattern(4, [590])[0]
    top = np.argsort(-row, kind="stable")[:10]
    assert table.iloc[:, 0].tolist() == top.tolist()  # the exact row's largest keys, in order
    np.testing.assert_allclose(table.iloc[:, 2].to_numpy(), np.round(row[top], 5), atol=1e-6)
    assert (table.iloc[:, 3] == round(1 / 591, 5)).all()  # the even share over the 591 keys row 590 sees


@pytest.mark.parametrize("lang", ["zh"])  # one language: 30 × 9 heads streamed take ~10 s (both: tests/pages/test_i18n*)
def test_overview_of_a_long_text_streams_its_summaries_and_says_what_it_leaves_out(smollm2, lang):
    n = EXACT_MAX + 40
    at = AppTest.from_file(APP, default_timeout=600)
    at.switch_page("views/overview.py")
    text = _text(smollm2.tokenizer, n)
    at.query_params.update({"model": "smollm2", "source": "model", "text": text, "lang": lang})
    at.run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert len(table) == 30 * 9 and not table.isna().any().any()
    from attention import sources

    site = sources.get(sources.SMOLLM2).run(smollm2, text).trace.site(5, "decoder")
    row = table[(table.iloc[:, 0] == 5) & (table.iloc[:, 1] == 0)].iloc[0]
    assert row.iloc[4] == pytest.approx(round(float(site.pattern(0)[:, 0].astype(np.float64).mean()), 3), abs=1e-3)
    texts = [c.value for c in at.caption] + [i.value for i in at.info]
    for key in ("overview.long_caption", "overview.rollout_long"):
        assert any(i18n.t(key, lang, n=f"{n:,}") in x for x in texts), key
    assert any(i18n.t("overview.export_long", lang, gb="|").split("|")[1] in x for x in texts)
    assert len(at.get("download_button")) == 1  # one head's CSV; no whole-trace file of gigabytes
