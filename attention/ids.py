"""The names every ranked result of the package shares: a head's id and the "top k" rows.

One head is `HeadId(kind, layer, head)` wherever heads are returned or ranked (a NamedTuple, so it still equals
the plain tuple ("decoder", 18, 6)); "top k" is always a list of named tuples, largest first: `TopHead` for heads
and `TopToken` for tokens. numpy-free and importing nothing: the contract's level.
"""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

R = TypeVar("R")


class HeadId(NamedTuple):
    """One attention head: its kind ("encoder", "decoder", "cross"), layer and head, counted from 0."""

    kind: str
    layer: int
    head: int

    def __str__(self) -> str:
        """The link form.

        Returns:
            str: "decoder.18.6".
        """
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
    """A (kind, layer, head) tuple as a HeadId.

    Args:
        head: (kind, layer, head).

    Returns:
        HeadId: the same head, its fields typed.
    """
    kind, layer, index = head
    return HeadId(str(kind), int(layer), int(index))


class TopRows(list, Generic[R]):
    """A ranking, largest first: a list of TopHead or TopToken rows that can also be called for its first k,
    so `why(...).top[0]` and `why(...).top(3)` both read it."""

    def __call__(self, k: int | None = None) -> list[R]:
        """The first k rows (None: every row).

        Args:
            k: how many.

        Returns:
            list: the first k rows, largest first.
        """
        return list(self) if k is None else list(self)[:k]
