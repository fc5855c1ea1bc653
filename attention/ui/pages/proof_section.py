"""The proof under Overview → Head roles: "Prove it" switches off a role's top-k heads against k random heads
(capture/role_proof.py), draws the curve and its numbers, and says through claims.role_matters whether
the role's heads matter."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attention import ModelLoadError
from attention.analysis import claims
from attention.capture.role_proof import PAGE, PROVABLE
from attention.plots import proof_curve
from attention.ui.hosting import cache
from attention.ui import charts
from attention.ui.lang import t


def proof_section(name: str | None, roles, can_prove: bool) -> None:
    st.markdown(f"**{t('proof.title')}**")
    if not can_prove:
        st.info(t("proof.needs_lm"))
        return
    st.caption(t("proof.how", draws=PAGE["draws"], probes=PAGE["probes"], k=max(PAGE["ks"])))
    for role in [r for r in PROVABLE if roles.applies(r)]:
        role_name = t(f"roles.name.{role}")
        key = f"overview_proof_{role}"
        if not (st.button(t("proof.button", role=role_name), key=key) or st.session_state.get(key + "_done")):
            continue
        bar = st.progress(0.0, text=t("proof.progress", role=role_name))
        try:
            proof = cache.role_proof(name, role, lambda done, total: bar.progress(done / total,
                                                                                  text=t("proof.progress", role=role_name)))
        except (ModelLoadError, ValueError, RuntimeError, OSError) as exc:
            bar.empty()
            st.warning(t("proof.failed", why=str(exc)))
            continue
        bar.empty()
        st.session_state[key + "_done"] = True
        show(proof, role_name)


def show(proof, role_name: str) -> None:
    """The curve, the table and the one sentence the numbers allow."""
    names = {"top": t("proof.line.top"), "random": t("proof.line.random"), "draws": t("proof.line.draws"),
             "base": t("proof.line.base", base=proof.base_loss), "k": t("proof.k"), "loss": t("proof.loss")}
    fig = proof_curve.proof_figure(proof.ks, proof.base_loss, proof.top_loss, proof.random_loss, names)
    charts.show(fig, width="stretch", key=f"overview_proof_chart_{proof.role}")
    k = claims.first_k_that_matters(proof.ks, proof.top_loss, proof.random_loss, proof.base_loss)
    if k is None:
        st.info(t("proof.does_not_matter", role=role_name, k=max(proof.ks)))
    else:
        st.success(t("proof.matters", role=role_name, k=k))
    rows = pd.DataFrame(proof.rows()).rename(columns={
        "top": t("proof.col.top"), "random_mean": t("proof.col.mean"), "random_sd": t("proof.col.sd"),
        "random_min": t("proof.col.min"), "random_max": t("proof.col.max")})
    st.dataframe(rows.round(3), hide_index=True, width="stretch", key=f"overview_proof_table_{proof.role}")
    st.caption(t("proof.heads", heads=", ".join(f"L{layer}H{head}" for _, layer, head in proof.ranked)))
