"""Whole words instead of subword pieces: which tokens make one word, and attention between words.

How a tokenizer marks pieces (the scheme is recognised from the tokens themselves):

    WordPiece (BERT)        un ##bel ##ie ##va ##bly   "##" continues the previous word
    byte-level BPE (GPT-2)  Ġun bel iev ably           "Ġ" (a space) starts a word, the rest continue
    SentencePiece (T5, …)   ▁un bel iev ably           "▁" starts a word, the rest continue

Special tokens ([CLS], <s>, …) are always a word of their own. Merging attention keeps it a
distribution: weights into the pieces of one key word are SUMMED (that word gets all the attention
its pieces got), and the rows of the pieces of one query word are AVERAGED, so every row still sums
to 1. Pure numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from attention.analysis.special_tokens import is_special
from attention.trace import Site

Scheme = Literal["wordpiece", "bpe", "sentencepiece", "none"]
BPE_SPACE, BPE_NEWLINE, SP_SPACE = "Ġ", "Ċ", "▁"


def detect_scheme(tokens: tuple[str, ...] | list[str]) -> Scheme:
    """The piece convention the tokens follow; "none" when nothing marks pieces (each token a word)."""
    ordinary = [t for t in tokens if not is_special(t)]
    if any(t.startswith((BPE_SPACE, BPE_NEWLINE)) for t in ordinary):
        return "bpe"
    if any(t.startswith(SP_SPACE) for t in ordinary):
        return "sentencepiece"
    if any(t.startswith("##") and len(t) > 2 for t in ordinary):
        return "wordpiece"
    return "none"


def _starts_word(token: str, scheme: Scheme) -> bool:
    if scheme == "wordpiece":
        return not (token.startswith("##") and len(token) > 2)
    if scheme == "bpe":
        return token.startswith((BPE_SPACE, BPE_NEWLINE))
    if scheme == "sentencepiece":
        return token.startswith(SP_SPACE)
    return True


def word_groups(tokens: tuple[str, ...] | list[str], scheme: Scheme | None = None) -> list[list[int]]:
    """Token positions grouped into words, in order: every position in exactly one group."""
    scheme = detect_scheme(tokens) if scheme is None else scheme
    groups: list[list[int]] = []
    previous_special = True  # the first token always starts a word
    for i, token in enumerate(tokens):
        special = is_special(token)
        if special or previous_special or _starts_word(token, scheme):
            groups.append([i])
        else:
            groups[-1].append(i)
        previous_special = special
    return groups


def word_label(pieces: list[str], scheme: Scheme) -> str:
    """The word the pieces spell: ["un", "##bel", "##ie", "##va", "##bly"] -> "unbelievably"."""
    if len(pieces) == 1 and is_special(pieces[0]):
        return pieces[0]
    if scheme == "wordpiece":
        word = pieces[0] + "".join(p.removeprefix("##") for p in pieces[1:])
    elif scheme == "bpe":
        word = "".join(pieces).lstrip(BPE_SPACE + BPE_NEWLINE)
    elif scheme == "sentencepiece":
        word = "".join(pieces).replace(SP_SPACE, " ").strip()
    else:
        word = "".join(pieces)
    return word or "".join(pieces)


def word_labels(
    tokens: tuple[str, ...] | list[str], groups: list[list[int]], scheme: Scheme | None = None
) -> list[str]:
    scheme = detect_scheme(tokens) if scheme is None else scheme
    return [word_label([tokens[i] for i in g], scheme) for g in groups]


def word_of_token(groups: list[list[int]]) -> list[int]:
    """Position -> index of its word."""
    out = [0] * sum(len(g) for g in groups)
    for w, g in enumerate(groups):
        for i in g:
            out[i] = w
    return out


@dataclass(frozen=True)
class Rows:
    """The rows a page draws for one side, tokens or whole words, and the way back to token positions."""

    labels: list[str]
    groups: list[list[int]]  # the token positions of each row

    @classmethod
    def of(cls, tokens: tuple[str, ...] | list[str], merge: bool) -> Rows:
        if not merge:
            return cls(list(tokens), [[i] for i in range(len(tokens))])
        groups = word_groups(tokens)
        return cls(word_labels(tokens, groups), groups)

    def row_of(self, position: int | None) -> int | None:
        """A token position -> the row it is drawn in (its word, when merged); None if there is none."""
        rows = word_of_token(self.groups)
        return rows[position] if position is not None and 0 <= position < len(rows) else None

    def first_token(self, row: int) -> int:
        """A row -> the token position that stands for it (a word's first piece)."""
        return self.groups[row][0]


def _check(groups: list[list[int]], n: int, side: str) -> None:
    if sorted(i for g in groups for i in g) != list(range(n)) or any(not g for g in groups):
        raise ValueError(f"{side} groups must split positions 0..{n - 1} into non-empty words")


def _reduce(a: np.ndarray, groups: list[list[int]], axis: int) -> np.ndarray:
    """Sum `a` over each group of positions along `axis` (one slice per group, in group order)."""
    if all(g == [i] for i, g in enumerate(groups)):
        return a  # every word one piece: nothing to add up
    order = np.fromiter((i for g in groups for i in g), dtype=np.intp)
    starts = np.cumsum([0] + [len(g) for g in groups[:-1]])
    return np.add.reduceat(np.take(a, order, axis=axis), starts, axis=axis)


def merge_matrix(weights: np.ndarray, query_groups: list[list[int]], key_groups: list[list[int]]) -> np.ndarray:
    """(…, query_pos, key_pos) -> (…, query_words, key_words): key pieces summed, query rows averaged."""
    a = np.asarray(weights, dtype=np.float64)
    n_q, n_k = a.shape[-2:]
    _check(query_groups, n_q, "query")
    _check(key_groups, n_k, "key")
    summed = _reduce(a, key_groups, axis=-1)  # Σ over the pieces of each key word
    sizes = np.array([len(g) for g in query_groups], dtype=np.float64)[:, None]
    return _reduce(summed, query_groups, axis=-2) / sizes  # mean over the pieces of each query word


def merged_weights(site: Site) -> tuple[np.ndarray, list[str], list[str]]:
    """The site's weights between whole words: ((heads, query_words, key_words), query words, key words)."""
    q_groups, k_groups = word_groups(site.query_tokens), word_groups(site.key_tokens)
    weights = merge_matrix(site.weights, q_groups, k_groups).astype(np.float32)
    return weights, word_labels(site.query_tokens, q_groups), word_labels(site.key_tokens, k_groups)


def site_weights(site: Site, merge_words: bool) -> tuple[np.ndarray, list[str], list[str]]:
    """What a page draws: whole-word weights when merging, else the token weights as they are."""
    if merge_words:
        return merged_weights(site)
    return site.weights, list(site.query_tokens), list(site.key_tokens)
