"""A Writing read back: the text, and any layer's attention over the text as it stood after any step,
assembled from the kept rows (lm/rows.py). Writing (lm/writer.py) reads tokens; this part only reads what
it kept."""

from __future__ import annotations

import numpy as np
import torch

from attention.lm.kv_buffer import BufferLayer
from attention.lm.rows import LayerStore, Recomputed, recomputed
from attention.trace import Site, Trace


class ReadingBack:
    """What Writing keeps, read back. Writing sets: lm, prompt, cut, ids, tokens, steps, stores (layer →
    LayerStore), _recomputed (layer, its rows) and _last_site (layer, n, site)."""

    stores: dict[int, LayerStore]
    _recomputed: tuple[int, Recomputed] | None
    _last_site: tuple[int, int, Site] | None

    @property
    def written(self) -> str:
        """The written text (decoded, so characters split across tokens come out whole)."""
        return self.lm.tokenizer.decode([s.token_id for s in self.steps])

    @property
    def text(self) -> str:
        return self.prompt + self.written if not self.cut else self.lm.tokenizer.decode(self.ids)

    @property
    def layers(self) -> tuple[int, ...]:
        return tuple(sorted(self.stores))

    def site(self, layer: int, step: int | None = None, newest_only: bool = False) -> Site:
        """Layer `layer` over the text as it stood after step `step` (None: now; 0: the prompt alone…
        counted as steps written): every row, or only the newest. The whole text's recomputation is kept
        for the last layer asked (rows.Recomputed): the next word computes one row, not all of them. The
        last whole site is kept too: asked again (a callback made it before the page's run), it is the same
        object, so what was made from it can be found by identity."""
        n = self._length(step)
        tokens, store = tuple(self.tokens), self.stores[layer]
        if newest_only:
            return store.site(tokens, n, first_row=n - 1)
        if self._last_site is not None and self._last_site[:2] == (layer, n):
            return self._last_site[2]
        if store.lean:  # no n × n kept: the site's rows are computed when drawn
            site = store.site(tokens, n)
            self._last_site = (layer, n, site)
            return site
        layer_kept, kept = self._recomputed if self._recomputed else (None, None)
        kept = recomputed(store, n, kept if layer_kept == layer else None)
        if layer_kept != layer or kept.n >= self._recomputed[1].n:  # an earlier step shown keeps the longer rows
            self._recomputed = (layer, kept)  # one layer's rows only: at 1,024 tokens they are 110 MB
        site = kept.site_for(store, tokens, n)
        self._last_site = (layer, n, site)
        return site

    def trace(self, step: int | None = None) -> Trace:
        """Every layer over the text as it stood after `step` steps, as one Trace (from the kept rows)."""
        n = self._length(step)
        return Trace(text=self.lm.tokenizer.decode(self.ids[:n]), model_name=self.lm.name, tokens=tuple(self.tokens[:n]),
                     sites=tuple(self.stores[layer].site(tuple(self.tokens), n) for layer in self.layers), dropped_tokens=self.cut,
                     capture_path="registry", expected_layers=self.lm.expected_layers)

    def _length(self, step: int | None) -> int:
        written = len(self.steps) if step is None else max(0, min(step, len(self.steps)))
        return self.n - (len(self.steps) - written)

    def nbytes(self) -> int:
        """Bytes this writing holds, for the sessions' shared budget (ui/hosting/held.py): every layer's rows with
        their spare room and the model's weight blocks, the KV cache's tensors where they are a copy, the
        logits kept per step, each step's own rows, the token read ahead and the one layer's
        recomputation kept for the head view."""
        def arrays(*xs: object) -> int:
            return sum(x.nbytes for x in xs if isinstance(x, np.ndarray))

        total = sum(s.nbytes() for s in self.stores.values()) + arrays(*self._logits)
        for layer in getattr(self._cache, "layers", None) or []:
            if isinstance(layer, BufferLayer):
                continue  # its keys and values are the stores' (counted above)
            for t in (getattr(layer, "keys", None), getattr(layer, "values", None)):
                if isinstance(t, torch.Tensor):
                    total += t.nelement() * t.element_size()
        rows = [r for s in self.steps for r in s.rows.values()] + list(self._ahead.rows.values() if self._ahead else [])
        total += sum(arrays(r.q, r.k, r.v, r.z) for r in rows)  # their weights are the stores' blocks
        if self._recomputed is not None:
            kept = self._recomputed[1]
            total += arrays(kept.scores, kept.weights, kept.z, kept.model_weights, kept.mask)
        return total
