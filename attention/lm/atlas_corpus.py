"""The atlas's corpora as data: the lesson's and translator's sentences, the prompts the language model
writes from (fixed seeds), and a person's own text cut into pieces. Pure Python."""

from __future__ import annotations

import re
from dataclasses import dataclass

# the sentences the lesson and the Write page open on (the translator's are added by sources/atlas_run.py)
LESSON_SENTENCES = (
    "The black cat drank the milk because it was thirsty.",
    "The black cat drank the milk because it was",
    "The ball is blue.",
)
# what the language model is asked to continue (lm/corpus_writer.py writes them all in one seeded batch)
WRITING_PROMPTS = (
    "Once upon a time", "The weather today", "In the morning, the", "My favourite book is",
    "The train was late because", "Scientists have found that", "The old man walked to the", "A good teacher",
    "The city at night", "When the children came home,", "The recipe calls for", "The history of the",
    "Dear friend, I am writing to", "The best way to learn a language", "On the farm there were",
    "The meeting started with", "Water boils when", "She opened the door and saw", "The first rule of",
    "Our team won the game because", "The museum is famous for", "He wrote a letter to his mother",
    "Every winter, the birds", "The computer would not start, so",
)
WRITTEN_TOKENS = 56  # tokens written after each prompt
OWN_MAX_WORDS = 60  # a person's text is read in pieces of at most this many words, cut at sentence ends
OWN_MAX_PIECES = 200


@dataclass(frozen=True)
class Corpus:
    """Texts and, per text, whether the language model wrote it (said so on the page)."""

    name: str  # "builtin" or "own"
    texts: tuple[str, ...]
    written: tuple[bool, ...]

    @property
    def n_written(self) -> int:
        return sum(self.written)


def pieces(text: str, max_words: int = OWN_MAX_WORDS, max_pieces: int = OWN_MAX_PIECES) -> list[str]:
    """A person's text as pieces of whole sentences of at most max_words words (a longer sentence is cut by
    words); at most max_pieces of them. Blank text: []."""
    sentences = [s for s in re.split(r"(?<=[.!?。！？])\s+|\n\s*\n", text.strip()) if s.strip()]
    out: list[str] = []
    current: list[str] = []
    for sentence in sentences:
        words = sentence.split()
        while len(words) > max_words:  # one very long sentence: cut
            if current:
                out.append(" ".join(current))
                current = []
            out.append(" ".join(words[:max_words]))
            words = words[max_words:]
        if current and len(current) + len(words) > max_words:
            out.append(" ".join(current))
            current = []
        current += words
    if current:
        out.append(" ".join(current))
    return out[:max_pieces]
