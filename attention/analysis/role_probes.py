"""The probe that head roles are measured on, and running it through any model.

A probe is PREFIX, then L words drawn without repetition from WORDS (common English words that are
one token each in WordPiece, byte-level BPE and SentencePiece vocabularies), then the same L words
again. The prefix keeps the repeated words off the first position, where most heads park their weight.
L in tokens is read from the tokens the model actually produced: the longest tail (specials such as
[CLS], [SEP], <s> left out) whose two halves are the same tokens; a tokenizer that splits a word still
gives a valid probe, only with more tokens per copy.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from attention.analysis import head_roles
from attention.analysis.special_tokens import is_special
from attention.trace import Trace

PREFIX = "Words:"
WORDS: tuple[str, ...] = (
    "apple", "river", "house", "green", "table", "music", "water", "light", "paper", "stone", "money",
    "dog", "cat", "horse", "bird", "fish", "tree", "door", "road", "car", "book", "chair", "glass",
    "king", "queen", "city", "train", "ship", "field", "garden", "window", "school", "doctor", "story",
    "game", "power", "heart", "night", "morning", "summer", "winter", "island", "market", "church",
    "letter", "island", "silver", "gold", "black", "white", "red", "blue", "small", "large", "happy",
    "quiet", "simple", "strong", "open", "early", "later", "always", "never", "often", "again", "under",
    "round", "cold", "warm", "dark", "fire", "rain", "snow", "wind", "sun", "moon", "star", "sea", "hill",
    "forest", "bread", "milk", "salt", "sugar", "coffee", "wine", "shirt", "shoe", "hat", "ring", "box",
    "bag", "key", "clock", "phone", "film", "song", "dance", "party", "army", "police", "family", "child",
    "friend", "father", "mother", "brother", "sister", "teacher", "farmer", "captain", "village", "bridge",
)
WORDS = tuple(dict.fromkeys(WORDS))  # one of each, in order
DEFAULT_LENGTH = 12  # words per copy: the figure this project checked SmolLM2 against


def words(seed: int = 0, length: int = DEFAULT_LENGTH) -> tuple[str, ...]:
    """`length` distinct words drawn from WORDS with numpy's default_rng(seed)."""
    if not 2 <= length <= len(WORDS):
        raise ValueError(f"length must be 2..{len(WORDS)}, not {length}")
    rng = np.random.default_rng(seed)
    return tuple(WORDS[i] for i in rng.choice(len(WORDS), size=length, replace=False))


def text(seed: int = 0, length: int = DEFAULT_LENGTH) -> str:
    """The probe's text: PREFIX, the words, the words again."""
    drawn = " ".join(words(seed, length))
    return f"{PREFIX} {drawn} {drawn}"


@dataclass(frozen=True)
class Layout:
    start: int  # position of the first token of the first copy
    length: int  # tokens per copy


def layout(tokens: tuple[str, ...] | list[str], n_words: int) -> Layout:
    """Where the two copies are in the tokens the model produced. Raises ValueError when the tokens do
    not end in two identical halves of at least `n_words` tokens each (the tokenizer did not read the
    repeated words back the same way)."""
    end = len(tokens)
    while end > 0 and is_special(tokens[end - 1]):
        end -= 1
    for length in range(end // 2, n_words - 1, -1):
        first, second = tokens[end - 2 * length:end - length], tokens[end - length:end]
        if list(first) == list(second) and not any(is_special(t) for t in first):
            return Layout(end - 2 * length, length)
    raise ValueError(f"the two copies of the probe's {n_words} words did not tokenise identically: {tokens}")


def self_attention_kind(trace: Trace) -> str:
    """The kind of self-attention a trace's model has: 'decoder' for a causal LM, 'encoder' otherwise."""
    kinds = [s.kind for s in trace.sites if s.kind != "cross"]
    if not kinds:
        raise ValueError("the trace has no self-attention")
    return "decoder" if "decoder" in kinds and "encoder" not in kinds else kinds[0]


def stacked(trace: Trace, kind: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """The model's own weights of every `kind` site, (layers, heads, n, n), and the tokens they read."""
    sites = sorted((s for s in trace.sites if s.kind == kind), key=lambda s: s.layer)
    heads = {s.n_heads for s in sites}
    if len(heads) != 1:
        raise ValueError(f"layers with different numbers of heads are not supported: {sorted(heads)}")
    return np.stack([np.asarray(s.model_weights, dtype=np.float64) for s in sites]), tuple(sites[0].key_tokens)


def measure(trace_of: Callable[[str], Trace], seed: int = 0, length: int = DEFAULT_LENGTH,
            model: str = "") -> head_roles.HeadRoles:
    """Every head's roles on the probe of `seed` and `length` words, the model run by `trace_of(text)`."""
    probe = text(seed, length)
    tr = trace_of(probe)
    kind = self_attention_kind(tr)
    weights, tokens = stacked(tr, kind)
    where = layout(tokens, length)
    return head_roles.roles(weights, tokens, where.start, where.length, seed, model=model or tr.model_name,
                            kind=kind, text=probe, words=length)
