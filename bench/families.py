"""Every tiny family through the public API: capture path, sites found / expected, max diff from eager.

Every tiny family of harness/tiny_families.py through the public API: the capture path it takes,
sites found / expected, the largest difference of the weights shown from transformers' eager
attention, and what the page shows. Prints a markdown table (about a minute on one core).

    python -m bench families
"""

from __future__ import annotations

import sys
import tempfile

import numpy as np
import torch

from attention.capture import hf_model
from bench.cli import bench_parser
from harness import tiny_families as families

TEXT, TARGET = "the black cat drank the milk", "el gato negro bebio la leche"


def eager_weights(folder: str, lm, enc, dec) -> dict[str, tuple[torch.Tensor, ...]]:
    return families.attentions_by_kind(families.eager_run(folder, enc, dec)[0], lm, dec)


def shows(tr) -> str:
    """What the Explore page draws for this trace."""
    if tr.site_problems:
        return "error: " + ", ".join(f"{p.reason} {p.kind} {p.layers}" for p in tr.site_problems)
    only = sorted({(s.kind, s.missing_qkv) for s in tr.sites if not s.has_qkv})
    if only:
        drawn = "S, A, Z for the rest; " if any(s.has_qkv for s in tr.sites) else ""
        return drawn + "; ".join(f"{kind}: A only + why ({why})" for kind, why in only)
    sink = " + sink share" if any(s.sinks is not None for s in tr.sites) else ""
    return "S, A, Z (head view)" + sink


def main(argv: list[str] | None = None) -> int:
    bench_parser(__doc__, results=False).parse_args(argv)
    tok = families.tokenizer()
    print("| family | stands for | capture path | fallback | sites found / expected | max diff from eager | "
          "page shows |")
    print("|---|---|---|---|---|---|---|")
    for name, (what, _) in families.FAMILIES.items():
        with tempfile.TemporaryDirectory() as folder:
            families.build(name, tok, folder)
            lm = hf_model.read_model(folder)
            tr = hf_model.trace_batch(lm, [TEXT], [TARGET] if lm.is_encoder_decoder else None)[0]
            enc = hf_model.encode(lm, [TEXT])
            dec = hf_model.decoder_inputs(lm, [TARGET]) if lm.is_encoder_decoder else None
            ref = eager_weights(folder, lm, enc, dec)
            worst = 0.0
            for site in tr.sites:
                w = ref[site.kind][site.layer][0].numpy()
                if w.shape[-1] != len(site.key_tokens):
                    w = families.band_to_full(w, len(site.key_tokens))
                worst = max(worst, float(np.abs(site.weights - w).max()))
            expected = sum(len(v) for v in (lm.expected_layers or {}).values())
            print(f"| {name} | {what} | {tr.capture_path} | {tr.fallback or '—'} | {len(tr.sites)} / {expected} | "
                  f"{worst:.1e} | {shows(tr)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
