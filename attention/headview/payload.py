"""What the browser needs to draw one head: every number rounded to the decimals it is printed with.

Each matrix travels as the integers round(x · 10^d), the bytes of each integer split into planes
(all low bytes, then all high bytes: the high planes are nearly constant and compress to little),
zlib-compressed and base64-encoded. The browser prints those integers back with d decimals, so a
hover shows exactly the trace's value rounded to what is printed — no float is re-rounded in
JavaScript. Measured on all-MiniLM-L6-v2 (bits a cell after compression): float32 scores 26,
scores at 4 decimals 19, weights at 4 decimals 4.6–6.4 (most are near 0).

    S        (query_pos, key_pos)  raw q·k at decimals.score, sent as S = Q·Kᵀ itself: Q and K
                                   quantised to integers, and per cell the difference between the
                                   exact integer product's prediction and the rounded score (small:
                                   13 bits a cell instead of 19 at 512 tokens). Integer dot products
                                   are exact in float64 on both sides, so Python's prediction and the
                                   browser's are the same number.
    scaled   (query_pos, key_pos)  a correction to floor(S_int · factor + 0.5), factor = scale ·
                                   10^(decimals.scaled − decimals.score): usually 0 or ±1, so it
                                   compresses to almost nothing; bias and softcap make it larger
    A        (query_pos, key_pos)  weights at decimals.weight; MASKED_CODE where the key is hidden
    Z        (query_pos, d_head)   A·V at decimals.z
"""

from __future__ import annotations

import base64
import zlib
from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

import numpy as np

from attention.analysis.token_text import readable_tokens, scheme_of
from attention.trace import Site, Trace

FORMAT = "attention.headview/1"
MASKED_CODE = -1  # in A: the query may not see this key ("masked", never 0)
LINES_MAX_WORDS = 64  # past this many words a side, the lines view cannot be read: it says so instead
ZLIB_LEVEL = 6  # level 9 is ~3× slower at 2,048 tokens for 1–2 % smaller output
# Arrays of at most this many bytes go without zlib ("plain"): the browser inflates with
# DecompressionStream, whose result comes tasks later, after the page's other pending work; a written
# word's own row and column (a few kB) are then drawn in the task that received them.
PLAIN_BYTES = 4096

LABELS: dict[str, str] = {
    "S": "S = Q·Kᵀ (raw scores)",
    "A": "A = softmax(S·scale + mask)",
    "Z": "Z = A·V",
    "lines": "A as lines",
    "masked": "masked",
    "query": "query",
    "key": "key",
    "score": "q·k",
    "scaled": "scaled",
    "weight": "weight",
    "dim": "dim",
    "z": "z",
    "reset": "Reset zoom",
    "colour_one": "A's colours: 0 to 1",
    "colour_rows": "A's colours: each row 0 to its largest weight",
    "png": "PNG",
    "svg": "SVG",
    "kind": "attention",
    "layer": "layer",
    "head": "head",
    "encoder": "encoder self-attention",
    "decoder": "decoder self-attention (masked)",
    "cross": "encoder–decoder cross-attention",
    "lines_too_long": "The lines view is for inputs of up to {max} words a side; this one has {n}. "
                      "Use the matrices (zoom in with the mouse wheel).",
    "help": "Hover to read a cell, click to select it (or a word), arrows move, Esc clears, "
            "wheel zooms, drag pans.",
    # for touch screens and assistive technology (screen readers read these; the view speaks them)
    "lang": "en",
    "help_touch": "Tap a cell or a word to select it, pinch to zoom, drag with two fingers to pan.",
    "grid": "{matrix}: layer {layer}, head {head}, {nq} query words by {nk} key words. "
            "Arrow keys move the selection, Escape clears it.",
    "words": "Query words: {query}. Key words: {key}.",
    "sr_cell": "query {q}, key {k}, weight {w} (q·k {s}, scaled {x})",
    "sr_masked": "query {q}, key {k}: masked, this query may not see this key (q·k {s})",
    "sr_row": "query {q} selected: its largest weight is on {k}, {w}",
    "sr_col": "key {k} selected",
    "sr_none": "no word or cell selected",
    "table": "Row as a table",
    "table_row": "Weights of query {q} over every key word",
    "table_col": "Weights of every query word over key {k}",
    "table_empty": "Select a word or a cell: its row of weights appears here as a table.",
    "position": "position",
    "palette": "Colour-blind-safe colours",
}


@dataclass(frozen=True)
class Decimals:
    """How many decimals each number is sent and printed with (the app's detail panel prints 4)."""

    score: int = 4  # q·k
    scaled: int = 4  # q·k · scale (+ bias, softcap), what the softmax sees
    weight: int = 4
    z: int = 3


SINGLE_HEAD = Decimals()
# A whole trace in one file (save_html): coarser, so 6 layers × 12 heads at 128 tokens stay small.
WHOLE_TRACE = Decimals(score=1, scaled=2, weight=3, z=2)

_INT_TYPES = (np.int8, np.uint8, np.int16, np.uint16, np.int32)


def round_to(x: np.ndarray, decimals: int) -> np.ndarray:
    """int64 n with n / 10^decimals == float(f"{x:.{decimals}f}") for every element: Python's
    formatting rounds the exact binary value half to even. For float32 input x·10^d is exact in
    float64 (24 + 14 bits), so rint agrees; for float64 a product that lands within 1e-6 of a
    half is redone exactly with Decimal (a handful of cells, if any)."""
    x64 = np.asarray(x, dtype=np.float64)
    scaled = x64 * 10.0**decimals
    n = np.rint(scaled)
    if not (x.dtype == np.float32 and decimals <= 8):
        near = np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6)
        flat = n.reshape(-1)
        quantum = Decimal(1).scaleb(-decimals)
        for i in near:
            exact = Decimal(float(x64.reshape(-1)[i])).quantize(quantum, rounding=ROUND_HALF_EVEN)
            flat[i] = float(exact.scaleb(decimals))
    return n.astype(np.int64)


def encode_ints(a: np.ndarray) -> dict[str, Any]:
    """An integer matrix as {"dtype", "shape", "data"}: the smallest little-endian type that holds
    it, its byte planes, zlib (above PLAIN_BYTES; else "plain": 1), base64."""
    lo, hi = (int(a.min()), int(a.max())) if a.size else (0, 0)
    dtype = next((t for t in _INT_TYPES if np.iinfo(t).min <= lo and hi <= np.iinfo(t).max), None)
    if dtype is None:
        raise ValueError(f"values {lo}..{hi} do not fit in int32: send fewer decimals")
    raw = np.ascontiguousarray(a, dtype=np.dtype(dtype).newbyteorder("<"))
    planes = raw.view(np.uint8).reshape(-1, raw.itemsize).T  # (itemsize, cells): plane p = byte p of each
    out: dict[str, Any] = {"dtype": np.dtype(dtype).name, "shape": list(a.shape)}
    if planes.size <= PLAIN_BYTES:
        return {**out, "data": base64.b64encode(planes.tobytes()).decode("ascii"), "plain": 1}
    return {**out, "data": base64.b64encode(zlib.compress(planes.tobytes(), ZLIB_LEVEL)).decode("ascii")}


def decode_ints(enc: dict[str, Any]) -> np.ndarray:
    """The inverse of encode_ints (the browser does the same in decode.js); for tests and tools."""
    dtype = np.dtype(enc["dtype"]).newbyteorder("<")
    packed = base64.b64decode(enc["data"])
    planes = np.frombuffer(packed if enc.get("plain") else zlib.decompress(packed), np.uint8)
    cells = int(np.prod(enc["shape"]))
    raw = planes.reshape(dtype.itemsize, cells).T.copy()
    return raw.view(dtype).reshape(enc["shape"]).astype(np.int64)


def qk_bits(n_query: int, n_key: int) -> int:
    """Bits a quantised q or k element keeps: each is shared by a whole row (or column) of cells,
    so the longer the sides, the more precision pays for itself (measured at 128 and 512 tokens)."""
    return 12 if min(n_query, n_key) < 256 else 16


def _quantised(x: np.ndarray, bits: int) -> tuple[np.ndarray, float]:
    """x (pos, d_head) as integers within ±(2^(bits−1) − 1), and the step they count in."""
    peak = float(np.abs(x).max()) if x.size else 0.0
    step = peak / (2 ** (bits - 1) - 1) if peak > 0 else 1.0
    return np.rint(x.astype(np.float64) / step), step


def predicted_ints(qi: np.ndarray, ki: np.ndarray, factor: float) -> np.ndarray:
    """floor(qi·kiᵀ · factor + 0.5) (query_pos, key_pos) as int64. qi, ki hold integers below 2^15 in
    magnitude and d_head ≤ 256, so every partial sum is an integer below 2^53: float64 is exact
    whatever order BLAS adds in, and equals the browser's sum."""
    dot = qi.astype(np.float64) @ ki.astype(np.float64).T
    return np.floor(dot * factor + 0.5).astype(np.int64)


def encode_scores(site: Site, head: int, s_int: np.ndarray, decimals: int) -> dict[str, Any]:
    """S (query_pos, key_pos) rounded to `decimals`, as quantised Q, K and the residual."""
    bits = qk_bits(*s_int.shape)
    qi, q_step = _quantised(site.q[head], bits)  # (query_pos, d_head)
    ki, k_step = _quantised(site.head_k(head), bits)  # (key_pos, d_head)
    factor = q_step * k_step * 10.0**decimals
    residual = s_int - predicted_ints(qi, ki, factor)
    return {"q": encode_ints(qi.astype(np.int64)), "k": encode_ints(ki.astype(np.int64)), "factor": factor,
            "residual": encode_ints(residual)}


def decode_scores(enc: dict[str, Any]) -> np.ndarray:
    """S_int (query_pos, key_pos) from encode_scores' output, as the browser computes it."""
    return predicted_ints(decode_ints(enc["q"]), decode_ints(enc["k"]), enc["factor"]) + decode_ints(enc["residual"])


def scaled_factor(site: Site, decimals: Decimals) -> float:
    """The float both sides multiply S_int by to predict the scaled integer."""
    return site.scale * 10.0 ** (decimals.scaled - decimals.score)


def site_header(site: Site) -> dict[str, Any]:
    """What every head of a site shares: tokens (kept raw: the browser writes them with
    textContent and fillText, never as HTML), the shapes, and — only when they differ from the raw
    tokens (byte-level BPE, SentencePiece) — the tokens as text for the labels (analysis/token_text.py);
    the raw token stays in the hover."""
    header = {
        "kind": site.kind,
        "layer": site.layer,
        "n_heads": site.n_heads,
        "d_head": site.d_head,
        "scale": site.scale,
        "query_tokens": list(site.query_tokens),
        "key_tokens": list(site.key_tokens),
    }
    scheme = scheme_of(site.key_tokens)
    for side in ("query", "key"):
        raw = header[f"{side}_tokens"]
        shown = readable_tokens(raw, scheme)
        if shown != raw:
            header[f"{side}_labels"] = shown
    return header


def head_matrices(site: Site, head: int, decimals: Decimals = SINGLE_HEAD) -> dict[str, Any]:
    """S, scaled, A and Z of one head, encoded (see the module docstring)."""
    masked = site.masked  # (query_pos, key_pos)
    s_int = round_to(site.score_rows(head), decimals.score)  # (query_pos, key_pos); a long site: this head alone
    factor = scaled_factor(site, decimals)
    predicted = np.floor(s_int.astype(np.float64) * factor + 0.5)
    scaled = np.where(masked, 0.0, site.scaled(head))  # masked cells hold ≈ −3.4e38: send nothing
    correction = np.where(masked, 0, round_to(scaled, decimals.scaled) - predicted.astype(np.int64))
    weights = np.where(masked, MASKED_CODE, round_to(site.pattern(head), decimals.weight))
    return {
        "head": head,
        "S": encode_scores(site, head, s_int, decimals.score),
        "scaled": {**encode_ints(correction), "factor": factor},
        "A": encode_ints(weights),
        "Z": encode_ints(round_to(site.z_rows(head), decimals.z)),  # (query_pos, d_head)
    }


def labels_with_defaults(labels: dict[str, str] | None) -> dict[str, str]:
    return {**LABELS, **(labels or {})}


def head_payload(site: Site, head: int, labels: dict[str, str] | None = None,
                 decimals: Decimals = SINGLE_HEAD) -> dict[str, Any]:
    """Everything the browser needs for one head of `site`; JSON-serialisable. The selection is
    not part of it (hosts add "selection": [query, key], -1 for none)."""
    if not 0 <= head < site.n_heads:
        raise IndexError(f"head {head} of {site.n_heads}")
    if not site.has_qkv:  # S and Z would be drawn from nothing: refuse rather than draw a guess
        raise ValueError(f"{site.kind} attention of layer {site.layer} holds the model's weights only "
                         f"({site.missing_qkv}): S and Z are not available, so the head view cannot draw it")
    return {
        "format": FORMAT,
        **site_header(site),
        **head_matrices(site, head, decimals),
        "decimals": asdict(decimals),
        "labels": labels_with_defaults(labels),
        "lines_max": LINES_MAX_WORDS,
    }


def trace_payload(trace: Trace, labels: dict[str, str] | None = None,
                  decimals: Decimals = WHOLE_TRACE) -> dict[str, Any]:
    """Every head of every site that has q, k, v (a weights-only site has no S or Z to draw; those
    are listed under "omitted" with the reason), tokens written once per site: what save_html embeds."""
    if not any(s.has_qkv for s in trace.sites):
        raise ValueError("no attention of this trace has Query, Key and Value (weights only): the head view "
                         "cannot draw S and Z")
    return {
        "format": FORMAT,
        "model": trace.model_name,
        "text": trace.text,
        "decimals": asdict(decimals),
        "labels": labels_with_defaults(labels),
        "lines_max": LINES_MAX_WORDS,
        "sites": [
            {**site_header(s), "heads": [head_matrices(s, h, decimals) for h in range(s.n_heads)]}
            for s in trace.sites if s.has_qkv
        ],
        "omitted": [{"kind": s.kind, "layer": s.layer, "reason": s.missing_qkv} for s in trace.sites
                    if not s.has_qkv],
    }


def decoded(payload: dict[str, Any]) -> dict[str, np.ndarray]:
    """The numbers a head payload prints, as floats (tests compare them with the trace):
    S, scaled (nan where masked), A (nan where masked), Z, and the boolean mask."""
    d = payload["decimals"]
    s_int = decode_scores(payload["S"])
    factor = payload["scaled"]["factor"]
    scaled_int = np.floor(s_int.astype(np.float64) * factor + 0.5).astype(np.int64) + decode_ints(payload["scaled"])
    a_int = decode_ints(payload["A"])
    masked = a_int == MASKED_CODE
    return {
        "S": s_int / 10.0 ** d["score"],
        "scaled": np.where(masked, np.nan, scaled_int / 10.0 ** d["scaled"]),
        "A": np.where(masked, np.nan, a_int / 10.0 ** d["weight"]),
        "Z": decode_ints(payload["Z"]) / 10.0 ** d["z"],
        "masked": masked,
    }
