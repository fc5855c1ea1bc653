"""Unique English sentences of 8–20 words for the browser benchmarks, so trace caches always miss.

Every sentence carries one marker noun that no other sentence of the same batch holds and that
the default tokenizer reads as a single token: a browser session can check that the charts it got
are its own (its marker is there, nobody else's is).
"""

from __future__ import annotations

import functools
import random

# Marker nouns: each a single token in the BERT vocabulary, none of them among the filler words.
MARKERS = tuple("""
apple river garden piano rocket castle forest bridge candle dragon engine falcon guitar harbor island
jacket kettle ladder mirror needle orange pencil rabbit saddle tiger umbrella violin wagon yacht zebra
anchor basket camera desert eagle feather glacier hammer insect jungle kitten lemon magnet nest ocean
parrot pillow quilt rainbow shovel tractor tunnel valley lion whistle blanket cactus dolphin elephant
fountain horse helmet bottle lantern mountain notebook octopus penguin pumpkin robot sandwich tomato
volcano window lizard compass cottage crystal
""".split())  # noqa: SIM905 - a word list reads better as text

ADJECTIVES = "old quiet small bright cold warm heavy gentle strange happy tired clever".split()  # noqa: SIM905
VERBS = "watched found carried painted followed noticed remembered cleaned moved admired".split()  # noqa: SIM905
FILLER = """
the a my our their near behind under beside across during after before with without and
then slowly quickly again today yesterday morning evening house road table friend child
teacher doctor farmer neighbour street city village school letter story
""".split()  # noqa: SIM905 - a word list reads better as text


def sentence(index: int, seed: int = 0, markers: tuple[str, ...] = MARKERS) -> tuple[str, str]:
    """(sentence, marker) number `index` of a batch: 8–20 words, the marker noun once, deterministic."""
    rng = random.Random(f"{seed}:{index}")
    marker = markers[index % len(markers)]
    n_words = rng.randint(8, 20)
    head = ["the", rng.choice(ADJECTIVES), marker, rng.choice(VERBS)]
    tail = [rng.choice(FILLER + ADJECTIVES) for _ in range(n_words - len(head))]
    return " ".join(head + tail), marker


def unique_sentences(n: int, seed: int = 0) -> list[tuple[str, str]]:
    """n distinct (sentence, marker) pairs; the first len(MARKERS) have pairwise distinct markers."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    i = 0
    while len(out) < n and i < 100 * n + 100:  # bounded: collisions are rare
        s = sentence(i, seed)
        i += 1
        if s[0] not in seen:
            seen.add(s[0])
            out.append(s)
    if len(out) < n:
        raise RuntimeError(f"could only make {len(out)} distinct sentences")
    return out


@functools.lru_cache(maxsize=1)
def _tokenizer():
    from transformers import AutoTokenizer

    from attention.capture import hf_model

    return AutoTokenizer.from_pretrained(hf_model.default_model_path())


def tokens_of(text: str) -> list[str]:
    """The tokens the Explore page's head view shows for `text` (as the tokenizer writes them)."""
    tok = _tokenizer()
    return list(tok.convert_ids_to_tokens(tok(text)["input_ids"]))


def check_markers() -> None:
    """Fail early if a marker is not one token of its own or clashes with a filler word."""
    tok = _tokenizer()
    bad = [m for m in MARKERS if tok.tokenize(m) != [m]]
    clash = set(MARKERS) & set(FILLER + ADJECTIVES + VERBS)
    if bad or clash or len(set(MARKERS)) != len(MARKERS):
        raise RuntimeError(f"markers not single tokens: {bad}; clashing: {sorted(clash)}")
