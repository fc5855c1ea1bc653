"""The Write page's logit lens (each layer's guess at the next token, one row per layer, a layer picked
here opens in the head view) and its attention sinks (per head of the chosen layer: the first token's
weight beside its value-weighted share), both for the newest position of the step shown."""

from __future__ import annotations

from dataclasses import replace

from typing import TYPE_CHECKING

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from attention.analysis.value_weighted import first_token
from attention.plots.bar_table import Column, table_html
from attention.analysis.token_text import readable_tokens
from attention.plots.labels import escape
from attention.ui.hosting import admission
from attention.ui.pages import write_play
from attention.ui.lang import t
from attention.ui.state import Keys

if TYPE_CHECKING:
    from attention.lm.lens import LensRow
    from attention.lm.writer import Writing

LENS_HELD = "wr_lens_held"  # (the token ids read, their lens rows): the last lens of this session
LENS_PICK = "wr_lens_pick"  # the layer picked in the lens, before it is opened in the head view
SINK = 0.3  # a head giving the first token more than this share of its weight is counted a sink
RUNNERS_UP = 3


def length(w: Writing, step: int) -> int:
    """How many tokens the text held after `step` written tokens."""
    return w.n - (len(w.steps) - max(0, min(step, len(w.steps))))


def rows_for(w: Writing, ids: tuple[int, ...]) -> list[LensRow]:
    """The lens at the last of ids, kept for this session until the text or the step shown changes."""
    held = st.session_state.get(LENS_HELD)
    if held is not None and held[0] == ids and held[1] is w.lm:
        return held[2]
    from attention.lm import lens

    with admission.turn():  # a forward pass of the shared model: waits its turn like every model's work
        rows = lens.lens(w.lm, list(ids), len(ids) - 1, k=1 + RUNNERS_UP)
    st.session_state[LENS_HELD] = (ids, w.lm, rows)
    return rows


def open_layer() -> None:
    """Button callback: the layer picked in the lens becomes the head view's (before its widget draws)."""
    pick = st.session_state.get(LENS_PICK)
    if isinstance(pick, int):
        st.session_state[Keys.WR_LAYER] = pick
        write_play.change_frame()


LENS_ON = "wr_lens_on"  # the lens is shown (and computed)


ROW_PX = 35  # st.dataframe's row height (header included)


def lens_notes(rows: list, current: str) -> list[str]:
    """What the lens's two surprises mean: the embedding row naming the current token itself (the
    unembedding is the embedding matrix, tied), and a token that rises in a middle layer and falls again."""
    notes = []
    if rows[0].labels[0] == current:
        notes.append(t("lens.embedding_self", token=current, p=f"{rows[0].probs[0]:.3f}"))
    final = rows[-1].labels[0]
    for i, r in enumerate(rows[1:-1], start=1):  # a middle top token, strong, that the output does not keep
        later = [x.probs[x.labels.index(r.labels[0])] if r.labels[0] in x.labels else 0.0 for x in rows[i + 1:]]
        if r.labels[0] != final and r.probs[0] >= 0.5 and later and min(later) <= r.probs[0] - 0.3:
            notes.append(t("lens.rise_fall", token=r.labels[0], layer=r.layer, p=f"{r.probs[0]:.3f}",
                           low=f"{min(later):.3f}"))
            break
    return notes


def lens_section(w: Writing, step: int) -> None:
    from attention.lm.lens import EMBEDDING, settles_at

    if not st.session_state.get(LENS_ON):
        return
    n = length(w, step)
    try:
        rows = rows_for(w, tuple(w.ids[:n]))
    except Exception as exc:  # said on the page, never as a traceback
        st.error(t("lens.failed", error=f"{type(exc).__name__}: {exc}"))
        return
    current = readable_tokens(w.tokens[max(0, n - 6):n], w.scheme)[-1]  # a Chinese piece read with the text before it
    st.caption(t("lens.position", pos=n - 1, token=current))
    step_n = n - (w.n - len(w.steps))  # the candidates below follow this many written steps
    rows = [replace(r, labels=tuple(w.candidate_label(tok, step_n) for tok in r.tokens)) for r in rows]
    final = rows[-1]
    final_label = final.labels[0]
    last = rows[-1].layer

    def name(layer: int) -> str:
        return t("lens.embedding") if layer == EMBEDDING else t("lens.output", layer=layer) if layer == last else str(layer)

    table = [{t("lens.col_layer"): name(r.layer), t("lens.col_top"): r.labels[0], t("lens.col_p"): r.probs[0],
              t("lens.col_final", token=final_label): r.output_prob,
              t("lens.col_next"): "  ".join(f"{lab} {p:.2f}" for lab, p in zip(r.labels[1:], r.probs[1:], strict=True))}
             for r in rows]
    # every layer in view (a 400 px box showed embed–8 only) and the runners-up given the widest column
    st.dataframe(table, hide_index=True, width="stretch", key="wr_lens_table", height=ROW_PX * (len(table) + 1) + 3,
                 column_config={
                     t("lens.col_layer"): st.column_config.TextColumn(width="small"),
                     t("lens.col_top"): st.column_config.TextColumn(width="small"),
                     t("lens.col_p"): st.column_config.ProgressColumn(min_value=0.0, max_value=1.0, format="%.3f",
                                                                      width="small"),
                     t("lens.col_final", token=final_label): st.column_config.NumberColumn(format="%.4f", width="small"),
                     t("lens.col_next"): st.column_config.TextColumn(width="large")})
    settled = settles_at(rows)
    st.caption(t("lens.settles_embedding", token=final_label) if settled == EMBEDDING
               else t("lens.settles", token=final_label, layer=settled))
    for note in lens_notes(rows, current):
        st.caption(note)
    layers = list(w.layers)
    if st.session_state.get(LENS_PICK) not in layers:
        st.session_state[LENS_PICK] = st.session_state.get(Keys.WR_LAYER, layers[-1])
    row = st.container(horizontal=True, vertical_alignment="bottom")
    row.selectbox(t("lens.pick"), layers, key=LENS_PICK,
                  format_func=lambda layer: f"{layer}: {rows[layer + 1].labels[0]} {rows[layer + 1].probs[0]:.2f}")
    row.button(t("lens.open"), key="wr_lens_open", on_click=open_layer)


def sinks_section(w: Writing, step: int) -> None:
    layer = st.session_state.get(Keys.WR_LAYER)
    if layer not in w.stores:
        return
    site = w.site(layer, step, newest_only=True)
    n = len(site.key_tokens)
    first, newest = w.labels(0, 1)[0], w.labels(n - 1, n)[0]  # as the steps read them: "…们", never "¬"
    st.markdown(t("sinks.explain", layer=layer, token=escape(newest), first=escape(first)))
    if n < 2:
        st.info(t("sinks.only_one"))
        return
    ft = first_token(site)
    per_group = w.stores[layer].heads // w.stores[layer].kv_heads
    columns = [Column(t("sinks.col_head")), Column(t("sinks.col_group")), Column(t("sinks.col_weight"), "share"),
               Column(t("sinks.col_vw"), "share"), Column(t("sinks.col_norm"), "number", decimals=2)]
    st.html(table_html(columns, [(h, h // per_group, ft.weight[h], ft.value_weighted[h], ft.value_norm[h])
                                 for h in range(len(ft.weight))]))  # redrawn every word: no grid (bar_table.py)
    st.caption(t("sinks.summary", layer=layer, sinks=int((ft.weight > SINK).sum()), heads=len(ft.weight),
                 w=f"{ft.weight.mean():.2f}", vw=f"{ft.value_weighted.mean():.2f}"))


def frame() -> tuple[DeltaGenerator, DeltaGenerator]:
    """Both sections' headings, explanation and the lens's switch side by side, drawn by the page's run;
    the two boxes the writing fragment fills."""
    left, right = st.columns(2)
    with left:
        st.subheader(t("lens.title"), anchor=False)
        st.markdown(t("lens.explain"))
        # Off until asked for: one more forward pass over the whole text (0.3 s at 64 tokens, quiet machine)
        # would slow every "Next word" and every tick of Play.
        st.toggle(t("lens.show"), key=LENS_ON)
    right.subheader(t("sinks.title"), anchor=False)
    return left.container(), right.container()
