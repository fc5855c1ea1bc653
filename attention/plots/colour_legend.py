"""The head view's colour legend: one bar per matrix with its ends in numbers, and a sentence saying what
its colours mean. Drawn by the page beside the view (st.html): the view's canvas draws no legend, and the
same dark blue means opposite things in S (a very negative score) and A (a weight near 1).

The colour stops are draw.js's (tests/plots/test_colour_legend.py reads them there), so a bar here is
the scale the view paints with."""

from __future__ import annotations

import html
from dataclasses import dataclass

BLUES = ["#f7fbff", "#deebf7", "#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b"]
RDBU = ["#053061", "#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7",
        "#fddbc7", "#f4a582", "#d6604d", "#b2182b", "#67001f"]
CIVIDIS = ["#00224e", "#123570", "#3b496c", "#575d6d", "#707173", "#8a8779", "#a69d75", "#c4b56c",
           "#e4cf5b", "#fee838"]
BUOR = ["#08306b", "#2171b5", "#6baed6", "#c6dbef", "#f7f7f7", "#fdd0a2", "#fd8d3c", "#d94801", "#7f2704"]
# palette -> (sequential: A, diverging: S and Z), as draw.js's hvLuts
PALETTES: dict[str, tuple[list[str], list[str]]] = {"standard": (BLUES, RDBU), "cvd": (CIVIDIS, BUOR)}
MASKED = "#d9d9d9"  # draw.js's HV_MASKED

_STYLE = """<style>
.hv-legend { display: flex; flex-wrap: wrap; gap: 6px 20px; font-size: 0.8rem; margin: 2px 0 6px; }
.hv-legend figure { margin: 0; flex: 1 1 15rem; max-width: 24rem; }
.hv-legend figcaption { font-weight: 600; }
.hv-legend .bar { height: 0.7rem; outline: 1px solid rgba(128, 128, 128, 0.4); }
.hv-legend .ends { display: flex; justify-content: space-between; font-variant-numeric: tabular-nums; }
.hv-legend .masked { display: inline-block; width: 0.7rem; height: 0.7rem; vertical-align: middle;
  outline: 1px solid rgba(128, 128, 128, 0.4); margin-right: 4px; }
.hv-legend p { margin: 2px 0 0; font-size: 0.8rem; line-height: 1.35; }
</style>"""


@dataclass(frozen=True)
class Scale:
    """One matrix's bar: its title, colours (low to high), the numbers at its ends (and middle, for a
    scale centred on 0) and what the colours mean, in words."""

    title: str
    stops: list[str]
    ends: tuple[str, ...]  # (low, high) or (low, 0, high)
    meaning: str


def legend_html(scales: list[Scale], masked_word: str | None = None) -> str:
    """The bars side by side (wrapping on a phone); `masked_word`: the words for the grey of a hidden cell,
    shown once, when the matrix has any. Every text is escaped."""
    parts = []
    for s in scales:
        ends = "".join(f"<span>{html.escape(e)}</span>" for e in s.ends)
        parts.append(f'<figure><figcaption>{html.escape(s.title)}</figcaption>'
                     f'<div class="bar" style="background: linear-gradient(to right, {", ".join(s.stops)})"'
                     f' aria-hidden="true"></div><div class="ends">{ends}</div>'
                     f"<p>{html.escape(s.meaning)}</p></figure>")
    if masked_word:
        parts.append(f'<p><span class="masked" style="background: {MASKED}" aria-hidden="true"></span>'
                     f"{html.escape(masked_word)}</p>")
    return f'{_STYLE}<div class="hv-legend">{"".join(parts)}</div>'
