"""What a head writes, as a result: every part of the final residual as a vector (Vectors), the final norm and
unembedding that turn a part into logits (Readout), and each part's direct share of one logit (HeadWrites).
The definition is in head_writes.py's docstring. Read from a causal LM (head_writes.writes) or from the
translator's decoder (attention/translator/decoder_parts.py, through its source): the rows of `heads` are the
attention sites in model order, each of one kind ("decoder": masked self-attention; "cross": the translator's
decoder reading the English sentence), so one result type serves both."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
import torch

from attention.ids import HeadId, TopHead, TopToken

CHECK = 1e-4  # |Σ parts + bias − logit| above this: the page says the parts do not add up
NORMS = ("residual", "own")


@dataclass(frozen=True, eq=False)
class Vectors:
    """The parts of r as vectors, float64; they add up to r (up to the model's float32 sums)."""

    heads: np.ndarray  # (rows, H, C): one row per attention site
    mlps: np.ndarray  # (L, C)
    out_biases: np.ndarray  # (rows, C) zeros where the projection has no bias
    embedding: np.ndarray  # (C,) token (and, where the model adds one, position) embedding
    residual: np.ndarray  # (C,) r as the model had it

    def total(self) -> np.ndarray:
        """(C,) the sum of the parts."""
        return self.embedding + self.heads.sum((0, 1)) + self.mlps.sum(0) + self.out_biases.sum(0)


@dataclass(frozen=True, eq=False)
class Readout:
    """The final norm and the unembedding, at one residual r: what turns a part into logits."""

    unembed: torch.Tensor  # (V, C) W_U, the model's own tensor (not copied)
    unembed_bias: torch.Tensor | None  # (V,)
    gamma: np.ndarray  # (C,) float64
    beta: np.ndarray | None  # (C,) LayerNorm's bias
    centred: bool  # LayerNorm: parts centred
    eps: float
    scale: float  # s of r
    logits: torch.Tensor  # (V,) the model's own logits at the position

    def direction(self, token_id: int) -> np.ndarray:
        """(C,) u with part(x) = x · u: γ ⊙ W_U[t] / s, centred for LayerNorm (x − x̄)·u = x·(u − ū)."""
        u = self.gamma * self.unembed[token_id].detach().double().numpy() / self.scale
        return u - u.mean() if self.centred else u

    def constant(self, token_id: int) -> float:
        """β · W_U[t] + b_U[t]: no part's (0.0 where the model has neither)."""
        c = 0.0 if self.beta is None else float(self.beta @ self.unembed[token_id].detach().double().numpy())
        return c + (0.0 if self.unembed_bias is None else float(self.unembed_bias[token_id]))

    def read(self, x: np.ndarray, norm: str = "residual") -> torch.Tensor:
        """(C,) one part -> (V,) what it alone adds to every logit: through r's scale ("residual"), or normed
        by its own ("own", the LLM Transparency Tool's convention; β and b_U left out: no part's)."""
        if norm not in NORMS:
            raise ValueError(f"norm is one of {NORMS}, not {norm!r}")
        x = x - x.mean() if self.centred else x
        s = self.scale if norm == "residual" else float(np.sqrt((x ** 2).mean() + self.eps))
        v = torch.from_numpy(self.gamma * x / s).to(self.unembed.dtype)  # (C,)
        with torch.inference_mode():
            return self.unembed.detach() @ v  # (V,) float32: a ranking of every token, not a sum to check


@dataclass(frozen=True, eq=False)
class HeadWrites:
    """Each part's direct share of the logit of `token` (or of `token` − `vs`) at `position`, in logits.

    heads (rows, H), mlps (L,), out_biases (rows,), embedding and bias add up to `logit`, the model's own (its
    logit of token minus its logit of vs, for a difference); `check` says how closely (`adds_up`: ≤ CHECK).
    A row of `heads` is one attention site: `layers[i]` its layer and `kinds[i]` its kind (empty: every row
    "decoder", a causal LM's one row per layer; the translator has a "decoder" and a "cross" row per layer,
    in model order). `reads` (rows, H, T) is what each head read, its attention from the position, when every
    row reads the same tokens (a causal LM); `site_reads` holds one (H, T_k) per row otherwise (the
    translator: its cross rows read `source_tokens`); `read(layer, head, kind)` answers both."""

    tokens: tuple[str, ...]  # the tokens read up to and including the position, raw
    position: int  # counted from 0; the token explained comes after it
    token_id: int
    token: str  # raw
    layers: tuple[int, ...]  # the layer number of each row of heads
    heads: np.ndarray  # (rows, H) every head's part
    mlps: np.ndarray  # (L,) one per layer
    out_biases: np.ndarray  # (rows,) each output projection's bias (0.0 where none)
    embedding: float
    bias: float  # β · W_U[t] + b_U[t] (0.0 where the model has neither)
    logit: float  # the model's own
    vectors: Vectors
    readout: Readout
    names: Callable[[list[int]], list[str]]  # token ids -> raw tokens
    vs: int | None = None  # a difference: the token whose logit is subtracted
    reads: np.ndarray | None = None  # (rows, H, T) each head's attention from the position (what it read)
    kinds: tuple[str, ...] = ()  # each row's kind; empty: every row "decoder"
    site_reads: tuple[np.ndarray, ...] | None = None  # per row (H, T_k), where rows read different tokens
    source_tokens: tuple[str, ...] = ()  # what "cross" rows read (the translator's English tokens)
    _last: dict = field(default_factory=dict, repr=False)  # the last head's pushes: lists and rank read it once

    @property
    def total(self) -> float:
        """Σ parts + bias, float64."""
        return float(self.heads.sum() + self.mlps.sum() + self.out_biases.sum() + self.embedding + self.bias)

    @property
    def check(self) -> float:
        """|Σ parts + bias − the model's own logit|."""
        return abs(self.total - self.logit)

    @property
    def adds_up(self) -> bool:
        return self.check <= CHECK

    @property
    def row_kinds(self) -> tuple[str, ...]:
        """Each row's kind ("decoder" or "cross")."""
        return self.kinds or ("decoder",) * len(self.layers)

    def row(self, layer: int, kind: str | None = None) -> int:
        """The row of `heads` for (kind, layer); kind None: the layer's only kind (ValueError when it has two)."""
        rows = [i for i, (k, x) in enumerate(zip(self.row_kinds, self.layers, strict=True))
                if x == layer and kind in (None, k)]
        if len(rows) != 1:
            kinds = sorted({k for k, x in zip(self.row_kinds, self.layers, strict=True) if x == layer})
            raise ValueError(f"layer {layer} has no {kind} heads" if not rows else
                             f"layer {layer} has {' and '.join(kinds)} heads: name the kind")
        return rows[0]

    def head_ids(self) -> list[HeadId]:
        return [HeadId(k, layer, h) for k, layer in zip(self.row_kinds, self.layers, strict=True)
                for h in range(self.heads.shape[1])]

    def grid(self, kind: str = "decoder") -> np.ndarray:
        """(layers of that kind, H): the rows of one kind, e.g. the translator's cross heads."""
        return self.heads[[i for i, k in enumerate(self.row_kinds) if k == kind]]

    def top(self, k: int = 5) -> list[TopHead]:
        """The k heads with the largest |part|, largest first (score: the signed part)."""
        flat = self.heads.reshape(-1)
        order = np.argsort(-np.abs(flat), kind="stable")[:k]
        ids = self.head_ids()
        return [TopHead(ids[i], float(flat[i])) for i in order]

    def part(self, layer: int, head: int, kind: str | None = None) -> float:
        return float(self.heads[self.row(layer, kind), head])

    def pushes(self, layer: int, head: int, norm: str = "residual", kind: str | None = None) -> torch.Tensor:
        """(V,) what this head's output alone adds to every token's logit (see `promotes`); the last head's is kept
        (one vector of V: a page reads its promoted, suppressed and rank from one product with W_U)."""
        key = (self.row(layer, kind), head, norm)
        if key not in self._last:
            self._last.clear()
            self._last[key] = self.readout.read(self.vectors.heads[key[0], head], norm)
        return self._last[key]

    def rank(self, layer: int, head: int, token_id: int | None = None, norm: str = "residual",
             kind: str | None = None) -> tuple[int, int]:
        """Where a token stands among this head's pushes, exactly: (1 + the number of tokens it pushes up
        strictly more, the vocabulary's size). Counted on the same float32 values `promotes` ranks by.

        Args:
            layer, head, kind: the head.
            token_id: the token (None: the one explained).
            norm: as for promotes.

        Returns:
            (rank, V): 1 is the token it pushes up most; V the one it pushes down most.
        """
        values = self.pushes(layer, head, norm, kind)
        t = self.token_id if token_id is None else int(token_id)
        return int((values > values[t]).sum()) + 1, int(values.shape[0])

    def _ranked(self, layer: int, head: int, k: int, norm: str, sign: int, kind: str | None) -> list[TopToken]:
        values = self.pushes(layer, head, norm, kind)  # (V,)
        top = torch.topk(sign * values, min(k, values.shape[0]))
        ids = [int(i) for i in top.indices]
        return [TopToken(tok, float(values[i]), i) for tok, i in zip(self.names(ids), ids, strict=True)]

    def promotes(self, layer: int, head: int, k: int = 10, norm: str = "residual",
                 kind: str | None = None) -> list[TopToken]:
        """The k tokens this head's output alone pushes up most.

        Args:
            layer, head: the head (layer as the model numbers it).
            k: how many tokens.
            norm: "residual": its vector read through r's scale s, so a value is its part in that token's
                logit; "own": normed by its own scale (the LLM Transparency Tool's "normalize before
                unembedding"; larger numbers, not parts of a logit). See Readout.read.
            kind: "decoder" or "cross" where a layer has both (the translator); None: the layer's only kind.

        Returns:
            [TopToken(token raw, value in logits, token_id)], largest first.
        """
        return self._ranked(layer, head, k, norm, 1, kind)

    def suppresses(self, layer: int, head: int, k: int = 10, norm: str = "residual",
                   kind: str | None = None) -> list[TopToken]:
        """The k tokens it pushes down most, most negative first (arguments as for promotes)."""
        return self._ranked(layer, head, k, norm, -1, kind)

    def read(self, layer: int, head: int, kind: str | None = None) -> tuple[tuple[str, ...], np.ndarray] | None:
        """What the head read: (the tokens its keys are, (T_k,) its attention from the position), or None."""
        i = self.row(layer, kind)
        if self.site_reads is not None:
            keys = self.source_tokens if self.row_kinds[i] == "cross" else self.tokens
            return keys, self.site_reads[i][head]
        return None if self.reads is None else (self.tokens, self.reads[i, head])

    def difference(self, token_a: int, token_b: int) -> HeadWrites:
        """The same parts for logit(token_a) − logit(token_b): why a rather than b.

        Args:
            token_a, token_b: token ids.

        Returns:
            HeadWrites with token = a, vs = b, every part the difference of the two tokens' parts and `logit`
            the model's own logit difference (`check` as for one token).
        """
        a, b = parts_of(self.vectors, self.readout, token_a), parts_of(self.vectors, self.readout, token_b)
        own = float(self.readout.logits[token_a]) - float(self.readout.logits[token_b])
        return replace(self, token_id=int(token_a), token=self.names([int(token_a)])[0], vs=int(token_b),
                       heads=a[0] - b[0], mlps=a[1] - b[1], out_biases=a[2] - b[2], embedding=a[3] - b[3],
                       bias=a[4] - b[4], logit=own)


def parts_of(v: Vectors, ro: Readout, token_id: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """(heads (rows, H), mlps (L,), out_biases (rows,), embedding, bias): every part of one token's logit."""
    u = ro.direction(token_id)  # (C,)
    return v.heads @ u, v.mlps @ u, v.out_biases @ u, float(v.embedding @ u), ro.constant(token_id)
