"""What a Writing is made of: the limits of a text, the distribution over the next token, a written step
with the rows the model computed reading it, and a token read ahead of its step (lm/writer.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from attention.ids import TopRows, TopToken
from attention.lm import sampling
from attention.lm.rows import NewRows


@dataclass(frozen=True)
class Limits:
    """How many tokens a writing may hold: the prompt is cut at `prompt`, writing stops at `total`. `lean`:
    read with the model's fast attention and keep O(n·d) (True), or keep the model's weights for the check
    (None: only while they fit hf_forward.KEEP_WEIGHTS_BYTES). `check_as_read` (lean only): every row's z is
    checked against the model's as it is read and not kept (locally it is kept, and checked for the layers
    shown only: at 8,192 tokens checking all 30 layers at once would cost every layer's n²)."""

    prompt: int
    total: int
    lean: bool | None = None
    check_as_read: bool = False


LOCAL = Limits(prompt=8_192, total=8_192)  # the model's whole context (SmolLM2: 8,192 positions)
# A replica holds a class's Writings: lean at every length, a 242-token Writing holds ~38 MiB, not ~111 MiB
# (the weight blocks, 55 MB, and z, 20 MB, are checked as read and not kept; see rows.LayerStore)
HOSTED = Limits(prompt=256, total=256 + 64, lean=True, check_as_read=True)


@dataclass(frozen=True, eq=False)
class NextToken:
    """The distribution over the next token, after temperature, top-k and top-p."""

    logits: np.ndarray  # (vocab,) float32, the model's own (shared with the Writing, not copied)
    settings: sampling.Settings
    top_ids: tuple[int, ...]  # the likeliest (sampling.TOP_N), likeliest first
    top_probs: tuple[float, ...]
    top_tokens: tuple[str, ...]  # raw tokens ("Ġcat")
    top_labels: tuple[str, ...]  # as labels show them ("·cat")

    @property
    def probs(self) -> np.ndarray:
        """(vocab,) float64, what the token is drawn from: computed on each call (a few ms), never kept, so
        a step remembers 196 KB of logits rather than 590 KB."""
        return sampling.distribution(self.logits, self.settings)

    def top(self, n: int = sampling.TOP_N) -> TopRows[TopToken]:
        """[TopToken(token as text, probability, token id), …] the n likeliest (at most sampling.TOP_N)."""
        return TopRows(TopToken(lab, p, i) for lab, p, i in
                       zip(self.top_labels[:n], self.top_probs[:n], self.top_ids[:n], strict=True))


@dataclass(frozen=True, eq=False)
class Step:
    """One written token: what it was chosen from, how, and the rows the model computed reading it."""

    index: int  # 0: the first written token
    token_id: int
    token: str  # raw
    label: str  # as labels show it
    probability: float  # its probability in `chosen_from`
    chosen_from: NextToken
    seed: int | None  # None: greedy (the likeliest); else drawn with default_rng((seed, index))
    cache_len: int  # keys and values taken from the cache when the model read it
    rows: dict[int, NewRows] = field(repr=False)  # per layer: q (heads, 1, d), new k and v, weights (heads, 1, n)


@dataclass(frozen=True, eq=False)
class Ahead:
    """A token read before it was written (Writing.ahead): its rows, and the logits after it."""

    n: int  # the text's length it was read after
    token_id: int
    rows: dict[int, NewRows]
    logits: np.ndarray
