"""What head_stats measures per head (its own module: the streamed pass, analysis/streamed.py, makes them too)."""

from __future__ import annotations

from dataclasses import dataclass

# column -> what the table calls it
STAT_COLUMNS: dict[str, str] = {
    "entropy": "entropy (nats)",
    "distance": "mean distance (tokens)",
    "special_share": "share on special / first token",
    "previous_share": "share on previous token",
    "self_share": "share on itself",
}


@dataclass(frozen=True)
class HeadStats:
    layer: int
    head: int
    kind: str
    entropy: float
    distance: float
    special_share: float
    previous_share: float
    self_share: float
