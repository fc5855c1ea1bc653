"""Which heads link a query word to a key word: every layer × head ranked by weight or raw score.

With whole words, `query` and `key` are word indices (word_merge.word_groups): the weight is the
merged one (pieces of the key word summed, rows of the query word's pieces averaged), the score the
mean raw q·k over the pairs of pieces the query may see, and the rank the key word's among the query
word's words.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from attention.analysis import word_merge
from attention.analysis.special_tokens import is_special
from attention.trace import Kind, Trace


@dataclass(frozen=True)
class HeadLink:
    kind: Kind
    layer: int
    head: int
    weight: float  # A[query, key] in this head
    score: float  # raw q·k
    rank: int  # 1 = the key is this query's strongest in this head
    top: int = -1  # the key column ranked 1 in this head's row (the key itself when rank is 1)


def rank_heads(tr: Trace, kind: Kind, query: int, key: int, by: Literal["weight", "score"] = "weight",
               merge_words: bool = False) -> list[HeadLink]:
    """Every head of every `kind` site, strongest link from `query` to `key` first."""
    links = []
    for site in tr.sites:
        if site.kind != kind:
            continue
        weights, _, _ = word_merge.site_weights(site, merge_words)  # (heads, query rows, key columns)
        if merge_words:
            q_pieces = word_merge.word_groups(site.query_tokens)[query]
            k_pieces = word_merge.word_groups(site.key_tokens)[key]
            seen = ~site.masked[np.ix_(q_pieces, k_pieces)]  # the decoder hides future pieces: leave them out
            pairs = site.scores[:, q_pieces][:, :, k_pieces]  # (heads, query pieces, key pieces)
            scores = (pairs * seen).sum(axis=(1, 2)) / max(int(seen.sum()), 1)  # (heads,)
        else:
            scores = site.scores[:, query, key]
        row = weights[:, query]  # (heads, key columns)
        ranks = 1 + np.sum(row > row[:, key : key + 1], axis=1)  # keys weighted strictly more, plus one
        tops = np.where(ranks == 1, key, np.argmax(row, axis=1))  # (heads,)
        for h in range(site.n_heads):
            links.append(HeadLink(kind, site.layer, h, float(row[h, key]), float(scores[h]), int(ranks[h]),
                                  int(tops[h])))
    # A weights-only site has no score (NaN): those heads come last when ranking by score.
    return sorted(links, key=lambda link: (False, -link.weight) if by == "weight"
                  else (bool(np.isnan(link.score)), -link.score))


FUNCTION_WORDS = frozenset("the a an this that these those my his her our your their its some of to in on at by for "
                           "with and or but is are was were be been not do does did".split())


def other_word(labels: Sequence[str], query: int, key: int) -> int:
    """A third word to compare the key with (the article's question: does "milk" look at "drank" more
    than at "black"?): the first content word that is neither, else any other position, else the key."""
    content = [i for i, w in enumerate(labels) if not is_special(w) and any(c.isalpha() for c in w)]
    lexical = [i for i in content if labels[i].lower().lstrip("#") not in FUNCTION_WORDS]
    rest = [i for i in lexical + content + list(range(len(labels))) if i not in (query, key)]
    return rest[0] if rest else key


def default_pair(labels: Sequence[str], verbs: Collection[str] = ()) -> tuple[int, int]:
    """A meaningful pair to rank heads on before anyone picks one: the last content word (the query)
    and the verb (the key) — "milk" and "drank" in "the black cat drank the milk". A word counts as
    the verb when its lowercase form is in `verbs`; else the content word before the query is taken.
    Special tokens, punctuation and function words are never chosen. (0, 0) when nothing fits."""
    content = [i for i, w in enumerate(labels)
               if not is_special(w) and any(c.isalpha() for c in w) and w.lower().lstrip("#") not in FUNCTION_WORDS]
    if not content:
        return 0, 0
    query = content[-1]
    verbs_lower = {v.lower() for v in verbs}
    before = [i for i in content if i < query]
    verb = next((i for i in reversed(before) if labels[i].lower() in verbs_lower), None)
    if verb is None:
        verb = before[-1] if before else query
    return query, verb
