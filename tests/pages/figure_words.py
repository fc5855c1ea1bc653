"""The words a person reads in the plotly figures of a page (collected from the figure specs)."""

from __future__ import annotations

import json
import re

# ASCII words allowed in any language: notation and names, not English prose
NOTATION = frozenset({"softmax", "LayerNorm", "rollout", "MiniLM", "max", "min", "log", "cos", "PNG", "SVG"})
WORD = re.compile(r"[A-Za-z]{3,}")


def _text(x) -> str | None:
    return x.get("text") if isinstance(x, dict) else x


def figure_texts(spec: dict) -> list[tuple[str, str]]:
    """(where, text) for the title, every axis title, every annotation and every legend entry shown."""
    layout = spec.get("layout", {})
    out = [("title", _text(layout.get("title")))]
    out += [(name, _text(axis.get("title"))) for name, axis in layout.items()
            if re.fullmatch(r"[xy]axis\d*", name) and isinstance(axis, dict)]
    out += [("annotation", a.get("text")) for a in layout.get("annotations") or []]
    if layout.get("showlegend", True) is not False:
        out += [("legend", tr.get("name")) for tr in spec.get("data", []) if tr.get("showlegend", True)]
    return [(where, text) for where, text in out if text]


def page_texts(at) -> list[tuple[str, str]]:
    return [item for chart in at.get("plotly_chart") for item in figure_texts(json.loads(chart.proto.spec))]


def english_left(texts: list[tuple[str, str]], allowed: set[str]) -> list[tuple[str, str]]:
    """The texts holding an ASCII word of 3+ letters that is neither notation nor a word of the
    sentence on screen (`allowed`: its tokens)."""
    ok = NOTATION | {w.lower() for w in allowed}
    return [(where, text) for where, text in texts
            if any(w.lower() not in ok for w in WORD.findall(re.sub(r"<[^>]+>", " ", text)))]
