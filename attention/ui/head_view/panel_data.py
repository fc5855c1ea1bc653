"""What the browser needs to make the detail panel's and the q·k chart's blocks for any selection of one
head the moment it is clicked (assets/panel_predict.js), sent once per head: the words in the chosen
language, each query row's strongest keys (formatted here), ‖α·v‖'s share per cell as integers, and q and
k exactly (float32 bytes) for the sums the browser works out as Python does (math.fsum). S's scaled
score, A and the mask come from the head view's own payload. Built once per head and language (an LRU
shared by sessions, like head_component.payload_text), so a rerun sends the same text again, which
Streamlit sends as a reference the browser already holds."""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

import numpy as np

from attention.analysis.special_tokens import is_special
from attention.analysis.token_text import readable_tokens
from attention.analysis.value_weighted import contributions, value_weighted
from attention.headview import dot
from attention.headview.payload import encode_ints, round_to
from attention.trace import Site
from attention.ui.lang import lang, t
from attention.ui.hosting import view_cache

# the i18n strings the blocks are written with (ui/head_view/detail_blocks.py), as templates
TEXTS = ("detail.nothing", "detail.query_word", "detail.where", "detail.special", "detail.pick_pair", "detail.pair",
         "detail.dot", "detail.scaled", "detail.weight", "vw.metric", "vw.help", "masked", "detail.masked_note",
         "relevance.explore_link", "explain.need_pair", "dot.explain", "dot.sum", "dot.stats", "dot.vectors",
         "dot.terms", "dot.dimension")


def _floats(a: np.ndarray) -> dict[str, Any]:
    """An array's exact values: float32 (the trace's own) or float64, little-endian, base64."""
    dtype = "float32" if a.dtype == np.float32 else "float64"
    raw = np.ascontiguousarray(a, dtype=np.dtype(dtype).newbyteorder("<"))
    return {"dtype": dtype, "data": base64.b64encode(raw.tobytes()).decode("ascii")}


def _rows(site: Site, head: int, n: int = 5) -> list[list]:
    """Each query row's table and its sink note's values, as detail_blocks.detail formats them: the same
    numbers as details.top_keys row by row (the same products and stable order), for every row at once."""
    weights = site.pattern(head)  # (query_pos, key_pos)
    moved = contributions(weights[None], site.head_v(head)[None])[0]  # (query_pos, key_pos): weight × ‖v_j‖
    order = np.argsort(-weights, axis=1, kind="stable")  # strongest first, ties in key order
    masked, special = site.masked, [is_special(tok) for tok in site.key_tokens]
    out = []
    for i in range(weights.shape[0]):
        top = [int(j) for j in order[i] if not masked[i, j]][:n]
        table = [[site.key_tokens[j], j, f"{weights[i, j]:.4f}", f"{moved[i, j]:.3f}"] for j in top]
        sinks = [j for j in top if special[j]]
        if not sinks:
            out.append([table, None])
            continue
        sink = max(sinks, key=lambda j: float(weights[i, j]))
        words = [j for j in top if not special[j]]
        w = words[0] if words else None
        out.append([table, [site.key_tokens[sink], f"{weights[i, sink]:.3f}", f"{moved[i, sink]:.3f}",
                            None if w is None else site.key_tokens[w], "—" if w is None else f"{weights[i, w]:.3f}",
                            "—" if w is None else f"{moved[i, w]:.3f}"]])
    return out


def head_data(site: Site, head: int, page: str) -> dict[str, Any]:
    """The head's numbers and words for panel_predict.js (JSON-serialisable)."""
    weights = site.pattern(head)  # (query_pos, key_pos)
    vw = value_weighted(weights[None], site.head_v(head)[None])[0]  # (query_pos, key_pos): detail's ‖α·v‖ share
    return {
        "kind": site.kind, "layer": site.layer, "head": head,
        "texts": {key: t(key) for key in TEXTS},
        "columns": [t("detail.col_key"), t("detail.col_pos"), t("detail.col_weight"), t("detail.col_moved")],
        "query_tokens": list(site.query_tokens), "key_tokens": list(site.key_tokens),
        "query_shown": readable_tokens(site.query_tokens), "key_shown": readable_tokens(site.key_tokens),
        "d_head": site.d_head, "find_heads": page == "explore",
        "scaled_note": t("detail.scaled_note", scale=f"{site.scale:.4f}", d_k=site.d_head),
        "colours": {"q": dot.Q_COLOUR, "k": dot.K_COLOUR, "pos": dot.POSITIVE, "neg": dot.NEGATIVE},
        "rows": _rows(site, head),
        "vw": encode_ints(round_to(vw, 4)),
        "q": _floats(site.q[head]), "k": _floats(site.head_k(head)),
    }


def head_text(site: Site, head: int, page: str, channel: str, fingerprint: str) -> str:
    """head_data as JSON text for the panels of `channel`, once per head, language and page
    (`fingerprint`: the head view's content)."""
    key = ("panel", hashlib.blake2b(f"{fingerprint}|{lang()}|{page}|{channel}".encode(), digest_size=20).hexdigest())
    return view_cache.kept(key, lambda: json.dumps({"channel": channel, **head_data(site, head, page)},
                                                   separators=(",", ":")))
