"""The colour legend under a head view (S, A, Z): the bars in the palette the view paints with (the
sidebar's colour-blind choice), S's and Z's ends at this head's largest magnitude (the view's own range:
symmetric around 0 over the cells not masked), and what each colour means in words; and, once the view
writes only some of the words beside its rows, how to read a row."""

from __future__ import annotations

import numpy as np
import streamlit as st

from attention.plots.colour_legend import PALETTES, Scale, legend_html
from attention.trace import Site
from attention.ui.lang import t
from attention.ui.state import Keys

# The view writes a row's word only where rows are LABEL_PX apart (draw.js's HV_LABEL_PX); its smallest
# S and A are SMALLEST_PX tall with TOP_MARGIN_PX of key words above and 4 px below (view.js)
LABEL_PX, SMALLEST_PX, TOP_MARGIN_PX = 13, 300, 84
THINNED_FROM = (SMALLEST_PX - TOP_MARGIN_PX - 4) // LABEL_PX + 1  # 17 rows: every other label, on a narrow page

# palette -> (A's low and high colour, S's and Z's negative and positive colour), as i18n keys
_WORDS = {"standard": (("legend.white", "legend.dark_blue"), ("legend.blue", "legend.red")),
          "cvd": (("legend.dark_blue", "legend.yellow"), ("legend.blue", "legend.orange"))}


def palette() -> str:
    return "cvd" if st.session_state.get(Keys.CVD_COLOURS) else "standard"


def largest(values: np.ndarray, masked: np.ndarray | None = None) -> float:
    """The largest |value| over the cells not masked: the view's symmetric range (draw.js's hvRange)."""
    seen = values if masked is None else values[~masked]
    return float(np.abs(seen).max()) if seen.size else 0.0


def scales(site: Site, head: int, palette_name: str) -> list[Scale]:
    """S, A and Z's bars, with words in the page's language."""
    sequential, diverging = PALETTES[palette_name]
    (a_lo, a_hi), (neg, pos) = ((t(a), t(b)) for a, b in _WORDS[palette_name])
    masked = site.masked
    s_max = largest(site.score_rows(head), masked)
    z_max = largest(site.z_rows(head))
    a_words = t("legend.A", lo=a_lo, hi=a_hi)
    if palette_name == "standard":  # dark blue: the low end of S, the high end of A
        a_words += " " + t("legend.opposite")
    return [Scale(t("headview.S"), diverging, (f"−{s_max:.1f}", "0", f"{s_max:.1f}"),
                  t("legend.S", lo=neg, hi=pos, m=f"{s_max:.1f}")),
            Scale(t("headview.A"), sequential, ("0", "1"), a_words),
            Scale(t("headview.Z"), diverging, (f"−{z_max:.3f}", "0", f"{z_max:.3f}"),
                  t("legend.Z", lo=neg, hi=pos, m=f"{z_max:.3f}", d=site.head_v(head).shape[-1]))]


def show(site: Site, head: int) -> None:
    """The legend as one st.html element (drawn by the browser; a few hundred bytes a word)."""
    hidden = site.masked is not None and bool(site.masked.any())
    st.html(legend_html(scales(site, head, palette()), t("legend.masked") if hidden else None))
    if max(site.shape) >= THINNED_FROM:  # some rows' words are left out: say how to read one
        st.caption(t("legend.rows"))
