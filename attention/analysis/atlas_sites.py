"""A trace's self-attention sites fed to the atlas, layer by layer (analysis/atlas.py holds the sums).

A short site hands every head's A at once; a long one (trace.Site.is_long) one head at a time through
`Site.pattern`, so no more than one head's n × n exists at once. Pure numpy over the Site contract.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from attention.analysis.atlas import Atlas, AtlasBuilder
from attention.trace import Site, Trace


def self_sites(tr: Trace) -> list[Site]:
    """The sites an atlas reads: a decoder's masked self-attention when the model has one, else the encoder's."""
    kind = "decoder" if "decoder" in tr.kinds else "encoder"
    return [tr.site(layer, kind) for layer in tr.layers(kind)]


def add_site(builder: AtlasBuilder, site: Site) -> None:
    """One layer of the builder's current text (its q and k only while the map has room)."""
    keep_map = builder.keeping_map
    if not site.has_qkv:
        raise ValueError("the atlas needs each head's values (value-weighted shares); this model gives weights only")
    heads = range(site.n_heads)
    a = site.weights if not site.is_long else np.stack([site.pattern(h) for h in heads])  # (heads, n, n)
    visible = ~site.masked  # (n, n)
    v_norm = np.stack([np.linalg.norm(site.head_v(h).astype(np.float64), axis=-1) for h in heads])  # (heads, n)
    k = np.stack([site.head_k(h) for h in heads]) if keep_map else None  # (heads, n, d): each head's group
    builder.add_layer(site.layer, a, visible, v_norm, site.q if keep_map else None, k)


def build(traces: Iterable[Trace], n_texts: int, progress: Callable[[int, int], None] | None = None) -> Atlas:
    """The atlas of every trace (one per text, in order); progress(done, total) after each text."""
    builder = None
    for done, tr in enumerate(traces, start=1):
        sites = self_sites(tr)
        if builder is None:
            builder = AtlasBuilder(tuple(s.layer for s in sites), sites[0].n_heads, tr.model_name, sites[0].kind)
        tokens = sites[0].query_tokens
        builder.add_text(tr.text, tokens)
        for site in sites:
            add_site(builder, site)
        if progress is not None:
            progress(done, n_texts)
    if builder is None:
        raise ValueError("no text to read")
    return builder.finish()
