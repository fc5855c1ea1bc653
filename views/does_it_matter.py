"""Does it matter? Switch heads off and see what changes; rank heads by effect beside their rank by
attention; for the translator, attribution beside the cross-attention and rollout rows."""

import numpy as np
import streamlit as st

from attention.analysis.token_text import readable_tokens
from attention.analysis import attribution_compare as compare
from attention.analysis import claims
from attention.analysis.effects import MODES, format_heads, parse_heads, ranks, word_changes
from attention.analysis.head_links import rank_heads
from attention.analysis.value_weighted import sink_share, site_value_weighted
from attention.plots import effect_figures
from attention.sources import Source
from attention.trace import KINDS, Trace
from attention.ui.hosting import cache
from attention.ui import charts, sentence, state
from attention.ui.lang import formatter, kind_title, t
from attention.ui.state import Keys

SOURCES = [sentence.TRANSLATOR, sentence.MODEL]


def grid_key(kind: str, layer: int) -> str:
    return f"{Keys.ABL_GRID}_{kind}_{layer}"


def off_heads() -> frozenset:
    try:
        return parse_heads(st.session_state.get(Keys.ABL_HEADS) or "")
    except ValueError:  # a hand-edited link: start with every head on
        return frozenset()


def on_grid(sites: list[tuple[str, int, int]]) -> None:
    """A click in the grid: the heads off are what every row's pills now hold."""
    heads = {(kind, layer, h) for kind, layer, _ in sites for h in st.session_state.get(grid_key(kind, layer)) or []}
    st.session_state[Keys.ABL_HEADS] = format_heads(heads)


def clear() -> None:
    st.session_state[Keys.ABL_HEADS] = ""


def head_grid(tr: Trace) -> frozenset:
    """One row of toggles per kind × layer; a selected head is switched off."""
    sites = sorted(((s.kind, s.layer, s.n_heads) for s in tr.sites), key=lambda x: (KINDS.index(x[0]), x[1]))
    heads = off_heads() & {(k, L, h) for k, L, n in sites for h in range(n)}
    st.session_state[Keys.ABL_HEADS] = format_heads(heads)
    st.markdown(t("ablation.grid"))
    for kind, layer, n in sites:
        key = grid_key(kind, layer)
        st.session_state[key] = [h for h in range(n) if (kind, layer, h) in heads]
        st.pills(t("ablation.grid_row", kind=kind_title(kind), layer=layer), list(range(n)), selection_mode="multi",
                 key=key, on_change=on_grid, args=(sites,))
    st.button(t("ablation.clear"), on_click=clear, disabled=not heads, key="abl_clear")
    return heads


def changes_section(src: Source, text: str, heads: frozenset, mode: str) -> None:
    st.subheader(t("ablation.what_changed"))
    if not heads:
        st.info(t("ablation.none_off"))
        return
    out = cache.ablated(src.name, text, format_heads(heads), mode)
    ab = out.ablation
    if src.predicts == "translation":
        c_on, c_off = st.columns(2)
        c_on.markdown(f"**{t('ablation.all_on')}**")
        c_on.code(ab.base_text or "∅", language=None, wrap_lines=True)  # half a page: a long output wraps
        c_off.markdown(f"**{t('ablation.heads_off_one' if len(heads) == 1 else 'ablation.heads_off', n=len(heads))}**")
        c_off.code(ab.new_text or "∅", language=None, wrap_lines=True)
        if ab.changed:
            st.warning(t("ablation.changed"))
        else:
            st.success(t("ablation.same"))
        rows = [{t("ablation.col_pos"): i, t("ablation.col_before"): b, t("ablation.col_after"): a,
                 t("ablation.col_changed"): "✗" if c else ""}
                for i, (b, a, c) in enumerate(word_changes(ab.base_text.split(), ab.new_text.split()))]
        st.dataframe(rows, hide_index=True, width="stretch", key="abl_words")
    if ab.measure == "log_prob":
        fig = effect_figures.drop_figure(list(ab.tokens), ab.drops, t("ablation.drop_title"), t("ablation.drop_axis"))
        charts.show(fig, width="stretch", key="abl_drops")
        st.caption(t("ablation.drop_caption", mean=claims.nats(ab.effect)))
    else:
        st.metric(t("ablation.pooled"), f"{ab.pooled_cosine:.5f}")
        fig = effect_figures.cosine_figure(list(ab.tokens), ab.hidden_cosine, t("ablation.cos_title"),
                                           t("ablation.cos_axis"))
        charts.show(fig, width="stretch", key="abl_cosines")
        st.caption(t("ablation.cos_caption"))


PAIR_KEYS = {  # by the page that shows a source's head in full (Source.home): the pair is shared with it
    "translate": (Keys.TR_KIND, Keys.TR_SEL_Q, Keys.TR_SEL_K),
    "explore": (Keys.KIND, Keys.SEL_Q, Keys.SEL_K),
}


def pair_picker(tr: Trace, src: Source) -> tuple[str, int, int]:
    """The pair of words whose attention the heads are ranked by (shared with Explore/Find heads or Translate)."""
    kind_key, q_key, k_key = PAIR_KEYS[src.home]
    c_kind, c_q, c_k = st.columns(3)
    kinds = list(tr.kinds)
    state.str_choice(kind_key, kinds, "cross" if "cross" in kinds else None)
    kind = c_kind.selectbox(t("explore.kind"), kinds, key=kind_key, format_func=formatter("kind."))
    site = tr.site(tr.layers(kind)[0], kind)
    q_shown, k_shown = readable_tokens(site.query_tokens), readable_tokens(site.key_tokens)  # Ġcat -> ·cat
    state.int_choice(q_key, list(range(len(site.query_tokens))))
    state.int_choice(k_key, list(range(len(site.key_tokens))))
    q = c_q.selectbox(t("relevance.query"), range(len(site.query_tokens)), key=q_key,
                      format_func=lambda i: f"{q_shown[i]} ({i})")
    k = c_k.selectbox(t("relevance.key"), range(len(site.key_tokens)), key=k_key,
                      format_func=lambda j: f"{k_shown[j]} ({j})")
    return kind, q, k


def ranking_section(tr: Trace, src: Source, text: str, mode: str) -> None:
    st.subheader(t("ablation.ranking"))
    st.caption(t("ablation.ranking_caption"))
    effects = cache.head_effects(src.name, text, mode)
    kind, q, k = pair_picker(tr, src)
    links = {(link.kind, link.layer, link.head): link.weight for link in rank_heads(tr, kind, q, k)}
    shares = {(kind, s.layer, h): float(site_value_weighted(s)[h, q, k])
              for s in tr.sites if s.kind == kind for h in range(s.n_heads)}
    heads = [h for h in effects.heads if h[0] == kind]
    per_word = effects.drops is not None and kind != "encoder" and q < effects.drops.shape[1]
    effect = np.array([effects.drops[effects.of(h), q] if per_word else effects.effect[effects.of(h)] for h in heads])
    weight = np.array([links[h] for h in heads])
    share = np.array([shares[h] for h in heads])
    word_q, word_k = tr.site(tr.layers(kind)[0], kind).query_tokens[q], tr.site(tr.layers(kind)[0], kind).key_tokens[k]
    unit = t("ablation.unit_nats" if effects.measure == "log_prob" else "ablation.unit_cosine")
    st.caption(t("ablation.effect_is_word" if per_word else "ablation.effect_is_total", word=word_q))
    matters = claims.heads_matter(effect)
    for key, values in claims.ranking(effect, weight, share):
        level = values.pop("level_key", None)
        st.markdown(t(key, q=word_q, k=word_k, unit=unit, **values, **({"level": t(level)} if level else {})))
    changed = effects.changed()
    changed = changed if changed is not None and changed.any() else None  # an empty column says nothing
    r_eff, r_w = ranks(effect), ranks(weight)
    rows = [{t("ablation.col_head"): f"{h[1]}.{h[2]}", t("ablation.col_effect", unit=unit): claims.nats(float(effect[i])),
             **({t("ablation.col_effect_rank"): r_eff[i]} if matters else {}),
             t("ablation.col_weight"): round(float(weight[i]), 4),
             t("ablation.col_weight_rank"): r_w[i], t("ablation.col_share"): round(float(share[i]), 4),
             **({t("ablation.col_changes"): "✗" if changed[effects.of(h)] else ""} if changed is not None else {})}
            for i, h in enumerate(heads)]
    rows.sort(key=lambda r: r[t("ablation.col_effect_rank")] if matters else r[t("ablation.col_weight_rank")])
    st.dataframe(rows, hide_index=True, width="stretch", key="abl_ranking")
    if effects.changed() is not None:
        names = [f"{h[0]}.{h[1]}.{h[2]}" for h, c in zip(effects.heads, effects.changed(), strict=True) if c]
        st.caption(t("ablation.alone_changes", heads=", ".join(names)) if names else t("ablation.alone_none"))


def sinks_section(tr: Trace) -> None:
    rows = []
    for s in tr.sites:
        share = sink_share(s)
        if share.tokens:
            rows.append({t("ablation.col_site"): f"{kind_title(s.kind)} {s.layer}",
                         t("ablation.col_sinks"): " ".join(sorted(set(share.tokens))),
                         t("ablation.col_sink_weight"): round(share.weight, 3),
                         t("ablation.col_sink_share"): round(share.value_weighted, 3)})
    if rows:
        st.subheader(t("ablation.sinks"))
        st.caption(t("ablation.sinks_caption"))
        st.dataframe(rows, hide_index=True, width="stretch", key="abl_sinks")


def attribution_section(out) -> None:
    st.subheader(t("ablation.attribution"))
    st.caption(t("ablation.attribution_caption"))
    words = list(out.target_tokens) + ["<eos>"]
    state.int_choice(Keys.ABL_WORD, list(range(len(words))))
    pos = st.selectbox(t("ablation.output_word"), range(len(words)), key=Keys.ABL_WORD,
                       format_func=lambda i: f"{words[i]} ({i})")
    a = cache.attribution(out.trace.text, pos)
    measures = {"cross": compare.cross_row(out.trace, pos), "rollout": compare.rollout_row(out.trace, pos),
                "gxi": a.gradient_x_input, "ig": a.integrated_gradients}
    names = {key: t(f"ablation.m.{key}") for key in measures}
    fig = effect_figures.measures_figure(list(out.source_tokens), measures, names,
                                         t("ablation.measures_title", word=words[pos]), t("ablation.measures_axis"))
    charts.show(fig, width="stretch", key="abl_measures")
    table = compare.agreement_table(measures)
    st.dataframe([{t("ablation.col_a"): names[x], t("ablation.col_b"): names[y],
                   t("ablation.col_rho", n=len(out.source_tokens)): f"{r:.2f}"}
                  for (x, y), r in table.items()], hide_index=True, width="stretch", key="abl_agreement")
    tops = {names[key]: out.source_tokens[compare.top_word(v)] for key, v in measures.items()}
    differ = compare.disagreements(measures, "cross")
    if differ:
        st.warning(t("ablation.disagree", measures=", ".join(names[d] for d in differ),
                     tops="; ".join(f"{n}: {w}" for n, w in tops.items())))
    else:
        st.success(t("ablation.agree_all", word=tops[names["cross"]]))
    st.caption(t("ablation.completeness", steps=a.steps, word=words[pos], gap=f"{a.completeness_gap:.3f}",
                 diff=f"{a.f_input - a.f_baseline:.3f}"))


def ablation_page() -> None:
    st.title(t("ablation.title"))
    st.markdown(t("ablation.explain"))
    state.str_choice(Keys.ABL_SOURCE, SOURCES)
    choice = st.radio(t("ablation.source"), SOURCES, key=Keys.ABL_SOURCE, horizontal=True,
                      format_func=formatter("ablation.source_"))
    src = sentence.chosen(choice)
    out = sentence.source_output(src, height=68, show=False)
    if out is None:
        return
    tr, text = out.trace, out.trace.text
    sentence.name_model(None if src.predicts == "translation" else tr.model_name)
    if not src.switches_heads(tr):  # switching heads off rides on the attention-function registry
        st.info(t("ablation.no_switch", model=tr.model_name))
        sinks_section(tr)
        return
    state.str_choice(Keys.ABL_MODE, list(MODES))
    st.radio(t("ablation.mode"), list(MODES), key=Keys.ABL_MODE, horizontal=True,
             format_func=formatter("ablation.mode_"), help=t("ablation.mode_help"))
    mode = st.session_state[Keys.ABL_MODE]
    heads = head_grid(tr)
    changes_section(src, text, heads, mode)
    ranking_section(tr, src, text, mode)
    sinks_section(tr)
    if src.predicts == "translation":  # attribution is the translator's (gradients through its own words)
        attribution_section(out)
    with st.expander(t("ablation.honest_title")):
        st.markdown(t("ablation.honest"))


ablation_page()
