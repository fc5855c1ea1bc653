"""q·k dimension by dimension as a few hundred bytes of JSON for assets/dot.js, which draws it in the
page and, for the next selection, moves the same bars instead of building a chart again (a Plotly
figure made and drawn anew on every click was ~2,300 SVG nodes replaced and the slowest part of the rerun).

Pure: a DotAnatomy and the words in, a JSON-serialisable dict out."""

from __future__ import annotations

from typing import Any

from attention.analysis.anatomy import DotAnatomy

POSITIVE, NEGATIVE = "#d6604d", "#4393c3"  # the S colour scale's red and blue (as plots/explain_figures)
Q_COLOUR, K_COLOUR = "#762a83", "#1b7837"


def _r(values) -> list[float]:
    return [round(float(v), 4) for v in values]


def dot_data(anat: DotAnatomy, sort: bool, q_name: str, k_name: str, sum_text: str, vectors_title: str,
             terms_title: str, dimension_word: str, terms_range: tuple[float, float] | None = None) -> dict[str, Any]:
    """What dot.js draws: q and k per dimension (top), q_d·k_d coloured by sign (bottom), in `sort`'s
    order (largest term first when True); `terms_range` fixes the bottom's y range (two charts side by side)."""
    order = anat.order(sort)
    lo, hi = terms_range if terms_range is not None else (min(float(anat.terms.min()), 0.0),
                                                           max(float(anat.terms.max()), 0.0))
    return {
        "dims": [int(d) for d in order],
        "q": _r(anat.q[order]), "k": _r(anat.k[order]), "terms": _r(anat.terms[order]),
        "range": [round(lo, 4), round(hi, 4)],
        "names": [q_name, k_name], "titles": [vectors_title, terms_title],
        "sum": sum_text, "dimension": dimension_word,
        "colours": {"q": Q_COLOUR, "k": K_COLOUR, "pos": POSITIVE, "neg": NEGATIVE},
    }
