"""One Back press per view the person asked for.

Streamlit adds a browser-history entry each time a run changes the address: a page switch adds two
(the new page's parameters under the old path, then the new path), and a run that writes the address
twice (app.py: before and after the page draws) adds two more. Back then lands on the same view again.

This element, drawn once per run and invisible, wraps the page's `history.pushState`: an entry is added
only for the first change after a person's click or key press; every later change before the next one
replaces the current entry. Back or Forward itself moves nothing here: Streamlit reruns on it and says
so (the run's context has is_history_navigation), and state.returned_to() then reads the view the
address names.
"""

from __future__ import annotations

import streamlit as st

_JS = """
export default function () {
  if (window.__attentionHistory) return;  // once per page load, whatever the reruns
  window.__attentionHistory = true;
  let acted = false;  // a person clicked or typed since the last entry was added
  for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, () => { acted = true; }, true);
  const push = history.pushState.bind(history);
  const replace = history.replaceState.bind(history);
  history.pushState = function (state, title, url) {
    if (!acted) return replace(state, title, url);
    acted = false;
    return push(state, title, url);
  };
}
"""

_ELEMENT = st.components.v2.component("attention_history", js=_JS)


def one_entry_per_action() -> None:
    """Draw the invisible element (app.py, every run, before the address is written)."""
    _ELEMENT(key="attention-history")
