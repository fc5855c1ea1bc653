"""The clickable S / A / Z heatmaps of one head, the detail panel and the explanations.

Drawn inside a fragment, so a click reruns only this part of the page. A click is copied into
session state by the chart's on_select callback (the returned selection is empty on the rerun
where the highlight redraws the chart), and the highlight is drawn from session state.
"""

from __future__ import annotations

import streamlit as st

from attention.analysis import details, word_merge
from attention.analysis.selection import selection_from_event
from attention.plots import attention_lines, heatmaps
from attention.trace import Site
from attention.ui import charts, explanations, state
from attention.ui.state import Keys, Scope
from attention.ui.lang import t


def code(token: str) -> str:
    """A token as inline code in markdown, whatever backticks it holds."""
    return f"`` {token} ``" if "`" in token else f"`{token}`"


def _on_click(chart_key: str, scope: Scope) -> None:
    event = st.session_state.get(chart_key)
    state.set_selection(selection_from_event(state.get_selection(scope), event), scope)


def _chart(fig, chart_key: str, scope: Scope) -> None:
    st.plotly_chart(
        fig,
        key=chart_key,
        on_select=lambda: _on_click(chart_key, scope),
        selection_mode="points",
        config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]),
        width="stretch",
    )


@st.fragment
def show(site: Site, head: int, page: str, scope: Scope, as_lines_key: str, tab_key: str,
         origin_fn: explanations.OriginFn | None = None) -> None:
    """S and A side by side, Z and the detail panel below, the explanations under them, all for
    the same selection (kept in session state under `scope`); the page's link follows each click."""
    prefix = page
    n_q, n_k = len(site.query_tokens), len(site.key_tokens)
    sel = state.get_selection(scope).clamp(n_q, n_k)
    state.set_selection(sel, scope)
    too_small = n_q * n_k > heatmaps.CELL_CLICK_MAX
    c_how, c_lines = st.columns([3, 1])
    c_how.caption(t("matrices.click_labels") if too_small else t("matrices.click_cells"))
    can_line = max(n_q, n_k) <= attention_lines.LINES_MAX_WORDS
    as_lines = c_lines.toggle(t("lines.toggle"), key=as_lines_key, disabled=not can_line,
                              help=t("lines.help", max=attention_lines.LINES_MAX_WORDS)) and can_line
    masked = t("masked")
    left, right = st.columns(2)
    with left:
        _chart(heatmaps.scores_figure(site, head, sel, title=t("title.S"), masked_text=masked), f"{prefix}_S", scope)
    with right:
        if as_lines:
            q_labels, k_labels = ([heatmaps.label(w) for w in tokens] for tokens in (site.query_tokens, site.key_tokens))
            _chart(attention_lines.lines_figure(site.weights[head], q_labels, k_labels, sel, t("lines.title")),
                   f"{prefix}_A_lines", scope)
        else:
            _chart(heatmaps.weights_figure(site, head, sel, title=t("title.A"), masked_text=masked), f"{prefix}_A",
                   scope)
    left, right = st.columns(2)
    with left:
        _chart(heatmaps.z_figure(site, head, sel, title=t("title.Z")), f"{prefix}_Z", scope)
    with right:
        detail_panel(site, head, scope)
    if st.session_state.get(Keys.MERGE_WORDS):
        whole_words(site, head)
    explanations.show(site, head, origin_fn, prefix, scope, tab_key)
    state.write_url(page)  # a fragment rerun does not reach the end of app.py


def whole_words(site: Site, head: int) -> None:
    """The same head's weights between whole words, beside the per-token charts above."""
    weights, query_words, key_words = word_merge.merged_weights(site)
    st.caption(t("words.note"))
    st.plotly_chart(heatmaps.merged_weights_figure(weights[head], query_words, key_words, t("words.title")),
                    width="stretch", config=charts.config(), key=f"words_{site.kind}_{site.layer}")


def detail_panel(site: Site, head: int, scope: Scope) -> None:
    sel = state.get_selection(scope)
    st.subheader(t("detail.title"))
    if sel.query is None:
        st.info(t("detail.nothing"))
        return
    q_tok = site.query_tokens[sel.query]
    st.markdown(t("detail.query_word", word=code(q_tok), pos=sel.query))
    rows = [
        {t("detail.col_key"): kw.token, t("detail.col_pos"): kw.key, t("detail.col_weight"): round(kw.weight, 4)}
        for kw in details.top_keys(site, head, sel.query)
    ]
    st.caption(t("detail.where", word=code(q_tok)))
    st.dataframe(rows, hide_index=True, width="stretch")
    if sel.key is None:
        st.caption(t("detail.pick_pair"))
        return
    cell = details.cell_detail(site, head, sel.query, sel.key)
    st.markdown(t("detail.pair", q=code(cell.query_token), k=code(cell.key_token), qi=cell.query, ki=cell.key))
    c1, c2, c3 = st.columns(3)
    c1.metric(t("detail.dot"), f"{cell.dot:.4f}")
    c2.metric(t("detail.scaled"), t("masked") if cell.masked else f"{cell.scaled:.4f}")
    c3.metric(t("detail.weight"), f"{cell.weight:.4f}")
    if cell.masked:
        st.caption(t("detail.masked_note"))
    else:
        st.caption(t("detail.scaled_note", scale=f"{cell.scale:.4f}", d_k=site.d_head))


def show_scores_and_weights(site: Site, head: int, prefix: str, scope: Scope, note: str = "",
                            interactive: bool = True) -> None:
    """Only S and A, side by side, with the same click behaviour (interactive=False while animating:
    the same chart drawn several times in one run cannot carry a widget key)."""
    sel = state.get_selection(scope).clamp(len(site.query_tokens), len(site.key_tokens))
    state.set_selection(sel, scope)
    masked = t("masked")
    figures = (heatmaps.scores_figure(site, head, sel, title=f"{t('title.S')} · {note}", masked_text=masked),
               heatmaps.weights_figure(site, head, sel, title=f"{t('title.A')} · {note}", masked_text=masked))
    for col, fig, name in zip(st.columns(2), figures, ("S", "A"), strict=True):
        with col:
            if interactive:
                _chart(fig, f"{prefix}_{name}", scope)
            else:
                st.plotly_chart(fig, width="stretch", config=charts.config())
