"""The head's rows the browser makes its blocks from (ui/head_view/panel_data.py) are the detail panel's own, row by
row: every query word's table and sink note as ui/detail_blocks.detail writes them."""

import pytest

import attention
from attention import i18n
from attention.params.markdown import code
from attention.params.selection import Selection
from attention.ui.head_view import detail_blocks, panel_data
from harness.random_sites import random_site

pytestmark = pytest.mark.model


@pytest.fixture(scope="module")
def sites():
    tr = attention.trace("The black cat drank the milk, and the dog watched it.")
    return [(tr.site(2, "encoder"), 0), (tr.site(5, "encoder"), 11),
            (random_site(12, kind="decoder", heads=2, d_head=16, seed=3), 1)]  # masked keys after the query


def test_every_rows_table_and_sink_note_are_the_detail_panels(sites):
    for site, head in sites:
        rows = panel_data.head_data(site, head, "explore")["rows"]
        assert len(rows) == len(site.query_tokens)
        for q, (table, special) in enumerate(rows):
            blocks = detail_blocks.detail(site, head, Selection(q, None))
            assert [b for b in blocks if b["kind"] == "table"][0]["rows"] == table
            notes = [b["text"] for b in blocks if b["kind"] == "caption" and b["text"].startswith("`")]
            assert (special is None) == (not notes)
            if special is not None:  # filled as the browser fills it (panel_predict.js's pnDetail)
                tok, w, m, word, ww, m_word = special
                assert notes == [i18n.t("detail.special", tok=code(tok), w=w, m=m, word="—" if word is None else code(word),
                                        ww=ww, m_word=m_word)]
