"""Words ↔ ids for the built-in translator: one word-level vocabulary per language.

    "The ball is blue."  --tokenize-->  ["the", "ball", "is", "blue", "."]
                         --encode---->  [ 7,    31,     90,   26,     4 ]

Ids 0..3 are the specials below in every vocabulary, so the model can rely on PAD_ID == 0.
A word the vocabulary has never seen becomes <unk>, and `encode` says which words those were.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PAD, UNK, BOS, EOS = "<pad>", "<unk>", "<bos>", "<eos>"
SPECIALS: tuple[str, ...] = (PAD, UNK, BOS, EOS)
PAD_ID, UNK_ID, BOS_ID, EOS_ID = range(4)

# A word is a run of letters, digits or apostrophes; every other visible character (. , ! ?)
# is a token of its own.
_TOKEN = re.compile(r"[\w']+|[^\w\s]")


def tokenize(text: str) -> list[str]:
    """Lowercase word-level tokens, punctuation split off: "The ball is blue." -> [..., "blue", "."]."""
    return _TOKEN.findall(text.lower())


@dataclass(frozen=True)
class Vocab:
    """A fixed list of tokens; a token's id is its index. The first four are SPECIALS."""

    tokens: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if tuple(self.tokens[: len(SPECIALS)]) != SPECIALS:
            raise ValueError(f"a vocabulary must start with {SPECIALS}")
        if len(set(self.tokens)) != len(self.tokens):
            raise ValueError("a vocabulary must not repeat a token")
        object.__setattr__(self, "_index", {t: i for i, t in enumerate(self.tokens)})

    @classmethod
    def from_words(cls, words) -> Vocab:
        """SPECIALS, then every distinct word in sorted order (so the ids never depend on the order
        the words were met in)."""
        return cls(SPECIALS + tuple(sorted(set(words) - set(SPECIALS))))

    def __len__(self) -> int:
        return len(self.tokens)

    def __contains__(self, word: str) -> bool:
        return word in self._index

    def id(self, word: str) -> int:
        return self._index.get(word, UNK_ID)

    def encode(self, words, bos: bool = False, eos: bool = False) -> tuple[list[int], list[str]]:
        """Word list -> (ids, unknown words). Unknown words become UNK_ID; they are listed once
        each, in order of first appearance."""
        ids = [self.id(w) for w in words]
        unknown = list(dict.fromkeys(w for w, i in zip(words, ids) if i == UNK_ID and w != UNK))
        return [BOS_ID] * bos + ids + [EOS_ID] * eos, unknown

    def decode(self, ids, strip: bool = True) -> list[str]:
        """Ids -> words. With strip, a leading <bos> is dropped and the words stop at <eos>/<pad>."""
        words = [self.tokens[int(i)] for i in ids]
        if not strip:
            return words
        if words and words[0] == BOS:
            words = words[1:]
        for j, w in enumerate(words):
            if w in (EOS, PAD):
                return words[:j]
        return words
