"""A head payload in bands, each band a block named by its content, so that a view that grows by one
row (the Write page: one more word) sends only the band that changed and names the others.

Band b covers positions [b·BAND, (b+1)·BAND) and holds, for one head:
  q, k     its query rows and key rows quantised with the band's own step (so a finished band never
           changes when a later row raises the peak)
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
from attention.trace import Site

BAND = 16  # rows a block: a new word resends at most BAND rows × n keys of its own band
QK_BITS = 16
CACHE_CHARS = 64_000_000  # block texts kept, shared by sessions
_cache: OrderedDict[str, tuple[str, str]] = OrderedDict()  # content key -> (id, text)
_chars = 0
_lock = threading.Lock()


def block_id(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _quantised_rows(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x (pos, d_head) as integers, each band with its own step; and the step per position (pos,)."""
    ints = np.zeros(x.shape, np.int64)
    steps = np.ones(x.shape[0])
    for r0 in range(0, x.shape[0], BAND):
        part = x[r0:r0 + BAND].astype(np.float64)
        peak = float(np.abs(part).max()) if part.size else 0.0
        step = peak / (2 ** (QK_BITS - 1) - 1) if peak > 0 else 1.0
        ints[r0:r0 + BAND] = np.rint(part / step)
        steps[r0:r0 + BAND] = step
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


def head_blocks(site: Site, head: int, labels: dict[str, str] | None = None,
                decimals: Decimals = SINGLE_HEAD) -> tuple[dict[str, Any], dict[str, str]]:
    """(head, blocks): head = the small description {format, kind, …, "labels": id, "bands": [ids]};
    blocks = {id: JSON text} of every block it names."""
    if not 0 <= head < site.n_heads:
        raise IndexError(f"head {head} of {site.n_heads}")
    if not site.has_qkv:
        raise ValueError(f"{site.kind} attention of layer {site.layer} holds the model's weights only "
                         f"({site.missing_qkv}): the head view cannot draw it")
    header = site_header(site)
    nq, nk = len(site.query_tokens), len(site.key_tokens)
    tenpow = 10.0 ** decimals.score
    masked = site.masked  # (query_pos, key_pos)
    s_int = round_to(site.scores[head], decimals.score)
    factor = scaled_factor(site, decimals)
    pred_scaled = np.floor(s_int.astype(np.float64) * factor + 0.5).astype(np.int64)
    scaled = np.where(masked, 0.0, site.scaled(head))
    corr = np.where(masked, 0, round_to(scaled, decimals.scaled) - pred_scaled)
    a_int = np.where(masked, MASKED_CODE, round_to(site.weights[head], decimals.weight))
    z_int = round_to(site.z[head], decimals.z)  # (query_pos, d_head)
    qi, qs = _quantised_rows(site.q[head])
    ki, ks = _quantised_rows(site.k[head])
    resid = s_int - predicted(qi, ki, qs, ks, tenpow)
    blocks: dict[str, str] = {}
    bands = []
    for b in range((max(nq, nk) + BAND - 1) // BAND):
        r0, r1 = min(b * BAND, nq), min((b + 1) * BAND, nq)
        c0, c1 = min(b * BAND, nk), min((b + 1) * BAND, nk)
        rects = {"L": (slice(r0, r1), slice(0, c1)), "U": (slice(0, r0), slice(c0, c1))}
        ints = {name: (resid[rc], corr[rc], a_int[rc]) for name, rc in rects.items()}
        parts: dict[str, Any] = {"qt": header["query_tokens"][r0:r1], "kt": header["key_tokens"][c0:c1]}
        for side, short, lo, hi in (("query", "ql", r0, r1), ("key", "kl", c0, c1)):
            if f"{side}_labels" in header:
                parts[short] = header[f"{side}_labels"][lo:hi]
        key = [b, nq, nk, parts, qi[r0:r1], qs[r0:r1], ki[c0:c1], ks[c0:c1], z_int[r0:r1],
               *[a for trio in ints.values() for a in trio]]

        def build(b=b, r0=r0, r1=r1, c0=c0, c1=c1, parts=parts, ints=ints) -> dict[str, Any]:
            return {"b": b, "rows": [r0, r1], "cols": [c0, c1], **parts,
                    "q": encode_ints(qi[r0:r1]), "qstep": float(qs[r0]) if r1 > r0 else 1.0,
                    "k": encode_ints(ki[c0:c1]), "kstep": float(ks[c0]) if c1 > c0 else 1.0,
                    "Z": encode_ints(z_int[r0:r1]),
                    **{name: {"residual": encode_ints(r), "scaled": encode_ints(c), "A": encode_ints(a)}
                       for name, (r, c, a) in ints.items()}}

        bid, text = _cached(key, build)
        blocks[bid] = text
        bands.append(bid)
    lid, ltext = _cached(["labels", labels_with_defaults(labels)], lambda: labels_with_defaults(labels))
    blocks[lid] = ltext
    desc = {"format": FORMAT, "kind": site.kind, "layer": site.layer, "head": head, "n_heads": site.n_heads,
            "d_head": site.d_head, "scale": site.scale, "nq": nq, "nk": nk, "band": BAND, "tenpow": tenpow,
            "scaled_factor": factor, "decimals": asdict(decimals), "lines_max": LINES_MAX_WORDS,
            "labels": lid, "bands": bands}
    return desc, blocks


def message(desc: dict[str, Any], blocks: dict[str, str], known: set[str], extra: dict[str, Any]) -> str:
    """The text sent to the browser: `extra` (channel, palette), the head, and only the blocks not in
    `known` (those the browser was sent before are named by id)."""
    new = ",".join(json.dumps(i) + ":" + t for i, t in blocks.items() if i not in known)
    return (json.dumps({**extra, "head": desc}, separators=(",", ":"))[:-1] + ',"blocks":{' + new + "}}")


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
