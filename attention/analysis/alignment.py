"""Align the tokens of two inputs A and B by an edit alignment (difflib's matching blocks), so that
what A and B share can be compared position by position and what changed is named.

    al = align(("The", "cat", "was", "thirsty"), ("The", "cat", "was", "sour"))
    al.pairs    # ((0, 0), (1, 1), (2, 2))   aligned positions (i in A, j in B)
    al.changed  # (Span(a=(3, 4), b=(3, 4)),) the tokens replaced, inserted or deleted
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

MAX_LENGTH_RATIO = 2.0  # B at most twice as long as A (or half as long): beyond that it is another sentence
MIN_SHARED = 0.5  # at least half of the shorter input's tokens must be matched


@dataclass(frozen=True)
class Span:
    """One change: tokens a[0]:a[1] of A became tokens b[0]:b[1] of B (an empty range: inserted/deleted)."""

    a: tuple[int, int]
    b: tuple[int, int]


@dataclass(frozen=True)
class Alignment:
    tokens_a: tuple[str, ...]
    tokens_b: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]  # (i in A, j in B), increasing in both
    changed: tuple[Span, ...]
    refusal: str = ""  # why A and B cannot be compared ("" when they can)

    @property
    def ok(self) -> bool:
        return not self.refusal

    @property
    def identical(self) -> bool:
        return self.tokens_a == self.tokens_b

    def index(self) -> tuple[list[int], list[int]]:
        """The aligned positions as two index lists, A's and B's."""
        return [i for i, _ in self.pairs], [j for _, j in self.pairs]


def align(tokens_a: Sequence[str], tokens_b: Sequence[str], refuse: bool = True) -> Alignment:
    """The edit alignment of two token lists. With `refuse`, empty inputs, lengths more than
    MAX_LENGTH_RATIO apart or fewer than MIN_SHARED of the shorter one's tokens in common give an
    Alignment whose `refusal` says why (its pairs are still filled in)."""
    a, b = tuple(tokens_a), tuple(tokens_b)
    matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    pairs, changed = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend(zip(range(i1, i2), range(j1, j2), strict=True))
        else:
            changed.append(Span((i1, i2), (j1, j2)))
    refusal = _refusal(a, b, len(pairs)) if refuse else ""
    return Alignment(a, b, tuple(pairs), tuple(changed), refusal)


def shared_after_change(al: Alignment) -> bool:
    """Some shared token stands after a change, in A or in B. In a causal model a token sees only the
    tokens before it, so only such a token can see the change; False when nothing changed."""
    if not al.changed:
        return False
    first_a = min(s.a[0] for s in al.changed)
    first_b = min(s.b[0] for s in al.changed)
    return any(i >= first_a or j >= first_b for i, j in al.pairs)


def positions(span: tuple[int, int]) -> str:
    """A half-open range of positions as a reader counts them: (9, 10) is "9", (9, 12) "9–11", and an
    empty range (an insertion or deletion on the other side) "" (the page says "nothing")."""
    start, stop = span
    if stop <= start:
        return ""
    return str(start) if stop - start == 1 else f"{start}–{stop - 1}"


def why_refused(n_a: int, n_b: int, shared: int) -> str:
    """Which rule refuses two inputs of n_a and n_b tokens sharing `shared`: "empty", "lengths",
    "shared", or "" (they can be compared). A page words the rule in its own language."""
    if not n_a or not n_b:
        return "empty"
    short, long_ = sorted((n_a, n_b))
    if long_ > MAX_LENGTH_RATIO * short:
        return "lengths"
    if shared < MIN_SHARED * short:
        return "shared"
    return ""


def _refusal(a: tuple[str, ...], b: tuple[str, ...], shared: int) -> str:
    why = why_refused(len(a), len(b), shared)
    if why == "empty":
        return "one of the two inputs has no tokens"
    if why == "lengths":
        return (f"the inputs' lengths are too different to align ({len(a)} and {len(b)} tokens; "
                f"at most {MAX_LENGTH_RATIO:g}× apart)")
    if why == "shared":
        return (f"the inputs have too little in common to align ({shared} of {min(len(a), len(b))} tokens shared; "
                f"at least {MIN_SHARED:.0%} needed)")
    return ""
