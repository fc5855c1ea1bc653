"""The Compare page's drawings: the edit alignment of the two inputs' tokens, the output's change, the grid
of every head's change, one head's S and A of both runs with A_B − A_A, and the patching's ranking.
Every sentence built from numbers asks attention/analysis/claims.py first."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

from attention import sources
from attention.analysis import claims
from attention.analysis.alignment import positions
from attention.analysis.attention_change import difference
from attention.params.markdown import code, literal
from attention.analysis.patch_result import Patching, measure_key
from attention.params.selection import Selection
from attention.analysis.token_text import readable_tokens, scheme_of
from attention.plots import heatmaps
from attention.plots.labels import token_labels
from attention.plots.next_word import top_figure
from attention.sources.comparison import Comparison
from attention.ui import charts
from attention.ui.hosting import cache
from attention.ui.lang import kind_title, site_notes, t
from attention.ui.head_view.matrices import axis_names
from attention.ui.state import Keys

TOP_LINKS = 5  # heads offered as buttons under the grid and under the patching
TABLE_ROWS = 10
GRID_TITLES = {"js": "compare.grid_title_js", "max_abs": "compare.grid_title_max_abs"}


def head_name(kind: str, layer: int, head: int) -> str:
    return t("compare.head_name", kind=kind_title(kind), layer=layer, head=head)


def _words(tokens: tuple[str, ...], changed: set[int], colour: str) -> str:
    """The tokens as literal markdown, the changed ones on a coloured background."""
    shown = readable_tokens(tokens)
    return " ".join(f":{colour}-background[{literal(w) or '∅'}]" if i in changed else (literal(w) or "∅")
                    for i, w in enumerate(shown))


def alignment(c: Comparison) -> None:
    al = c.alignment
    st.subheader(t("compare.alignment"))
    changed_a = {i for s in al.changed for i in range(*s.a)}
    changed_b = {j for s in al.changed for j in range(*s.b)}
    # "A:" not "A ·": "·" is the leading-space mark of the tokens that follow
    st.markdown(f"**A**: {_words(al.tokens_a, changed_a, 'red')}\n\n**B**: {_words(al.tokens_b, changed_b, 'green')}")
    st.caption(t("compare.aligned_one" if len(al.changed) == 1 else "compare.aligned", shared=len(al.pairs),
                 n_a=len(al.tokens_a), n_b=len(al.tokens_b), changes=len(al.changed)))
    scheme = scheme_of(al.tokens_a + al.tokens_b)
    if scheme in ("bpe", "sentencepiece"):  # tokens that carry their spaces
        st.caption(t("tokens.marks"))
    if scheme == "bpe" and any(ord(ch) >= 0x2E80 for ch in c.text_a + c.text_b):  # Chinese read as UTF-8 bytes
        st.info(t("write.bytes_note"))  # as on Write and the lesson: what "猫…" and ⟨e4⟩ are, and what it means
    if al.changed:
        shown_a, shown_b = readable_tokens(al.tokens_a), readable_tokens(al.tokens_b)
        none = t("compare.nothing")
        rows = [{t("compare.col_in_a"): " ".join(shown_a[s.a[0]:s.a[1]]) or none,
                 t("compare.col_in_b"): " ".join(shown_b[s.b[0]:s.b[1]]) or none,
                 t("compare.col_where"): f"{positions(s.a) or none} / {positions(s.b) or none}"} for s in al.changed]
        st.dataframe(rows, hide_index=True, width="stretch", key="cmp_changes")


def unreadable(src, unread: tuple[int, int, int, int], use_smollm2) -> None:
    """The model cannot read some characters of the sentences: said, with SmolLM2 (which reads any) a click away."""
    n_a, len_a, n_b, len_b = unread
    st.warning(t("compare.unreadable", model=src.label(), n_a=n_a, len_a=len_a, n_b=n_b, len_b=len_b))
    if src != cache.source(sources.SMOLLM2):
        st.button(t("compare.use_smollm2"), key="cmp_use_smollm2", on_click=use_smollm2, type="primary")


def identical(c: Comparison) -> None:
    grid = np.nan_to_num(np.abs(c.grid("max_abs")))
    st.info(t("compare.identical", max=f"{grid.max(initial=0.0):g}", js=f"{np.nan_to_num(c.grid('js')).max(initial=0.0):g}"))


def output(c: Comparison) -> None:
    st.subheader(t("compare.output"))
    o = c.output
    if o.kind == "next_token":
        left, right = st.columns(2)
        runs = ((left, "A", o.top_a, c.alignment.tokens_a), (right, "B", o.top_b, c.alignment.tokens_b))
        for col, which, top, context in runs:  # each run's candidates read after its own text
            fig = top_figure([tok for tok, _ in top], [p for _, p in top], t("compare.next_title", which=which),
                             t("write.chart_x"), context=context)
            charts.show(fig, key=f"cmp_next_{which}", where=col)
        if o.js is not None:
            st.caption(t("compare.next_js", js=f"{o.js:.3f}"))
    elif o.kind == "translation":
        left, right = st.columns(2)
        left.markdown("**A**")
        left.code(o.text_a or "∅", language=None, wrap_lines=True)
        right.markdown("**B**")
        right.code(o.text_b or "∅", language=None, wrap_lines=True)
        st.caption(t("compare.translation_same" if o.text_a == o.text_b else "compare.translation_changed"))
    else:
        st.metric(t("compare.cosine"), f"{o.cosine:.4f}")
        st.caption(t("compare.cosine_caption", distance=f"{1 - o.cosine:.4f}"))


def unseen(c: Comparison, pair: tuple[str, str], on_pair: Callable[[], None]) -> None:
    """A causal model and the change last: no shared token can see it, so no head is ranked (every
    change would read 0 and every patch restore nothing); the next token is where it shows."""
    st.info(t("compare.unseen", js=f"{c.output.js:.3f}" if c.output.js is not None else "–"))
    st.button(t("compare.try_pair", a=pair[0], b=pair[1]), key="cmp_causal_pair", on_click=on_pair, icon=":material/swap_horiz:")


def grid(c: Comparison, measure: str, on_click: Callable[[], None]) -> None:
    values = c.grid(measure)  # (sites, heads)
    # short row words ("decoder 12"): the full kind ("decoder self-attention (masked) 12") was clipped on the left
    rows = [t("compare.site_row", kind=t(f"compare.kind_short.{s.kind}"), layer=s.layer) for s in c.sites]
    cols = [t("compare.head_col", head=h) for h in range(values.shape[1])]
    chosen = (st.session_state.get(Keys.CMP_KIND), st.session_state.get(Keys.CMP_LAYER))
    row = next((i for i, s in enumerate(c.sites) if (s.kind, s.layer) == chosen), None)
    top = float(np.nanmax(values)) if np.isfinite(values).any() else 0.0
    fig = heatmaps.matrix_figure(values, rows, cols, title=t(GRID_TITLES[measure]), colorscale="Reds",
                                 zmin=0.0, zmax=max(top, 1e-12), fmt=".3f",
                                 sel=Selection(row, st.session_state.get(Keys.CMP_HEAD) if row is not None else None),
                                 masked=np.isnan(values), masked_text=t("compare.no_head"),
                                 axis_names=(t("compare.axis_site"), t("compare.axis_head")))
    charts.show(fig, key=Keys.CMP_GRID, on_select=on_click, selection_mode="points",
                config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]), width="stretch")
    st.caption(t("compare.grid_caption", top=f"{top:.3f}"))


def head(c: Comparison, kind: str, layer: int, head: int) -> None:
    """One head: A of both runs, A_B − A_A on the aligned words, S of both (when the model gives q, k)."""
    sa, sb = c.trace_a.site(layer, kind), c.trace_b.site(layer, kind)
    change = next(s for s in c.sites if (s.kind, s.layer) == (kind, layer))
    st.markdown(t("compare.head_numbers", head=head_name(kind, layer, head), js=f"{change.js[head]:.3f}",
                  max=f"{change.max_abs[head]:.3f}"))
    rows, cols = change.rows.index(), change.cols.index()
    d = difference(sa.model_weights[head], sb.model_weights[head], rows, cols)  # (R, C + 1)
    masked = np.zeros_like(d, dtype=bool)
    masked[:, :-1] = sa.masked[np.ix_(rows[0], cols[0])]
    d = np.where(masked, np.nan, d)
    q_words = [token_labels(sa.query_tokens)[i] for i in rows[0]]
    k_words = [token_labels(sa.key_tokens)[j] for j in cols[0]] + [t("compare.elsewhere")]
    m = float(np.nanmax(np.abs(d))) if np.isfinite(d).any() else 0.0
    fig = heatmaps.matrix_figure(d, q_words, k_words, title=t("compare.diff_title"), colorscale="RdBu_r", zmid=0.0,
                                 zmin=-max(m, 1e-12), zmax=max(m, 1e-12), fmt="+.3f", masked=masked,
                                 masked_text=t("masked"), axis_names=axis_names())
    tab_d, tab_a, tab_s = st.tabs([t("compare.tab_diff"), t("compare.tab_a"), t("compare.tab_s")])
    with tab_d:
        charts.show(fig, key="cmp_diff", width="stretch")
        st.caption(t("compare.diff_caption"))
    with tab_a:
        left, right = st.columns(2)
        for col, which, site in ((left, "A", sa), (right, "B", sb)):
            charts.show(heatmaps.weights_figure(site, head, title=t("compare.a_title", which=which),
                                                masked_text=t("masked"), axis_names=axis_names()),
                        key=f"cmp_a_{which}", width="stretch", where=col)
    with tab_s:
        if not sa.has_qkv:
            st.info("\n\n".join(site_notes(sa, head)))
        else:
            left, right = st.columns(2)
            for col, which, site in ((left, "A", sa), (right, "B", sb)):
                charts.show(heatmaps.scores_figure(site, head, title=t("compare.s_title", which=which),
                                                   masked_text=t("masked"), axis_names=axis_names()),
                            key=f"cmp_s_{which}", width="stretch", where=col)


def measure_words(c: Comparison, p: Patching) -> str:
    """What the restored share is a share of, with both runs' values."""
    o = c.output
    if o.kind == "next_token":  # the labels as the charts show them (a leading space "·", a Chinese piece "…人")
        words = {"a": code(p.labels[0]), "b": code(p.labels[1]), "ld_a": claims.nats(p.ld_a),
                 "ld_b": claims.nats(p.ld_b)}
        top_b = None if o.probs_b is None else int(np.argmax(o.probs_b))
        if measure_key(p.tokens, top_b) == "tops":
            return t("compare.measure_lm", **words)
        chance = {w: f"{o.probability(w, p.tokens[1]):.3f}" for w in ("A", "B")}
        return t("compare.measure_lm_rose", **words, p_a=chance["A"], p_b=chance["B"])
    words = {"a": code(p.labels[0]), "b": code(p.labels[1]), "ld_a": claims.nats(p.ld_a), "ld_b": claims.nats(p.ld_b)}
    if c.output.kind == "translation":
        return t("compare.measure_tr", **words)
    full = "–" if c.output.cosine is None else f"{1 - c.output.cosine:.4f}"
    return t("compare.measure_emb", d=claims.nats(p.ld_a), full=full)


def patching(c: Comparison, p: Patching, together: Patching) -> list[tuple[tuple[str, int, int], float]]:
    """The ranking's words and table; returns the heads to offer as links ([] when nothing is ranked)."""
    if p.note:
        st.info(t("compare.nothing_to_restore"))
        return []
    st.markdown(measure_words(c, p))
    key, values = claims.carrier(p.restored, p.ld_b - p.ld_a)
    named = {"head": head_name(*p.heads[values["i"]])} if "i" in values else {}
    st.markdown(t(key, **{k: v for k, v in values.items() if k != "i"}, **named))
    if key == "compare.claim.none":
        return []
    st.caption(t("compare.together", share=f"{together.restored[0]:.1%}"))
    ranked = p.ranked()
    rows = [{t("compare.col_rank"): i + 1, t("compare.col_head"): head_name(*h), t("compare.col_share"): f"{s:.1%}"}
            for i, (h, s) in enumerate(ranked[:TABLE_ROWS])]
    st.dataframe(rows, hide_index=True, width="stretch", key="cmp_patch_table")
    over = claims.overlapping(p.restored)
    if over is not None:
        st.caption(t("compare.shares_overlap", **over))
    st.markdown(t("compare.top_restoring"))
    return ranked[:TOP_LINKS]
