"""attention.head_atlas() behind the package: a corpus through any source, a few texts per forward pass,
each trace read layer by layer into the atlas's sums and dropped (analysis/atlas.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from attention.analysis import atlas_sites
from attention.analysis.atlas import Atlas
from attention.sources.base import Source
from attention.trace import Trace

BATCH = 8  # texts per forward pass: SmolLM2 keeps ~4.4 MB of weights per 64-token text


def run(src: Source, model: Any, texts: Sequence[str], progress: Callable[[int, int], None] | None = None,
        batch: int = BATCH) -> Atlas:
    """The atlas of `texts` (blank ones left out) on the source's loaded `model`."""
    texts = [t for t in texts if t and t.strip()]
    if not texts:
        raise ValueError("the corpus has no text")

    def traces() -> Iterator[Trace]:
        for b in range(0, len(texts), batch):
            yield from src.traces(model, texts[b:b + batch])

    return atlas_sites.build(traces(), len(texts), progress)


__all__ = ["Atlas", "BATCH", "run"]
