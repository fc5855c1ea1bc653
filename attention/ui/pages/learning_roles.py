"""The Learning page's "Head roles over training": per kind of attention, the best head's score of each role
at every training snapshot, and the step where each role appears (or that it never does).

Opened by a toggle: measuring the roles of every snapshot takes a few seconds the page's first visit
should not spend. Each snapshot's roles are cached on their own (cache.snapshot_roles).
"""

from __future__ import annotations

import streamlit as st

from attention.analysis import role_emergence
from attention.analysis.role_emergence import APPEAR_GAP, APPEAR_HOLD, APPEAR_ROLES, APPEAR_TIMES
from attention.plots import role_timeline
from attention.ui.hosting import cache
from attention.ui import charts
from attention.ui.lang import t
from attention.ui.pages.roles_section import why_not
from attention.ui.state import Keys


def sentence(e: role_emergence.Emergence, name: str, total: int) -> str:
    """What may be said of one role, from the appearance rule alone."""
    if e.from_start:
        return t("learning.roles_from_start", role=name, bar=e.bar)
    if e.appears is None:
        return t("learning.roles_never", role=name, last=float(e.best[-1]), bar=e.bar, even=e.even,
                 first=float(e.best[0]))
    layer, head = e.best_head[-1]
    return t("learning.roles_appears", role=name, step=e.appears, bar=e.bar, even=e.even, layer=layer, head=head,
             count=int(e.count[-1]), total=total)


def kind_part(kind: str, steps: list[int], per_snapshot: list) -> None:
    first = per_snapshot[0]
    names = {r: t(f"roles.name.{r}") for r in APPEAR_ROLES}
    for r in APPEAR_ROLES:
        if not first.applies(r):
            st.caption(t("roles.not_measured_kind", kind=t(f"kind.{kind}"), role=names[r], why=why_not(first, r)))
    em = role_emergence.over_training(steps, per_snapshot)
    layers, heads = first.shape
    for e in em.values():
        st.markdown(sentence(e, names[e.role], layers * heads))
    fig = role_timeline.timeline_figure(steps, {r: e.best for r, e in em.items()}, {r: e.bar for r, e in em.items()},
                                        {r: e.appears for r, e in em.items()}, names,
                                        t("learning.roles_chart", kind=t(f"kind.{kind}")), t("learning.roles_best"),
                                        t("learning.step"), t("learning.roles_bar"))
    charts.show(fig, width="stretch", key=f"learn_roles_{kind}")


def roles_over_training() -> None:
    st.subheader(t("learning.roles"))
    if not st.toggle(t("learning.roles_show"), key=Keys.LEARN_ROLES):
        return
    st.caption(t("learning.roles_rule", times=APPEAR_TIMES, gap=APPEAR_GAP, hold=APPEAR_HOLD))
    snaps = cache.translator_snapshots()
    steps = [s for s, _ in snaps]
    per = [cache.snapshot_roles(s) for s in steps]  # one dict kind -> HeadRoles per snapshot
    probe = next(iter(per[-1].values()))
    st.caption(t("roles.probe_pair", words=probe.words, seed=probe.seed, text=probe.text, target=probe.target))
    kinds = list(per[-1])
    for kind, tab in zip(kinds, st.tabs([t(f"kind.{k}") for k in kinds])):
        with tab:
            kind_part(kind, steps, [p[kind] for p in per])
