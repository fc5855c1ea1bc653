"""attention.head_atlas() behind the package: a corpus through any source, a few texts per forward pass,
each trace read layer by layer into the atlas's sums and dropped (analysis/atlas.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from attention.analysis import atlas_sites
from attention.analysis.atlas import Atlas
from attention.lm.atlas_corpus import LESSON_SENTENCES, Corpus
from attention.sources.base import Source
from attention.trace import Trace

BATCH = 8  # texts per forward pass: SmolLM2 keeps ~4.4 MB of weights per 64-token text
TRANSLATOR_SENTENCES = 40  # drawn from the translator's training grammar (its own seed)


def builtin_corpus() -> Corpus:
    """The lesson's and the translator's sentences, then the texts the language model wrote from fixed
    seeds (attention/lm/corpus_writer.py, kept in a file): labelled as written by the model."""
    from attention.lm import corpus_writer
    from attention.translator import ablation, corpus

    def sentence(words: tuple[str, ...]) -> str:
        text = " ".join(words).replace(" .", ".")
        return text[:1].upper() + text[1:]

    fixed = [*LESSON_SENTENCES, *(en for en, _ in corpus.EXAMPLES), *ablation.REFERENCE_SENTENCES,
             *(sentence(p.source) for p in corpus.generate(TRANSLATOR_SENTENCES))]
    fixed = list(dict.fromkeys(fixed))  # each once, in order
    written = list(corpus_writer.read()["texts"])
    return Corpus("builtin", tuple(fixed + written), (False,) * len(fixed) + (True,) * len(written))


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


__all__ = ["Atlas", "BATCH", "Corpus", "builtin_corpus", "run"]
