"""The Overview's "Head roles" section: the grid coloured by a role, a sortable table, the probe, the CSV.

Opened by a toggle, so nothing is measured (and nothing is sent) until someone asks for it.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from attention import ModelLoadError, sources
from attention.analysis.head_roles import HIGH_IS_ROLE, ROLES, SINK_EPSILON
from attention.plots import role_grid
from attention.plots.head_grid import head_from_event
from attention.ui.hosting import cache
from attention.ui import charts, state
from attention.ui.lang import t
from attention.ui.pages.proof_section import proof_section
from attention.ui.state import Keys

PRETRAINED, LANGUAGE_MODEL = "model", "smollm2"  # the choice (and the link's value): the sidebar's model, or SmolLM2


GRID = "overview_roles_grid"  # the grid chart (its click event)


def open_head(roles, model: str | None) -> None:
    """A click on a head: the page that shows the source's heads in full (Explore; Translate for the
    translator) on that head, reading the very probe that scored it (the induction stripe in view)."""
    picked = head_from_event(st.session_state.get(GRID))
    if picked is None:
        return
    layer, head = picked
    if cache.source(model).home == "translate":  # its English probe; Translate writes its own Spanish
        state.go_later("translate", **{Keys.TR_TEXT: roles.text, Keys.TR_KIND: roles.kind, Keys.TR_LAYER: layer,
                                       Keys.TR_HEAD: head})
        return
    state.go_later("explore", **{Keys.TEXT: roles.text, Keys.MODEL_PATH: model or "", Keys.KIND: roles.kind,
                                 Keys.LAYER: layer, Keys.HEAD: head})


def kind_choice(src) -> str | None:
    """The kind of attention to measure, for a source with several (the translator); None otherwise."""
    if not src.role_kinds:
        return None
    state.str_choice(Keys.OV_ROLES_KIND, list(src.role_kinds))
    kinds = {k: t(f"kind.{k}") for k in src.role_kinds}
    return st.radio(t("roles.kind"), list(src.role_kinds), format_func=kinds.get, key=Keys.OV_ROLES_KIND,
                    horizontal=True)


def why_not(roles, role: str) -> str:
    """Why a role is not measured here, in the chosen language."""
    return t(f"roles.na.cross.{role}" if roles.kind == "cross" else f"roles.na.{role}")


def roles_section(page_src, model_path: str | None) -> None:
    """page_src: the source the page shows; model_path: the sidebar's model (the link's name for it)."""
    st.subheader(t("roles.title"))
    if not st.toggle(t("roles.show"), key=Keys.OV_ROLES):
        return
    if page_src != cache.source(model_path):  # the page shows the translator: measure it, by its name
        model_path = page_src.name
    if page_src == cache.source(sources.SMOLLM2):  # the page's model is SmolLM2 already: name it once
        models = {LANGUAGE_MODEL: t("roles.model.smollm2")}
    else:
        models = {PRETRAINED: t("roles.model.named", name=page_src.label()), LANGUAGE_MODEL: t("roles.model.smollm2")}
    names_of = {PRETRAINED: model_path, LANGUAGE_MODEL: sources.SMOLLM2}  # the choice -> the source's name
    state.str_choice(Keys.OV_ROLES_MODEL, list(models))
    which = st.radio(t("roles.model"), list(models), format_func=models.get, key=Keys.OV_ROLES_MODEL, horizontal=True)
    kind = kind_choice(cache.source(names_of[which]))
    try:
        roles = cache.head_roles(names_of[which], kind)
    except (ModelLoadError, ValueError, RuntimeError, OSError) as exc:
        st.warning(t("roles.failed", why=str(exc)))
        return
    names = {r: t(f"roles.name.{r}") for r in ROLES}
    state.str_choice(Keys.OV_ROLE, [r for r in ROLES if roles.applies(r)], default="induction")
    role = st.selectbox(t("roles.role"), [r for r in ROLES if roles.applies(r)], format_func=names.get,
                        key=Keys.OV_ROLE)
    st.caption(t(f"roles.formula.{role}"))
    if roles.target:  # the translator reads two sentences
        st.caption(t("roles.probe_pair", words=roles.words, seed=roles.seed, text=roles.text, target=roles.target))
    else:
        st.caption(t("roles.probe", words=roles.words, seed=roles.seed, length=roles.length, text=roles.text))
    for r in roles.notes:
        if kind is None:
            st.info(t("roles.not_measured", role=names[r], why=why_not(roles, r)))
        else:  # a model with several kinds: the role is missing from this kind only
            st.info(t("roles.not_measured_kind", kind=t(f"kind.{kind}"), role=names[r], why=why_not(roles, r)))
    fig = role_grid.role_figure(roles.scores[role], t("roles.grid_title", role=names[role]), t("roles.layer"),
                                t("roles.head"), low_is_role=not HIGH_IS_ROLE[role])
    charts.show(fig, config=charts.config(modeBarButtonsToRemove=["select2d", "lasso2d"]), width="stretch",
                key=GRID, on_select=lambda: open_head(roles, names_of[which]), selection_mode="points")
    st.caption(t("roles.click_translate" if cache.source(names_of[which]).home == "translate" else "roles.click"))
    st.caption(t("roles.sink_rate", rate=roles.sink_rate, eps=SINK_EPSILON))
    layers, heads = roles.shape
    table = pd.DataFrame({"layer": [i // heads for i in range(layers * heads)],
                          "head": [i % heads for i in range(layers * heads)],
                          **{r: roles.scores[r].ravel() for r in ROLES if roles.applies(r)}})
    table = table.sort_values(role, ascending=not HIGH_IS_ROLE[role], kind="stable")
    table = table.rename(columns={"layer": t("roles.layer"), "head": t("roles.head"), **names})
    st.dataframe(table.round(3), hide_index=True, width="stretch", key="overview_roles_table")
    st.caption(t("roles.table_caption"))
    st.download_button(t("roles.csv"), roles.to_csv, key="overview_roles_csv", on_click="ignore",
                       file_name=f"head_roles_{which}{'_' + kind if kind else ''}_seed{roles.seed}.csv", mime="text/csv")
    proof_section(names_of[which], roles, cache.source(names_of[which]).predicts == "next_token")
