"""Does an English sentence lie inside what the translator was trained on? (pure)

The corpus comes from four sentence patterns (corpus.py), so a sentence is "in distribution" when
every word is in the vocabulary AND its word classes follow one of them:

    NP  is|are|was|were  [not]  ADJ          [.]
    NP  is|are|was|were  [not]  PREP  NP     [.]
    NP  [does|do|did not]  VERB  NP          [.]
    NP  [does|do|did not]  VERB              [.]
    NP = DETERMINER [ADJ] NOUN

A word not in the vocabulary may stand for any noun, adjective or verb (its shape is checked; that it
is unknown is said apart). Agreement and meaning are not checked ("the milk drank the cat" passes): only the shape the
grammar could have produced. "My grandmother bakes bread every Sunday." fails: "bread" has no
determiner and "every Sunday" fits no pattern, so its translation is a guess.
"""

from __future__ import annotations

from functools import cache

from attention.translator.grammar import ADJECTIVES, BE_EN, DETERMINERS, DO_EN, NOUNS, PREPOSITIONS, VERBS


@cache
def _classes() -> dict[str, frozenset[str]]:
    """word -> the word classes it can have in the grammar."""
    table: dict[str, set[str]] = {}

    def add(word: str | None, cls: str) -> None:
        if word:
            table.setdefault(word, set()).add(cls)

    for forms, _ in DETERMINERS.values():
        for w in forms:
            add(w, "det")
    add("an", "det")
    for n in NOUNS:
        add(n.en, "noun")
        add(n.en_plural, "noun")
    for a in ADJECTIVES:
        add(a.en, "adj")
    for v in VERBS:
        for w in v.en:
            add(w, "tverb" if v.object is not None else "iverb")
    for w in BE_EN.values():
        add(w, "be")
    for w in DO_EN.values():
        add(w, "do")
    for w in PREPOSITIONS:
        add(w, "prep")
    add("not", "not")
    return {w: frozenset(c) for w, c in table.items()}


OPEN_CLASSES = frozenset({"noun", "adj", "tverb", "iverb"})  # what an unknown word may stand for


def _is(words: tuple[str, ...], i: int, cls: str) -> bool:
    """Word i can have class `cls`. A word the grammar does not know (read as <unk>, and said so apart)
    may stand for any open class: "the zorblax is blue" has the shape of "the ball is blue"."""
    if i >= len(words):
        return False
    known = _classes().get(words[i])
    if known is None:
        return cls in OPEN_CLASSES and any(c.isalnum() for c in words[i])
    return cls in known


def _noun_phrase(words: tuple[str, ...], i: int) -> set[int]:
    """Positions just after a noun phrase starting at i (none if there is none)."""
    if not _is(words, i, "det"):
        return set()
    ends = {i + 2} if _is(words, i + 1, "noun") else set()
    if _is(words, i + 1, "adj") and _is(words, i + 2, "noun"):
        ends.add(i + 3)
    return ends


def _predicates(words: tuple[str, ...], i: int) -> set[int]:
    """Positions just after what can follow the subject at i."""
    ends: set[int] = set()
    if _is(words, i, "be"):
        j = i + 1 + _is(words, i + 1, "not")
        if _is(words, j, "adj"):
            ends.add(j + 1)
        if _is(words, j, "prep"):
            ends |= _noun_phrase(words, j + 1)
    j = i + 2 if _is(words, i, "do") and _is(words, i + 1, "not") else i
    if _is(words, j, "iverb"):
        ends.add(j + 1)
    if _is(words, j, "tverb"):
        ends |= _noun_phrase(words, j + 1)
    return ends


def follows_grammar(words: tuple[str, ...] | list[str]) -> bool:
    """True when the lowercase word tokens have a shape one of the four patterns produces."""
    words = tuple(words)
    for subject_end in _noun_phrase(words, 0):
        for end in _predicates(words, subject_end):
            if end == len(words) or (end == len(words) - 1 and words[end] == "."):
                return True
    return False


def is_mark(token: str) -> bool:
    """A token with no letter or digit: punctuation, never an unknown *word*."""
    return not any(c.isalnum() for c in token)
