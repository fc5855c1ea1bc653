"""The names every ranked result of the package shares: a head's id and the "top k" rows.

One head is `HeadId(kind, layer, head)` wherever heads are returned or ranked (a NamedTuple, so it still equals
the plain tuple ("decoder", 18, 6)); "top k" is always a list of named tuples, largest first: `TopHead` for heads
and `TopToken` for tokens. numpy-free and importing nothing: the contract's level.
"""

from __future__ import annotations

from typing import NamedTuple


class HeadId(NamedTuple):
    """One attention head: its kind ("encoder", "decoder", "cross"), layer and head, counted from 0."""

    kind: str
    layer: int
    head: int

    def __str__(self) -> str:
        return f"{self.kind}.{self.layer}.{self.head}"


class TopHead(NamedTuple):
    """A head and its score in a ranking (what the ranking measures is said by the function that made it)."""

    head: HeadId
    score: float


class TopToken(NamedTuple):
    """A token in a ranking: its text as the model wrote it (raw), its id, and its value (a probability or a
    logit contribution, as the function that made it says)."""

    token: str
    value: float
    token_id: int = -1


def head_id(head: tuple[str, int, int] | HeadId) -> HeadId:
    """A (kind, layer, head) tuple as a HeadId."""
    kind, layer, index = head
    return HeadId(str(kind), int(layer), int(index))
