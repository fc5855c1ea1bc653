"""The Translate page's "What each head writes": behind a switch, at one decoder position, every decoder head's
direct share of the Spanish word's logit (attention/translator/decoder_parts.py through the translator's source):
a grid for the masked self-attention heads and one for the cross-attention heads, the embedding and feed-forward
totals, the check that the parts add up, and the head chosen above with the words it pushes up and down. The
translator is tiny: the parts take milliseconds, so they are read on each run. The link carries the switch and
the position."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention import i18n, sources
from attention.analysis import claims, writes_claims
from attention.params.markdown import code
from attention.plots.writes_grid import writes_figure
from attention.ui import charts
from attention.ui.hosting import cache
from attention.ui.lang import lang, t
from attention.ui.state import Keys

TOKENS_SHOWN = 5  # promoted and suppressed words listed for the chosen head


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
    (st.caption if a.adds_up else st.error)(t("writes.check_ok" if a.adds_up else "writes.check_bad", **words))
    st.caption(t("trwrites.totals", emb=claims.number(a.embedding, "+.3f"),
                 self=claims.number(a.grid("decoder").sum(), "+.3f"), cross=claims.number(a.grid("cross").sum(), "+.3f"),
                 mlps=claims.number(a.mlps.sum(), "+.3f"), out=claims.number(a.out_biases.sum(), "+.3f"),
                 bias=claims.number(a.bias, "+.3f")))
    n_layers, n_heads = a.grid("decoder").shape
    rows, cols = [t("writes.row", layer=x) for x in range(n_layers)], [t("writes.col", head=h) for h in range(n_heads)]
    left, right = st.columns(2)
    for where, grid_kind in ((left, "decoder"), (right, "cross")):
        fig = writes_figure(a.grid(grid_kind), rows, cols, t(f"kind.{grid_kind}"),  # the word: in the caption
                            (t("writes.axis_layer"), t("writes.axis_head")))
        charts.show(fig, where, key=f"tr_writes_{grid_kind}", width="stretch")
    st.caption(t("trwrites.grid_caption", token=label))
    flat = a.heads.reshape(-1)
    i = int(np.argmax(np.abs(flat)))
    top = a.head_ids()[i]
    said = dict(kind=t(f"kind.{top.kind}"), layer=top.layer, head=top.head, token=label,
                part=claims.number(flat[i], "+.3f"), n=flat.size - 1)
    if writes_claims.writes(flat, i):
        st.markdown(t("trwrites.claim", **said))
    else:
        st.caption(t("trwrites.no_claim", **said))
    if kind == "encoder":
        st.caption(t("trwrites.encoder"))
        return
    part = a.part(layer, head, kind)
    st.markdown(t("trwrites.head", kind=t(f"kind.{kind}"), layer=layer, head=head, part=claims.number(part, "+.3f"),
                  token=label))

    def listed(found) -> str:
        return ", ".join(f"{code(x.token)} {claims.number(x.value, '+.2f')}" for x in found)

    st.caption(t("writes.promotes", tokens=listed(a.promotes(layer, head, TOKENS_SHOWN, kind=kind))))
    st.caption(t("writes.suppresses", tokens=listed(a.suppresses(layer, head, TOKENS_SHOWN, kind=kind))))
    rank, size = a.rank(layer, head, kind=kind)
    st.caption(t("writes.rank", token=label, rank=f"{rank:,}", size=f"{size:,}"))
