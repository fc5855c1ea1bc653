"""What the person has selected (a query word, a key word, or a cell) and how clicks change it.

Pure functions, so the click logic is tested without a browser. A click arrives from a plotly chart
as a point whose customdata is [query_idx, key_idx]; -1 means "this click names no such word"
(a click on a column label names only a key word).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Selection:
    query: int | None = None  # a row: the word whose query is asking
    key: int | None = None  # a column: the word whose key is being asked

    def clamp(self, n_query: int, n_key: int) -> Selection:
        """Drop a part that no longer exists (the sentence got shorter)."""
        q = self.query if self.query is not None and 0 <= self.query < n_query else None
        k = self.key if self.key is not None and 0 <= self.key < n_key else None
        return Selection(q, k)

    @property
    def cell(self) -> tuple[int, int] | None:
        return None if self.query is None or self.key is None else (self.query, self.key)


NO_SELECTION = Selection()  # the default of every figure that can highlight a selection (frozen: safe to share)


def click_to_selection(current: Selection, customdata: Any) -> Selection:
    """Apply one click: [q, k] selects a cell, [q, -1] a query word, [-1, k] a key word."""
    try:
        q, k = (int(x) for x in customdata[:2])
    except (TypeError, ValueError, IndexError):
        return current
    if q >= 0 and k >= 0:
        return Selection(q, k)
    if q >= 0:
        return replace(current, query=q)
    if k >= 0:
        return replace(current, key=k)
    return current


def selection_from_event(current: Selection, event: Any) -> Selection:
    """The selection after a Streamlit plotly selection event (the last clicked point wins)."""
    try:
        points = event["selection"]["points"]
    except (KeyError, TypeError):
        return current
    for point in reversed(points or []):
        data = point.get("customdata") if isinstance(point, dict) else None
        if data is not None:
            return click_to_selection(current, data)
    return current


def to_params(sel: Selection) -> dict[str, str]:
    """The URL query parameters that carry the selection."""
    out = {}
    if sel.query is not None:
        out["q"] = str(sel.query)
    if sel.key is not None:
        out["k"] = str(sel.key)
    return out


def from_params(params: dict[str, str]) -> Selection:
    def num(name: str) -> int | None:
        raw = params.get(name)
        try:
            return int(raw) if raw is not None else None
        except ValueError:
            return None

    return Selection(num("q"), num("k"))
