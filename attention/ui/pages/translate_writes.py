"""The Translate page's "What each head writes": behind a switch, at one decoder position, every decoder head's
direct share of the Spanish word's logit (attention/translator/decoder_parts.py through the translator's source):
a grid for the masked self-attention heads and one for the cross-attention heads on one shared colour scale, the
embedding and feed-forward totals, the check that the parts add up, and the chosen head with the words it pushes
up and down. The chosen head is the one picked above when it is a decoder or cross-attention head, else the
grids' standout; a click on a cell picks that head above (as Write's grid does). The translator is tiny: the
parts take milliseconds, so they are read on each run. The link carries the switch and the position."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention import i18n, sources
from attention.analysis import claims, writes_claims
from attention.params.markdown import code
from attention.params.selection import Selection, selection_from_event
from attention.plots.writes_grid import writes_figure
from attention.ui import charts
from attention.ui.hosting import cache
from attention.ui.lang import lang, t
from attention.ui.state import Keys

TOKENS_SHOWN = 5  # promoted and suppressed words listed for the chosen head
GRID_KINDS = ("decoder", "cross")  # the two grids, left to right
SHORT_KIND = {"decoder": "trwrites.kind_decoder", "cross": "trwrites.kind_cross"}  # the kinds' short names
REFUSED = {"few": "trwrites.no_claim_few", "small": "trwrites.no_claim_small", "lead": "trwrites.no_claim_lead",
           "spread": "trwrites.no_claim_spread"}  # writes_claims.refusal's tests: the sentence that names each


def grid_key(kind: str) -> str:
    """The chart key (its click event) of the grid of `kind` heads."""
    return f"tr_writes_{kind}"


def _position(out, selected: int | None) -> int:
    """The decoder position: the link's or the box's, else the selected row's, else the first."""
    n = len(out.target_tokens) + 1  # <bos> and every word fed: the last writes <eos>
    if not isinstance(st.session_state.get(Keys.TR_WRITES_POS), int) or st.session_state[Keys.TR_WRITES_POS] >= n:
        st.session_state[Keys.TR_WRITES_POS] = selected if isinstance(selected, int) and 0 <= selected < n else 0
    fed = ("<bos>", *out.target_tokens)
    made = (*out.target_tokens, "<eos>")
    return int(st.selectbox(t("trwrites.position"), list(range(n)), key=Keys.TR_WRITES_POS,
                            format_func=lambda i, now=lang(): i18n.t("trwrites.position_label", now, i=i, fed=fed[i],
                                                                      made=made[i])))


def _on_grid(kind: str, n_layers: int, n_heads: int) -> None:
    """A cell (layer row, head) of the `kind` grid: that head picked above, in the head view and here."""
    sel = selection_from_event(Selection(), st.session_state.get(grid_key(kind)))
    if sel.query is not None and sel.key is not None and 0 <= sel.query < n_layers and 0 <= sel.key < n_heads:
        ss = st.session_state
        ss[Keys.TR_KIND], ss[Keys.TR_LAYER], ss[Keys.TR_HEAD] = kind, sel.query, sel.key


def chosen_head(a, kind: str, layer: int, head: int) -> tuple[str, int, int, bool]:
    """(kind, layer, head, standout): the head picked above when it writes to the Spanish side (a decoder or
    cross-attention head), else the grids' standout (largest |part|), with standout True."""
    if kind in GRID_KINDS:
        return kind, layer, head, False
    top = a.top(1)[0].head
    return top.kind, top.layer, top.head, True


def _grids(a, label: str, chosen: tuple[str, int, int]) -> None:
    """The two grids side by side, on one colour scale, the chosen head outlined in its own."""
    n_layers, n_heads = a.grid("decoder").shape
    top = float(np.max(np.abs(a.heads))) if a.heads.size else 0.0  # ±top for both: their colours compare
    rows, cols = [t("writes.row", layer=x) for x in range(n_layers)], [t("writes.col", head=h) for h in range(n_heads)]
    token = a.token
    left, right = st.columns(2)
    for where, grid_kind in zip((left, right), GRID_KINDS, strict=True):
        parts = a.grid(grid_kind)
        hover = [t("trwrites.hover", layer=x, head=h, kind=t(SHORT_KIND[grid_kind]), token=token,
                   part=claims.number(float(parts[x, h]), "+.3f")) for x in range(n_layers) for h in range(n_heads)]
        sel = Selection(chosen[1], chosen[2]) if chosen[0] == grid_kind else Selection()
        fig = writes_figure(parts, rows, cols, t(f"kind.{grid_kind}"), (t("writes.axis_layer"), t("writes.axis_head")),
                            sel, top=top, hover=hover)
        charts.show(fig, where, key=grid_key(grid_kind), width="stretch", selection_mode="points",
                    on_select=lambda k=grid_kind: _on_grid(k, n_layers, n_heads),
                    config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]))
    st.caption(t("trwrites.grid_caption", token=label, top=claims.number(top, ".2f")))


def claim_words(a, label: str) -> tuple[bool, str]:
    """(said, sentence) on the standout head: that it writes the token, or which test it failed, with the
    numbers that test judged (writes_claims.refusal)."""
    flat = a.heads.reshape(-1)
    i = int(np.argmax(np.abs(flat)))
    ids = a.head_ids()
    top = ids[i]
    j, other = writes_claims.largest_other(flat, i)
    centre, spread = writes_claims.others_spread(flat, i)
    o = ids[j]
    said = dict(kind=t(f"kind.{top.kind}"), layer=top.layer, head=top.head, token=label,
                part=claims.number(flat[i], "+.3f"), n=flat.size - 1, floor=writes_claims.WRITES_FLOOR,
                lead=writes_claims.WRITES_LEAD, z=f"{writes_claims.WRITES_Z:g}",
                ratio=f"{abs(flat[i]) / max(abs(other), 1e-12):.1f}",
                other=t("trwrites.other", layer=o.layer, head=o.head, kind=t(SHORT_KIND[o.kind]),
                        part=claims.number(other, "+.3f")),
                away=f"{writes_claims.spreads_away(flat, i):.1f}",
                mad=claims.number(spread / writes_claims.MAD_NORMAL, ".2f"), centre=claims.number(centre, "+.2f"))
    failed = writes_claims.refusal(flat, i)
    return failed is None, t("trwrites.claim" if failed is None else REFUSED[failed], **said)


def writes_section(out, kind: str, layer: int, head: int, selected: int | None) -> None:
    """Under the head view: `out` the Translation shown, (kind, layer, head) the head picked above, `selected` the
    decoder row selected there (or None)."""
    st.markdown(f"**{t('writes.title')}**")
    st.caption(t("trwrites.explain"))
    if not st.toggle(t("trwrites.open"), key=Keys.TR_WRITES):
        return
    position = _position(out, selected)
    try:
        a = sources.get(sources.TRANSLATOR).head_writes(cache.translator(), out.trace.text, position=position)
    except Exception as exc:  # said in words, never a traceback
        st.info(t("writes.failed", error=f"{type(exc).__name__}: {exc}"))
        return
    label = code(a.token)
    words = dict(total=claims.number(a.total, ".4f"), logit=claims.number(a.logit, ".4f"), check=f"{a.check:.1e}",
                 tol=f"{1e-4:.0e}", what=t("writes.what_logit"))
    (st.caption if a.adds_up else st.error)(t("trwrites.check_ok" if a.adds_up else "trwrites.check_bad", **words))
    st.caption(t("trwrites.totals", emb=claims.number(a.embedding, "+.3f"),
                 self=claims.number(a.grid("decoder").sum(), "+.3f"), cross=claims.number(a.grid("cross").sum(), "+.3f"),
                 mlps=claims.number(a.mlps.sum(), "+.3f"), out=claims.number(a.out_biases.sum(), "+.3f"),
                 bias=claims.number(a.bias, "+.3f")))
    kind, layer, head, standout = chosen_head(a, kind, layer, head)
    _grids(a, label, (kind, layer, head))
    writes, said = claim_words(a, label)
    (st.markdown if writes else st.caption)(said)
    part = a.part(layer, head, kind)
    st.markdown(t("trwrites.head_standout" if standout else "trwrites.head", kind=t(f"kind.{kind}"), layer=layer,
                  head=head, part=claims.number(part, "+.3f"), token=label))

    def listed(found) -> str:
        return t("trwrites.sep").join(f"{code(x.token)} {claims.number(x.value, '+.2f')}" for x in found)

    st.caption(t("trwrites.promotes", tokens=listed(a.promotes(layer, head, TOKENS_SHOWN, kind=kind))))
    st.caption(t("writes.suppresses", tokens=listed(a.suppresses(layer, head, TOKENS_SHOWN, kind=kind))))
    rank, size = a.rank(layer, head, kind=kind)
    st.caption(t("trwrites.rank", token=label, rank=f"{rank:,}", size=f"{size:,}"))
