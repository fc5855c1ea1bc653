"""One head's rows of a long site, computed when asked (trace.Site delegates here).

A long site keeps q, z, the model's z and k, v once per key/value group: O(n·d). S, A and Z of one head are
made here a block of query rows at a time, on a fixed grid of tiles, so a row's numbers never depend on
which rows were asked with it (`site.weights[h]` equals `site.pattern(h)` bit for bit), and its check
compares z head by head, tile by tile, since the model's own weights were never made.

`site` is a trace.Site (not imported: the contract imports this module, not the other way round).
"""

from __future__ import annotations

import numpy as np

from attention import blas, core

Rows = slice | np.ndarray
SCORES, WEIGHTS, Z = 0, 1, 2  # what _rows() makes


def max_abs_diff(a: np.ndarray, b: np.ndarray) -> float:
    """max |a − b|, a block of rows at a time into one small buffer (these are up to heads × 512 × 512)."""
    if a.size == 0:
        return 0.0
    a2, b2 = a.reshape(-1, a.shape[-1]), b.reshape(-1, b.shape[-1])
    rows = max(1, core.BLOCK_ELEMENTS // max(1, a2.shape[1]))
    buf = np.empty((min(rows, a2.shape[0]), a2.shape[1]), np.float32)
    worst = 0.0
    for start in range(0, a2.shape[0], rows):
        d = buf[: min(rows, a2.shape[0] - start)]
        np.subtract(a2[start : start + rows], b2[start : start + rows], out=d, dtype=np.float32)
        np.abs(d, out=d)
        worst = max(worst, float(d.max(initial=0.0)))
    return worst


def row_tile(n_keys: int) -> int:
    """Query rows computed together: each tile's S about 4 MiB."""
    return max(1, core.BLOCK_ELEMENTS * 4 // max(1, n_keys))


def indices(site, rows: Rows) -> np.ndarray:
    """(len(rows),) the query positions `rows` names (a slice or an array of positions)."""
    return np.atleast_1d(np.arange(site.shape[0])[rows])


def mask_rows(site, rows: Rows) -> np.ndarray | None:
    """(len(rows), key_pos) the additive mask of these query rows; None when nothing is hidden."""
    if site.mask is not None:
        return site.mask[rows]
    if site.causal_offset is None:
        return None
    seen = np.arange(site.shape[1])[None, :] <= indices(site, rows)[:, None] + site.causal_offset
    return np.where(seen, np.float32(0.0), np.float32(core.MASKED))


def block(site, head: int, idx: np.ndarray, scores: bool = False):
    """(S, A, Z) of one head's query rows `idx` (a small block): S (len, key_pos) when `scores`, else None;
    A (len, key_pos); Z (len, d_v). A causal rule reads only the keys the rows can see."""
    nk = site.shape[1]
    reach = nk if site.causal_offset is None or site.mask is not None else int(
        min(nk, max(0, int(idx.max(initial=-1)) + site.causal_offset + 1)))
    q, k = site.q[head, idx], site.head_k(head)
    mask = mask_rows(site, idx)
    bias = None if site.bias is None else site.bias[head][idx][:, :reach]
    with blas.one_thread():
        s, w, z = core.attention(
            q, k[:reach], site.head_v(head)[:reach], scale=site.scale,
            mask=None if mask is None else mask[:, :reach], bias=bias, softcap=site.softcap,
            sinks=None if site.sinks is None else site.sinks[head],
        )
        weights = np.zeros((len(idx), nk), np.float32)
        weights[:, :reach] = w
        full = None
        if scores:
            full = np.empty((len(idx), nk), np.float32)
            full[:, :reach] = s
            full[:, reach:] = core.raw_scores(q, k[reach:])  # S is drawn in hidden cells too
    return full, weights, z


def head_rows(site, head: int, rows: Rows, what: int) -> np.ndarray:
    """Rows of one head (what: SCORES, WEIGHTS or Z), made tile by tile on the fixed grid."""
    if not 0 <= head < site.n_heads:
        raise IndexError(f"head {head} of {site.n_heads}")
    idx = indices(site, rows)
    width = site.shape[1] if what < Z else site.v.shape[-1]
    out = np.empty((len(idx), width), np.float32)
    tile = row_tile(site.shape[1])
    of = idx // tile
    for t in np.unique(of):
        r0 = int(t) * tile
        part = block(site, head, np.arange(r0, min(site.shape[0], r0 + tile)), scores=what == SCORES)[what]
        sel = np.nonzero(of == t)[0]
        out[sel] = part[idx[sel] - r0]
    return out


def every_head(site) -> np.ndarray:
    """(2, heads, query_pos, key_pos): S and A of every head, head by head (the same tiles as head_rows)."""
    out = np.empty((2, site.n_heads, *site.shape), np.float32)
    tile = row_tile(site.shape[1])
    for h in range(site.n_heads):
        for r0 in range(0, site.shape[0], tile):
            rows = np.arange(r0, min(site.shape[0], r0 + tile))
            out[0, h, rows], out[1, h, rows] = block(site, h, rows, scores=True)[:2]
    return out


def z_diff(site) -> float:
    """max |our z − the model's| over every head and row, a tile at a time (our z is not kept)."""
    worst = 0.0
    tile = row_tile(site.shape[1])
    for h in range(site.n_heads):
        for r0 in range(0, site.shape[0], tile):
            ours = head_rows(site, h, slice(r0, r0 + tile), Z)
            worst = max(worst, max_abs_diff(ours, site.model_z[h, r0 : r0 + tile]))
    return worst


def row_z_diff(site, rows: Rows) -> np.ndarray:
    """(len(rows),) per query row, the largest |our z − the model's| over the heads. The rows asked are
    computed alone, not with their tile: one new row costs a row, not a tile."""
    idx = indices(site, rows)
    worst = np.zeros(len(idx))
    step = row_tile(site.shape[1])
    for h in range(site.n_heads):
        for start in range(0, len(idx), step):
            part = idx[start : start + step]
            ours = block(site, h, part)[Z]
            worst[start : start + step] = np.maximum(
                worst[start : start + step], np.abs(ours - site.model_z[h, part]).max(axis=-1, initial=0.0))
    return worst
