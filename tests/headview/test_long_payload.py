"""The long head view's messages (headview/long_payload.py): what the browser decodes is Site.pattern's weights
to the stated precision (DECIMALS), hidden cells marked, rows and columns float32 as computed; the first message
holds a pooled picture and the words, never a cell per token pair."""

from __future__ import annotations

import numpy as np

from attention.analysis import long_rows
from attention.analysis.pooled import pooled_pattern
from attention.headview import long_payload as lp
from attention.headview.payload import MASKED_CODE
from harness.random_sites import random_site


def test_a_tile_decodes_to_the_patterns_weights_within_half_a_unit_of_the_last_decimal():
    site = random_site(150, kind="decoder", heads=2, spread=2.0, seed=4)
    bounds = long_rows.tile_bounds(70, 30, 90, site.shape)
    cells, hidden = long_rows.tile(site, 1, bounds)
    header, body = lp.unpack(lp.tile_message(bounds, cells, hidden, head=1, channel="c"))
    assert (header["kind"], header["channel"], header["head"]) == ("tile", "c", 1)
    assert (header["r0"], header["r1"], header["c0"], header["c1"]) == bounds
    codes = lp.array(header["A"], body)
    assert np.array_equal(codes == MASKED_CODE, hidden) and hidden.any()
    want = site.pattern(1)[bounds[0]:bounds[1], bounds[2]:bounds[3]]
    err = np.abs(codes / 10**lp.DECIMALS - want)[~hidden]
    assert err.max() <= 0.5 * 10**-lp.DECIMALS + 1e-7  # the precision the page states: 4 decimals


def test_the_lines_carry_the_exact_row_and_column_and_the_first_message_the_pooled_picture():
    site = random_site(300, kind="decoder", heads=2, seed=5)
    pooled = pooled_pattern(site, 0, side=64)
    row, col = long_rows.row(site, 0, 250), long_rows.column(site, 0, 17, pooled)
    header, body = lp.unpack(lp.lines_message(250, 17, row, col, head=0, channel="c", goto=True))
    assert header["selection"] == [250, 17] and header["goto"] is True
    assert np.array_equal(lp.array(header["row"], body), row)  # float32, bit for bit
    assert np.array_equal(lp.array(header["column"], body), col)
    header, _ = lp.unpack(lp.lines_message(-1, -1, None, None, head=0, channel="c"))
    assert "row" not in header and "column" not in header

    message = lp.first(pooled, site.query_tokens, site.key_tokens, info={"channel": "c", "layer": 0, "head": 0},
                       labels={"reset": "Whole matrix"})
    header, body = lp.unpack(message)
    codes = lp.array(header["pooled"], body)
    assert codes.shape == pooled.image.shape == (60, 60) and header["cell"] == 5  # ceil(300 / 64) a pixel
    assert np.array_equal(codes == MASKED_CODE, pooled.hidden) and codes[0, -1] == MASKED_CODE
    assert np.abs(codes / 10**lp.DECIMALS - pooled.image)[~pooled.hidden].max() <= 0.5e-4 + 1e-7
    assert len(header["query_labels"]) == 300 and "key_labels" not in header  # self-attention: the words once
    assert header["labels"] == {"reset": "Whole matrix"}
