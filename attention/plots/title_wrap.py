"""Titles in lines a phone's chart can hold: plotly never wraps a title or a subplot's title, and at
390 px Change one word's titles ran past the chart's right edge ("… per hea"). Pure."""

from __future__ import annotations

import re

from attention.plots.heatmaps import text_units

TITLE_UNITS = 40  # a title line's width in Latin characters (text_units): about 300 px, a phone's chart
_NO_LINE_START = set("，。：；、！？）」』》,.:;!?)")  # punctuation that never begins a line
_ATOMS = re.compile(r"&#?\w+;|\s+|[^\s&]")  # an HTML entity stays whole; lines break at spaces or between characters


def wrap_title(text: str, units: int = TITLE_UNITS) -> str:
    """`text` in lines ("<br>") of at most `units` widths: plotly never wraps a title and cut it at 390 px.
    Latin text breaks at spaces, Chinese between characters; lines already broken stay broken."""
    lines = []
    for line in text.split("<br>"):
        current, words = "", re.findall(r"\s+|[^\s]+", line)
        for word in words:
            if text_units(current + word) <= units:
                current += word
            elif word.isspace():
                lines.append(current.rstrip())
                current = ""
            elif text_units(word) > units // 2:  # a long run without spaces (Chinese): fill the line by characters
                for atom in _ATOMS.findall(word):
                    if text_units(current + atom) > units and current.strip() and atom not in _NO_LINE_START:
                        lines.append(current.rstrip())
                        current = ""
                    current += atom
            else:
                if current.strip():
                    lines.append(current.rstrip())
                current = word
        lines.append(current.rstrip())
    return "<br>".join(lines)
