"""The detail panel and the q·k explanation of one selection as plain blocks (markdown text, captions,
a table, metrics, a chart's data): computed and formatted here, in Python, once per selection.

Two hosts draw the same blocks: the browser (assets/panel.js, under the head view: a click reruns only
the head view's small fragment, which sends these blocks; ui/head_view/panel_view.py) and Streamlit's own elements
(render(): a site with the model's weights only, which has no head view). So every number a person
reads is the string Python formatted, whichever draws it."""

from __future__ import annotations

from typing import Any

import numpy as np
import streamlit as st

from attention.analysis import anatomy, details
from attention.params.markdown import code
from attention.params.selection import Selection
from attention.analysis.token_text import readable_tokens
from attention.analysis.value_weighted import row_value_weighted
from attention.headview import dot
from attention.headview.payload import round_to
from attention.plots import explain_figures
from attention.trace import Site
from attention.ui.lang import t

Block = dict[str, Any]  # {"kind": "md" | "caption" | "info" | "table" | "metrics" | "button" | "dot", ...}

FIND_HEADS = "find_heads"  # the trigger of the detail panel's button (Explore): Find heads on this pair


def _md(text: str) -> Block:
    return {"kind": "md", "text": text}


def _caption(text: str) -> Block:
    return {"kind": "caption", "text": text}


def printed(x: float, decimals: int = 4) -> str:
    """x as the head view prints it (payload.round_to's integer): half to even, and 0 never as "-0.0000"."""
    n = int(round_to(np.array([x], dtype=np.float64), decimals)[0])
    return f"{n / 10**decimals:.{decimals}f}"


def detail(site: Site, head: int, sel: Selection, page: str = "") -> list[Block]:
    """The detail panel under the title: the query word's strongest keys, then the pair's numbers."""
    if sel.query is None:
        return [{"kind": "info", "text": t("detail.nothing")}]
    q_tok = site.query_tokens[sel.query]
    top = details.top_keys(site, head, sel.query)
    out = [_md(t("detail.query_word", word=code(q_tok), pos=sel.query)), _caption(t("detail.where", word=code(q_tok))),
           {"kind": "table", "columns": [t("detail.col_key"), t("detail.col_pos"), t("detail.col_weight"),
                                         t("detail.col_moved")],
            "rows": [[kw.token, kw.key, f"{kw.weight:.4f}", f"{kw.moved:.3f}"] for kw in top]}]
    specials = [kw for kw in top if kw.special]
    if specials:  # weight parked on [CLS] / [SEP]: say where they come from and what they carry
        sink = max(specials, key=lambda kw: kw.weight)
        words = [kw for kw in top if not kw.special]
        out.append(_caption(t("detail.special", tok=code(sink.token), w=f"{sink.weight:.3f}", m=f"{sink.moved:.3f}",
                              word=code(words[0].token) if words else "—",
                              ww=f"{words[0].weight:.3f}" if words else "—",
                              m_word=f"{words[0].moved:.3f}" if words else "—")))
    if sel.key is None:
        return [*out, _caption(t("detail.pick_pair"))]
    if not site.has_qkv:  # no q·k to show: the weight alone, which is the model's own
        weight = t("masked") if site.masked[sel.query, sel.key] else f"{site.weights[head, sel.query, sel.key]:.4f}"
        return [*out, _md(t("detail.pair", q=code(q_tok), k=code(site.key_tokens[sel.key]), qi=sel.query, ki=sel.key)),
                {"kind": "metrics", "items": [[t("detail.weight"), weight, ""]]}]
    cell = details.cell_detail(site, head, sel.query, sel.key)
    out += [_md(t("detail.pair", q=code(cell.query_token), k=code(cell.key_token), qi=cell.query, ki=cell.key)),
            {"kind": "metrics", "items": [  # two by two: four across, half a 1280 px page cut the numbers
                [t("detail.dot"), f"{cell.dot:.4f}", ""],
                [t("detail.scaled"), t("masked") if cell.masked else printed(cell.scaled), ""],
                [t("detail.weight"), f"{cell.weight:.4f}", ""],
                [t("vw.metric"), f"{row_value_weighted(site, head, cell.query)[cell.key]:.4f}", t("vw.help")]]},
            _caption(t("detail.masked_note") if cell.masked
                     else t("detail.scaled_note", scale=f"{cell.scale:.4f}", d_k=site.d_head))]
    if page == "explore":  # Find heads ranks Explore's sentence on Explore's selection
        out.append({"kind": "button", "trigger": FIND_HEADS,
                    "label": t("relevance.explore_link", q=cell.query_token, k=cell.key_token)})
    return out


def dot_parts(site: Site, head: int, sel: Selection, sort: bool, other: int | None) -> dict[str, list[Block]]:
    """The q·k explanation: "explain" (the text above the controls) and "dot-0", "dot-1" (a chart each:
    the pair, and the same query against the `other` key when one is chosen and differs)."""
    if sel.cell is None:
        return {"explain": [{"kind": "info", "text": t("explain.need_pair")}], "dot-0": [], "dot-1": []}
    q_i, k_i = sel.cell
    q_tok = site.query_tokens[q_i]
    anats = [anatomy.dot_anatomy(site, head, q_i, k_i)]
    if other is not None and other != k_i and 0 <= other < len(site.key_tokens):
        anats.append(anatomy.dot_anatomy(site, head, q_i, other))
    y_range = explain_figures.terms_range(*anats)
    q_shown, k_shown = readable_tokens(site.query_tokens), readable_tokens(site.key_tokens)  # Ġcat -> ·cat
    parts: dict[str, list[Block]] = {"explain": [_md(t("dot.explain", q=code(q_tok), k=code(site.key_tokens[k_i])))],
                                     "dot-1": []}
    for i, an in enumerate(anats):
        data = dot.dot_data(
            an, sort, f"q ({q_shown[an.query]})", f"k ({k_shown[an.key]})",
            sum_text=t("dot.sum", total=f"{an.total:.4f}", qi=an.query, ki=an.key).replace("-", "\u2212"),
            vectors_title=t("dot.vectors"), terms_title=t("dot.terms"), dimension_word=t("dot.dimension"),
            terms_range=y_range,
        )
        parts[f"dot-{i}"] = [_md(f"**{code(q_tok)} · {code(site.key_tokens[an.key])}**"), {"kind": "dot", "data": data},
                             _caption(t("dot.stats", agree=an.agreeing, d=an.terms.shape[0], cos=f"{an.cosine:.3f}"))]
    return parts


def render(blocks: list[Block]) -> None:
    """The blocks as Streamlit elements (a host without the browser's panel)."""
    for b in blocks:
        kind = b["kind"]
        if kind == "md":
            st.markdown(b["text"])
        elif kind == "caption":
            st.caption(b["text"])
        elif kind == "info":
            st.info(b["text"])
        elif kind == "table":
            st.dataframe([dict(zip(b["columns"], row, strict=True)) for row in b["rows"]], hide_index=True,
                         width="stretch")
        elif kind == "metrics":
            for col, (label, value, help_text) in zip(st.columns(len(b["items"])), b["items"], strict=True):
                col.metric(label, value, help=help_text or None)
