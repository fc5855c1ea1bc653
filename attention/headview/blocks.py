"""A head payload in bands, each band a block named by its content, so that a view that grows by one
row (the Write page: one more word) sends only the band that changed and names the others.

The bands' edges (band_edges): the prompt in bands of BAND positions, then every written position a band
of its own, so that the next word sends one row and one column and no earlier band changes. Band b
covers positions [e_b, e_(b+1)) and holds, for one head:
  q, k     its query rows and key rows quantised with the band's own step (so a band never changes when
           a later row raises the peak)
  Z        its rows of A·V at decimals.z
  L        rows of band b × keys [0, (b+1)·BAND): S residual, scaled correction, A   (incl. the diagonal)
  U        rows [0, b·BAND) × keys of band b: the same three                          (strictly above)
Every cell lies in exactly one L or U, so the bands tile the matrix. S is predicted per cell as
floor(q_i·k_j · ((qstep_i · kstep_j) · 10^d) + 0.5) in float64 on both sides (integer dot products are
exact) and corrected by the residual; the rest is payload.py's encoding, sliced.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import asdict
from typing import Any

import numpy as np

from attention.headview.payload import (FORMAT, LINES_MAX_WORDS, MASKED_CODE, SINGLE_HEAD, Decimals, encode_ints,
                                        labels_with_defaults, round_to, scaled_factor, site_header)
from attention import core
from attention.trace import Site

BAND = 16  # prompt positions a block
QK_BITS = 16
CACHE_CHARS = 64_000_000  # block texts kept, shared by sessions
_cache: OrderedDict[str, tuple[str, str]] = OrderedDict()  # content key -> (id, text)
_chars = 0
_lock = threading.Lock()


def block_id(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def band_edges(n: int, grown_from: int | None = None) -> list[int]:
    """[0, e_1, …, n]: bands of BAND positions up to `grown_from` (the prompt's length; None: all of n),
    then one band per position. The edges of a text one word longer are these plus one."""
    fixed = n if grown_from is None else max(0, min(grown_from, n))
    return [*range(0, fixed, BAND), *range(fixed, n), n] if n else [0]


def _quantised_rows(x: np.ndarray, edges: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """x (pos, d_head) as integers, each band with its own step; and the step per position (pos,)."""
    ints = np.zeros(x.shape, np.int64)
    steps = np.ones(x.shape[0])
    for r0, r1 in zip(edges, edges[1:]):
        part = x[r0:r1].astype(np.float64)
        peak = float(np.abs(part).max()) if part.size else 0.0
        step = peak / (2 ** (QK_BITS - 1) - 1) if peak > 0 else 1.0
        ints[r0:r1] = np.rint(part / step)
        steps[r0:r1] = step
    return ints, steps


def predicted(qi: np.ndarray, ki: np.ndarray, qs: np.ndarray, ks: np.ndarray, tenpow: float) -> np.ndarray:
    """floor(qi·kiᵀ · ((qs_i·ks_j)·tenpow) + 0.5) (query_pos, key_pos), as blocks.js computes it."""
    dot = qi.astype(np.float64) @ ki.astype(np.float64).T
    return np.floor(dot * ((qs[:, None] * ks[None, :]) * tenpow) + 0.5).astype(np.int64)


def _cached(key_parts: list[Any], build) -> tuple[str, str]:
    global _chars
    h = hashlib.blake2b(digest_size=20)
    for part in key_parts:
        h.update(part.tobytes() if isinstance(part, np.ndarray) else json.dumps(part).encode())
        h.update(b"|")
    key = h.hexdigest()
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    text = json.dumps(build(), separators=(",", ":"))
    entry = (block_id(text), text)
    with _lock:
        _cache[key] = entry
        _chars += len(text)
        while _chars > CACHE_CHARS and len(_cache) > 1:
            _chars -= len(_cache.popitem(last=False)[1][1])
    return entry


def held() -> dict[str, str]:
    """Every block text this process still holds, by id: what a browser that had seen every run would hold
    (tests read a run's view from it when they did not read the runs before)."""
    with _lock:
        return dict(_cache.values())


def last_seen(masked: np.ndarray) -> np.ndarray:
    """(query_pos,) the last key each query sees (−1: none), from masked (query_pos, key_pos) bools."""
    seen = ~masked[:, ::-1]
    last = np.argmax(seen, axis=1)  # the first seen key from the end (0 as well when none is seen)
    return np.where(seen[np.arange(masked.shape[0]), last], masked.shape[1] - 1 - last, -1)


def _band_inputs(site: Site, head: int, edges: list[int], decimals: Decimals, masked: np.ndarray):
    """Per band: its rectangle (r0, r1, c0, c1) and a digest of everything its numbers are computed from.
    A band's cached text is found by what goes in, not by what comes out: float32 products come out a
    little different when the matrix is one row longer (BLAS takes other paths), and a value on a
    rounding edge would then print differently and send the band again. Where no row of [0, r1) sees a
    key past c1 (a causal text), the band depends only on positions before e1, so the digest is a chain
    over the bands so far; otherwise it covers the whole site."""
    nq, nk = len(site.query_tokens), len(site.key_tokens)
    seen = last_seen(masked) if nk else np.full(nq, -1)
    reach = np.maximum.accumulate(seen) if nq else seen
    bias = None if site.bias is None else site.bias[head]
    chain = hashlib.blake2b(digest_size=20)
    chain.update(json.dumps([site.kind, site.layer, head, site.scale, site.softcap, decimals.__dict__,
                             None if site.sinks is None else float(site.sinks[head])]).encode())
    whole = None
    for e0, e1 in zip(edges, edges[1:]):
        r0, r1, c0, c1 = min(e0, nq), min(e1, nq), min(e0, nk), min(e1, nk)
        for a in (site.q[head][r0:r1], site.head_k(head)[c0:c1], site.head_v(head)[c0:c1], masked[r0:r1, :c1],
                  masked[:r0, c0:c1], *(() if bias is None else (bias[r0:r1, :c1], bias[:r0, c0:c1]))):
            chain.update(np.ascontiguousarray(a).tobytes())
        if r1 == 0 or reach[r1 - 1] < c1:
            yield (r0, r1, c0, c1), chain.hexdigest()
            continue
        if whole is None:
            whole = hashlib.blake2b(chain.digest(), digest_size=20)
            for a in (site.q[head], site.head_k(head), site.head_v(head), masked, bias):
                whole.update(b"-" if a is None else np.ascontiguousarray(a).tobytes())
        yield (r0, r1, c0, c1), whole.hexdigest()


def head_blocks(site: Site, head: int, labels: dict[str, str] | None = None,
                decimals: Decimals = SINGLE_HEAD, grown_from: int | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """(head, blocks): head = the small description {format, kind, …, "labels": id, "bands": [ids]};
    blocks = {id: JSON text} of every block it names. `grown_from`: see band_edges."""
    if not 0 <= head < site.n_heads:
        raise IndexError(f"head {head} of {site.n_heads}")
    if not site.has_qkv:
        raise ValueError(f"{site.kind} attention of layer {site.layer} holds the model's weights only "
                         f"({site.missing_qkv}): the head view cannot draw it")
    header = site_header(site)
    nq, nk = len(site.query_tokens), len(site.key_tokens)
    tenpow = 10.0 ** decimals.score
    factor = scaled_factor(site, decimals)
    edges = band_edges(max(nq, nk), grown_from)
    qi, qs = _quantised_rows(site.q[head], edges)
    ki, ks = _quantised_rows(site.head_k(head), edges)
    masked = site.masked  # (query_pos, key_pos)
    bias = None if site.bias is None else site.bias[head]

    def rect(rs: slice, cs: slice) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(S residual, scaled correction, A) of one rectangle: only a band that is not cached is
        computed, so a written word rounds one row and one column, not the whole matrix. A long site's
        rows are computed for the rectangle alone (a rectangle all hidden: q·k only, A is 0 there)."""
        m = masked[rs, cs]
        if not site.is_long:
            raw, weights = site.scores[head][rs, cs], site.weights[head][rs, cs]
        elif m.all():
            raw = core.raw_scores(site.q[head][rs], site.head_k(head)[cs])
            weights = np.zeros(m.shape, np.float32)
        else:
            raw, weights = site.score_rows(head, rs)[:, cs], site.pattern(head, rs)[:, cs]
        s_int = round_to(raw, decimals.score)
        pred_scaled = np.floor(s_int.astype(np.float64) * factor + 0.5).astype(np.int64)
        mask = site.mask_rows(rs)
        scaled = core.logits(raw.astype(np.float64), site.scale, site.softcap,
                             None if bias is None else bias[rs, cs], None if mask is None else mask[:, cs])
        return (s_int - predicted(qi[rs], ki[cs], qs[rs], ks[cs], tenpow),
                np.where(m, 0, round_to(np.where(m, 0.0, scaled), decimals.scaled) - pred_scaled),
                np.where(m, MASKED_CODE, round_to(weights, decimals.weight)))

    blocks: dict[str, str] = {}
    bands = []
    for b, ((r0, r1, c0, c1), inputs) in enumerate(_band_inputs(site, head, edges, decimals, masked)):
        parts: dict[str, Any] = {"qt": header["query_tokens"][r0:r1], "kt": header["key_tokens"][c0:c1]}
        for side, short, lo, hi in (("query", "ql", r0, r1), ("key", "kl", c0, c1)):
            if f"{side}_labels" in header:
                parts[short] = header[f"{side}_labels"][lo:hi]

        def build(b=b, r0=r0, r1=r1, c0=c0, c1=c1, parts=parts) -> dict[str, Any]:
            rects = {"L": rect(slice(r0, r1), slice(0, c1)), "U": rect(slice(0, r0), slice(c0, c1))}
            return {"b": b, "rows": [r0, r1], "cols": [c0, c1], **parts,
                    "q": encode_ints(qi[r0:r1]), "qstep": float(qs[r0]) if r1 > r0 else 1.0,
                    "k": encode_ints(ki[c0:c1]), "kstep": float(ks[c0]) if c1 > c0 else 1.0,
                    "Z": encode_ints(round_to(site.z_rows(head, slice(r0, r1)), decimals.z)),
                    **{name: {"residual": encode_ints(r), "scaled": encode_ints(c), "A": encode_ints(a)}
                       for name, (r, c, a) in rects.items()}}

        bid, text = _cached([b, r0, r1, c0, c1, parts, inputs], build)
        blocks[bid] = text
        bands.append(bid)
    lid, ltext = _cached(["labels", labels_with_defaults(labels)], lambda: labels_with_defaults(labels))
    blocks[lid] = ltext
    desc = {"format": FORMAT, "kind": site.kind, "layer": site.layer, "head": head, "n_heads": site.n_heads,
            "d_head": site.d_head, "scale": site.scale, "nq": nq, "nk": nk, "tenpow": tenpow,
            "scaled_factor": factor, "decimals": asdict(decimals), "lines_max": LINES_MAX_WORDS,
            "labels": lid, "bands": bands}
    return desc, blocks


def bands_id(bands: list[str]) -> str:
    return block_id(",".join(bands))


def message(desc: dict[str, Any], blocks: dict[str, str], known: set[str], extra: dict[str, Any],
            previous: list[str] | None = None) -> str:
    """The text sent to the browser: `extra` (channel, palette), the head, and only the blocks not in
    `known` (those the browser was sent before are named by id). When `previous` (the bands of the head
    this browser was sent last) starts like this one, the head says "keep": k and names only the bands
    after the first k: a written word names one band, not the 2,000 before it."""
    bands = desc["bands"]
    keep = 0
    for a, b in zip(previous or [], bands):
        if a != b:
            break
        keep += 1
    head = {**desc, "list": bands_id(bands)}
    if keep:  # "of": the list they are kept from; a browser that holds another asks for everything
        head.update(keep=keep, of=bands_id(previous or []), bands=bands[keep:])
    new = ",".join(json.dumps(i) + ":" + t for i, t in blocks.items() if i not in known)
    return (json.dumps({**extra, "head": head}, separators=(",", ":"))[:-1] + ',"blocks":{' + new + "}}")


def assembled(desc: dict[str, Any], blocks: dict[str, str]) -> dict[str, np.ndarray]:
    """The integers the browser prints, put together from the blocks (tests; blocks.js does the same):
    S, scaled, A (MASKED_CODE where masked), Z."""
    from attention.headview.payload import decode_ints
    nq, nk = desc["nq"], desc["nk"]
    qi, qs = np.zeros((nq, desc["d_head"])), np.ones(nq)
    ki, ks = np.zeros((nk, desc["d_head"])), np.ones(nk)
    parts = [json.loads(blocks[i]) for i in desc["bands"]]
    for p in parts:
        (r0, r1), (c0, c1) = p["rows"], p["cols"]
        qi[r0:r1], qs[r0:r1] = decode_ints(p["q"]), p["qstep"]
        ki[c0:c1], ks[c0:c1] = decode_ints(p["k"]), p["kstep"]
    s = predicted(qi, ki, qs, ks, desc["tenpow"])
    out = {"S": s, "scaled": np.zeros((nq, nk), np.int64), "A": np.zeros((nq, nk), np.int64),
           "Z": np.zeros((nq, desc["d_head"]), np.int64)}
    for p in parts:
        (r0, r1), (c0, c1) = p["rows"], p["cols"]
        out["Z"][r0:r1] = decode_ints(p["Z"])
        for name, rc in (("L", (slice(r0, r1), slice(0, c1))), ("U", (slice(0, r0), slice(c0, c1)))):
            out["S"][rc] += decode_ints(p[name]["residual"])
            out["scaled"][rc] = decode_ints(p[name]["scaled"])
            out["A"][rc] = decode_ints(p[name]["A"])
    out["scaled"] += np.floor(out["S"] * desc["scaled_factor"] + 0.5).astype(np.int64)
    return out
