"""The Write page's "What each head writes", inside "Why this word": behind a switch (one forward pass a word),
a layer × head grid of every head's direct share of the chosen word's logit (attention/lm/head_writes.py), the
embedding and MLP totals and the check that the parts add up; the head chosen (the head view's) with the tokens
it pushes up and down, what it read, and beside what switching it off costs when "Explain" has run. Sentences
are earned in attention/analysis/claims.py. The link carries the switch, the word, the word it is set against
and (as the head view's) the head."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention.analysis import claims, writes_claims
from attention.params.markdown import code
from attention.params.selection import Selection, selection_from_event
from attention.plots.why_bars import attribution_figure
from attention.plots.writes_grid import writes_figure
from attention.ui import charts
from attention import i18n
from attention.ui.lang import lang, t
from attention.ui.pages import write_play
from attention.ui.state import Keys

CANDIDATES = 10  # the words offered: the step's likeliest (the word explained first)
TOKENS_SHOWN = 5  # promoted and suppressed tokens listed for the chosen head
NO_VS = -1  # "rather than" nothing: an option of its own (None would draw the box empty once set by the page)
_FOLLOW = "_wr_writes_follow"  # (layer, head) no one chose: while the head view shows it, the standout is chosen
_ASKED = "_wr_writes_standout"  # the standout asked for, set before the pickers draw on the next run


def follow_unless_linked(default: tuple[int, int]) -> None:
    """Called by the page before its defaults: a head the link (or another page) gave is kept; without one the
    section chooses the grid's standout head (largest |part|), shown by the head view as well."""
    ss = st.session_state
    asked = ss.pop(_ASKED, None)
    if asked is not None:
        ss[Keys.WR_LAYER], ss[Keys.WR_HEAD] = asked
    elif Keys.WR_HEAD not in ss and _FOLLOW not in ss:
        ss[_FOLLOW] = default


def _standout(a) -> None:
    """While no one has chosen a head, choose the grid's standout: the pickers are drawn before this, so the
    head is asked for and the page runs again (once per new standout)."""
    ss = st.session_state
    follow = ss.get(_FOLLOW)
    if follow is None:
        return
    if follow != (ss.get(Keys.WR_LAYER), ss.get(Keys.WR_HEAD)):  # a head was chosen since: it stays
        ss.pop(_FOLLOW)
        return
    top = a.top(1)[0].head
    if (top.layer, top.head) != follow:
        ss[_FOLLOW] = ss[_ASKED] = (top.layer, top.head)
        st.rerun()


def _on_grid(layers: tuple[int, ...], heads: int) -> None:
    """A cell is (layer row, head): that head in the head view and here."""
    sel = selection_from_event(Selection(), st.session_state.get(Keys.WR_WRITES_GRID))
    if sel.query is not None and sel.key is not None and 0 <= sel.query < len(layers) and 0 <= sel.key < heads:
        st.session_state[Keys.WR_LAYER], st.session_state[Keys.WR_HEAD] = layers[sel.query], sel.key
        st.session_state.pop(_FOLLOW, None)  # chosen: no longer the standout's
        write_play.change_frame()


def _choices(w, step: int, target: int) -> tuple[int, int | None]:
    """The word (one of the step's likeliest, the explained one first) and the word it is set against."""
    options = [target, *(i for i in w.distribution(step).top_ids if i != target)][:CANDIDATES]
    raw = dict(zip(options, w.lm.tokenizer.convert_ids_to_tokens(options), strict=True))
    if st.session_state.get(Keys.WR_WRITES_TOKEN) not in options:
        st.session_state[Keys.WR_WRITES_TOKEN] = target
    row = st.container(horizontal=True)
    token = row.selectbox(t("writes.word"), options, key=Keys.WR_WRITES_TOKEN,
                          format_func=lambda i: w.candidate_label(raw[i], step))
    against = [NO_VS, *(i for i in options if i != token)]
    if st.session_state.get(Keys.WR_WRITES_VS) not in against:  # a label of the other language, a word gone: none
        st.session_state[Keys.WR_WRITES_VS] = NO_VS
    vs = row.selectbox(t("writes.vs"), against, key=Keys.WR_WRITES_VS,
                       format_func=lambda i, now=lang(): i18n.t("writes.vs_none", now) if i == NO_VS
                       else w.candidate_label(raw[i], step))
    return int(token), None if vs == NO_VS else int(vs)


def _answer(w, ids: tuple[int, ...], token: int, vs: int | None):
    """The parts for (ids, token, vs), kept while they are asked for; a str says why not."""
    from attention.lm import head_writes

    key = (ids, token, vs)
    kept = st.session_state.get(Keys.WR_WRITES_ANSWER)
    if kept and kept[0] == key:
        return kept[1]
    try:
        answer = head_writes.writes(w.lm, list(ids), token)
        answer = answer if vs is None else answer.difference(token, vs)
    except head_writes.Refused as exc:
        answer = t("writes.refused", reason=str(exc))
    except Exception as exc:  # said in words, never a traceback
        answer = t("writes.failed", error=f"{type(exc).__name__}: {exc}")
    st.session_state[Keys.WR_WRITES_ANSWER] = (key, answer)
    return answer


def writes_section(w, step: int) -> None:
    """The part for `step` of the Writing `w`, under "Why this word"."""
    from attention.lm import why

    st.markdown(f"**{t('writes.title')}**")
    st.caption(t("writes.explain"))
    if not st.toggle(t("writes.open"), key=Keys.WR_WRITES):
        return
    if write_play.playing(w):
        st.caption(t("writes.playing"))
        return
    ids, target = why.target(w, step)
    token, vs = _choices(w, step, target)
    a = _answer(w, ids, token, vs)
    if isinstance(a, str):
        st.info(a)
        return
    label = code(w.candidate_label(a.token, step))
    if a.vs is not None:  # every sentence below is about the difference, and says so
        label = t("writes.rather", token=label, vs=code(w.candidate_label(a.names([a.vs])[0], step)))
    words = dict(total=claims.number(a.total, ".4f"), logit=claims.number(a.logit, ".4f"),
                 check=f"{a.check:.1e}", tol=f"{1e-4:.0e}",
                 what=t("writes.what_logit" if a.vs is None else "writes.what_difference"))
    (st.caption if a.adds_up else st.error)(t("writes.check_ok" if a.adds_up else "writes.check_bad", **words))
    st.caption(t("writes.totals", emb=claims.number(a.embedding, "+.3f"), heads=claims.number(a.heads.sum(), "+.3f"),
                 mlps=claims.number(a.mlps.sum(), "+.3f"), out=claims.number(a.out_biases.sum(), "+.3f"),
                 bias=claims.number(a.bias, "+.3f")))
    _standout(a)
    layers, n_heads = a.layers, a.heads.shape[1]
    layer, head = st.session_state.get(Keys.WR_LAYER), st.session_state.get(Keys.WR_HEAD)
    chosen = (layers.index(layer), head) if layer in layers and isinstance(head, int) and head < n_heads else None
    title = t("writes.chart_title", token=w.candidate_label(a.token, step)) if a.vs is None else t(
        "writes.chart_title_vs", token=w.candidate_label(a.token, step),
        vs=w.candidate_label(a.names([a.vs])[0], step))
    fig = writes_figure(a.heads, [t("writes.row", layer=x) for x in layers], [t("writes.col", head=h) for h in range(n_heads)],
                        title, (t("writes.axis_layer"), t("writes.axis_head")),
                        Selection(*chosen) if chosen else Selection())
    charts.show(fig, key=Keys.WR_WRITES_GRID, on_select=lambda: _on_grid(layers, n_heads), selection_mode="points",
                config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]), width="stretch")
    st.caption(t("writes.grid_caption" if a.vs is None else "writes.grid_caption_vs"))
    _claim(a, label)
    cost = _cost(ids, a)
    if chosen:
        _head(w, step, a, label, *chosen, cost)
    if cost is not None:
        _beside(a, cost, _probability(w, step, a.token_id))


def _probability(w, step: int, token: int) -> float:
    """The word's probability from the model's own logits at this step (temperature 1)."""
    logits = np.asarray(w.distribution(step).logits, dtype=np.float64)
    e = np.exp(logits - logits.max())
    return float(e[token] / e.sum())


def _cost(ids: tuple[int, ...], a):
    """"Explain"'s answer (every head switched off) when it is for this very word, else None."""
    kept = st.session_state.get(Keys.WR_WHY)
    if a.vs is None and kept and kept[0] == (ids, a.token_id) and not isinstance(kept[1], str):
        return kept[1]
    return None


def _claim(a, label: str) -> None:
    flat = a.heads.reshape(-1)
    i = int(np.argmax(np.abs(flat)))
    layer, head = a.layers[i // a.heads.shape[1]], i % a.heads.shape[1]
    centre, spread = writes_claims.others_spread(flat, i)
    j, other = writes_claims.largest_other(flat, i)
    words = dict(layer=layer, head=head, token=label, part=claims.number(flat[i], "+.3f"), n=flat.size - 1,
                 mad=claims.number(spread / writes_claims.MAD_NORMAL, ".3f"), centre=claims.number(centre, "+.3f"),
                 o_layer=a.layers[j // a.heads.shape[1]], o_head=j % a.heads.shape[1],
                 other=claims.number(other, "+.3f"))
    if writes_claims.writes(flat, i):
        st.markdown(t("writes.claim", **words))
    else:
        st.caption(t("writes.no_claim", **words))


BESIDE = 5  # heads listed beside each other: the most written and the most costly


def _beside(a, answer, p: float) -> None:
    """The heads that write most and those whose switching off costs most, both numbers side by side, and what
    they say together where claims allow it (writes_claims.direct_and_cost)."""
    flat, n_heads = a.heads.reshape(-1), a.heads.shape[1]
    drops = {tuple(h): float(d) for h, d in zip(answer.heads, answer.drops, strict=True)}
    by_part = [int(i) for i in np.argsort(-np.abs(flat), kind="stable")[:BESIDE]]
    costly = sorted(range(flat.size), key=lambda i: -drops.get(("decoder", a.layers[i // n_heads], i % n_heads), 0.0))
    rows = [f"| {t('writes.col_head')} | {t('writes.col_part')} | {t('writes.col_change')} | {t('writes.col_said')} |",
            "|---|---:|---:|---|"]
    for i in dict.fromkeys([*by_part, *costly[:BESIDE]]):
        layer, head = a.layers[i // n_heads], i % n_heads
        drop = drops.get(("decoder", layer, head), 0.0)
        said = writes_claims.direct_and_cost(float(flat[i]), drop, writes_claims.writes(flat, i))
        words = {"compensated": t("writes.said_compensated"), "indirect": t("writes.said_indirect"),
                 "opposite": t("writes.said_opposite")}.get(said, "")
        rows.append(f"| {t('writes.head_short', layer=layer, head=head)} | {claims.number(flat[i], '+.3f')} | {claims.number(-drop, '+.3f')} | {words} |")
    st.caption(t("writes.beside"))
    st.markdown("\n".join(rows))
    st.caption(t("writes.units", p=claims.number(p, ".3f")))


def _head(w, step: int, a, label: str, row: int, head: int, answer) -> None:
    layer = a.layers[row]
    part = float(a.heads[row, head])
    st.markdown(t("writes.head", layer=layer, head=head, part=claims.number(part, "+.3f"), token=label))

    def listed(rows) -> str:
        return ", ".join(f"{code(w.candidate_label(x.token, step))} {claims.number(x.value, '+.2f')}" for x in rows)

    st.caption(t("writes.promotes", tokens=listed(a.promotes(layer, head, TOKENS_SHOWN))))
    st.caption(t("writes.suppresses", tokens=listed(a.suppresses(layer, head, TOKENS_SHOWN))))
    rank, size = a.rank(layer, head)  # exact: 1 + the tokens it pushes up strictly more
    st.caption(t("writes.rank", token=code(w.candidate_label(a.token, step)), rank=f"{rank:,}", size=f"{size:,}"))
    if answer is None:
        st.caption(t("writes.no_cost"))
    else:
        drop = float(answer.drops[list(answer.heads).index(("decoder", layer, head))])
        st.caption(t("writes.cost", change=claims.number(-drop, "+.3f"), part=claims.number(part, "+.3f")))
        said = writes_claims.direct_and_cost(part, drop, writes_claims.writes(a.heads.reshape(-1), row * a.heads.shape[1] + head))
        if said:
            st.markdown({"compensated": t("writes.compensated"), "indirect": t("writes.indirect"),
                         "opposite": t("writes.opposite")}[said])
    if a.reads is not None:
        n = a.reads.shape[-1]
        fig = attribution_figure(list(a.tokens), {t("writes.read_series"): list(a.reads[row, head])},
                                 t("writes.read_title", layer=layer, head=head), t("writes.read_x"),
                                 labels=w.labels(0, n))
        charts.show(fig, key="wr_writes_read")
