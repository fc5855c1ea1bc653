"""The numbers the guided lesson reads from a trace, and the answers to its predictions (pure).

Every claim the lesson makes is one of these functions applied to the learner's own sentence, so the
text can say what the data shows (and say so when the article's pattern does not hold here).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from attention.analysis import anatomy
from attention.analysis.head_links import FUNCTION_WORDS, HeadLink, default_pair, rank_heads
from attention.analysis.special_tokens import is_special
from attention.analysis.value_weighted import value_weighted
from attention.trace import Kind, Site, Trace

TEMPERATURE = 0.5  # the temperature the learner predicts for (sharper than the model's own 1)


def lesson_kind(tr: Trace) -> Kind | None:
    """The self-attention the lesson's model steps follow: the encoder's (every word sees every word)
    when the model has one, else the decoder's masked self-attention; None when it has neither."""
    return next((kind for kind in ("encoder", "decoder") if tr.layers(kind)), None)


def missing_qkv(tr: Trace, kind: Kind) -> str:
    """Why the sites of `kind` hold no q, k, v ("" when they all do): a weights-only family (DeBERTa)."""
    return next((s.missing_qkv for s in tr.sites if s.kind == kind and s.missing_qkv), "")


def content_positions(tokens: Sequence[str]) -> list[int]:
    """Positions holding a word: not a marker, not punctuation."""
    return [i for i, w in enumerate(tokens) if not is_special(w) and any(c.isalnum() for c in w)]


def choice_positions(tokens: Sequence[str], unknown: str = "<unk>") -> list[int]:
    """The positions a learner may choose from: every word, an unknown one (read as <unk>) included, so
    that no position is skipped in the choices ("the (0), is (2)" hid the unknown word at 1)."""
    return [i for i, w in enumerate(tokens) if w == unknown or i in set(content_positions(tokens))]


@dataclass(frozen=True)
class Focus:
    """The three words the lesson follows: the query ("milk"), a related key ("drank") and a third
    key ("black") to compare with. Positions in the site's tokens."""

    query: int
    key: int
    other: int


def focus(tokens: Sequence[str], verbs: Collection[str] = ()) -> Focus:
    """The last content word, the verb (else the content word before it), and the first other content
    word — "milk", "drank", "black" in "the black cat drank the milk" (head_links.default_pair)."""
    query, key = default_pair(tokens, verbs)
    words = content_positions(tokens)
    lexical = [i for i in words if tokens[i].lower().lstrip("#") not in FUNCTION_WORDS]
    rest = [i for i in lexical + words if i not in (query, key)]
    others = [i for i in range(len(tokens)) if i not in (query, key)]
    other = rest[0] if rest else (others[0] if others else key)
    return Focus(query, key, other)


def top_word(site: Site, head: int, query: int) -> int:
    """The word (marker tokens and punctuation left out) the query gives the most weight in this head."""
    words = content_positions(site.key_tokens) or list(range(len(site.key_tokens)))
    row = site.weights[head, query]
    return max(words, key=lambda j: float(row[j]))


def markers_share(site: Site, head: int, query: int) -> float:
    """The weight the query parks on marker tokens and punctuation ([CLS], [SEP], "."), 0…1."""
    words = set(content_positions(site.key_tokens))
    row = site.weights[head, query]
    return float(sum(row[j] for j in range(len(row)) if j not in words))


def best_head(tr: Trace, kind: Kind, query: int, key: int) -> HeadLink:
    """The head where `query` gives `key` the most weight (the relevance finder's first row)."""
    return rank_heads(tr, kind, query, key, by="weight")[0]


def holds(site: Site, head: int, f: Focus) -> bool:
    """The article's claim in this head: the query attends to the related word more than to any other word."""
    return top_word(site, head, f.query) == f.key


def larger_dot(site: Site, head: int, query: int, a: int, b: int) -> int:
    """Which of two keys has the larger raw q·k with the query (a on a tie)."""
    return a if float(site.scores[head, query, a]) >= float(site.scores[head, query, b]) else b


@dataclass(frozen=True)
class TemperatureChange:
    before: float  # the weight at the model's own temperature, 1
    after: float  # at `temperature`
    temperature: float

    @property
    def direction(self) -> str:
        """"up" or "down" (a weight that does not move by 1e-6 counts as "down": it did not go up)."""
        return "up" if self.after > self.before + 1e-6 else "down"


def temperature_change(site: Site, head: int, query: int, key: int,
                       temperature: float = TEMPERATURE) -> TemperatureChange:
    before = anatomy.row_pipeline(site, head, query, 1.0).weights[key]
    after = anatomy.row_pipeline(site, head, query, temperature).weights[key]
    return TemperatureChange(float(before), float(after), temperature)


@dataclass(frozen=True)
class SumShares:
    """How much of a query's output row each key's value brings: ‖w_j·v_j‖ over the sum of them."""

    keys: tuple[int, ...]  # strongest first
    shares: tuple[float, ...]


def sum_shares(site: Site, head: int, query: int, n: int = 2) -> SumShares:
    share = value_weighted(site.pattern(head, slice(query, query + 1))[None], site.head_v(head)[None])[0, 0]
    order = [int(j) for j in np.argsort(-share, kind="stable")[:n]]
    return SumShares(tuple(order), tuple(float(share[j]) for j in order))


def cross_reads(site: Site, target: int) -> tuple[int, np.ndarray]:
    """The source word a target word reads in cross-attention: the key with the largest weight averaged
    over the site's heads (punctuation left out when there are words, an unknown word kept), and that row."""
    row = site.weights[:, target].mean(axis=0)
    words = choice_positions(site.key_tokens) or list(range(len(site.key_tokens)))
    return max(words, key=lambda j: float(row[j])), row


def last_content(tokens: Sequence[str]) -> int:
    words = content_positions(tokens)
    return words[-1] if words else max(len(tokens) - 1, 0)


def first_content(tokens: Sequence[str]) -> int:
    words = content_positions(tokens)
    return words[0] if words else 0


@dataclass(frozen=True)
class MaskPair:
    """A decoder row (the word being written) and a key position (a word fed in), and whether the mask hides it."""

    query: int
    key: int
    hidden: bool


def mask_pair(site: Site) -> MaskPair:
    """The row that writes the first word against the key that feeds the last word written: the
    decoder may not look ahead, so this cell is what the mask is for."""
    query = first_content(site.query_tokens)
    target = last_content(site.query_tokens)
    # key position j feeds the word written at row j-1 (key 0 is <bos>): the last word sits at target+1
    key = min(target + 1, len(site.key_tokens) - 1)
    if key <= query:
        key = len(site.key_tokens) - 1
    return MaskPair(query, key, bool(site.masked[query, key]))


def score(answers: Mapping[str, tuple[str, bool]]) -> tuple[int, int]:
    """(right, answered) over every prediction of the session: answer -> (what was chosen, right)."""
    return sum(1 for _, right in answers.values() if right), len(answers)
