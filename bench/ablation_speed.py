"""What ablation and attribution cost, as multiples of one forward pass. Prints, never asserts.

    python -m bench ablation_speed [--repeats 5] [--json out.json]

- one-at-a-time effects of every head (24 translator heads, 72 all-MiniLM-L6-v2 heads) on a 32-token
  input, all ablations in ONE batch (row 0 every head on, row 1 + i head i off), ÷ one forward pass
  of the same input; beside it, what 1 + n separate passes would cost (measured on a few, scaled);
  for the translator also with every ablated row re-translated by greedy decoding;
- integrated gradients with 32 steps (33 points in one batch, one backward pass) over the
  translator's source words, ÷ one forward pass; gradient × input likewise.
The fastest of interleaved repeats (the least disturbed by other work on the machine), one torch thread.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

from attention.capture import hf_ablation, hf_model
from attention.translator import api
from attention.translator import ablation as tr_ablation
from attention.translator.attribution import (
    gradient_x_input,
    integrated_gradients,
    source_embeddings,
    word_log_prob,
)
from bench.cli import bench_parser, write_json
from harness.texts import text_of_tokens

TRANSLATOR_TEXT = ("the black cat drank the milk and the small dog ate the bread . " * 3).split()[:31]


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    p = bench_parser(__doc__)
    p.add_argument("--repeats", type=int, default=5)
    a = p.parse_args(argv)
    torch.set_num_threads(1)

    lm = hf_model.load()
    text = text_of_tokens(32)
    inputs = hf_model.encode(lm, [text]).inputs
    n_minilm = len(hf_ablation.all_heads(lm))

    model = api.load_model()
    en = " ".join(TRANSLATOR_TEXT)
    base = api.translate(en, model=model)
    src = torch.tensor([api._source(model, en)[0]])  # (1, 32) with the final "."
    produced = [model.tgt_vocab.id(w) for w in base.target_tokens]
    tgt_in = torch.tensor([[2] + produced])
    n_tr = len(tr_ablation.all_heads(model))
    f = word_log_prob(model, src, tgt_in, len(produced) // 2, produced[len(produced) // 2])
    x = source_embeddings(model, src).detach()

    def minilm_forward():
        with torch.inference_mode():
            lm.model(**inputs)

    def translator_forward():
        with torch.no_grad():
            model(src, tgt_in)

    calls = {
        "minilm_forward": minilm_forward,
        "minilm_effects": lambda: hf_ablation.head_effects(text, lm=lm),
        "minilm_one_ablation": lambda: hf_ablation.trace(text, ablate=[("encoder", 0, 0)], lm=lm),
        "translator_forward": translator_forward,
        "translator_effects": lambda: tr_ablation.head_effects(en, model=model, retranslate=False),
        "translator_effects_retranslated": lambda: tr_ablation.head_effects(en, model=model),
        "translator_gxi": lambda: gradient_x_input(f, x),
        "translator_ig32": lambda: integrated_gradients(f, x, torch.zeros_like(x), steps=32),
    }
    for fn in calls.values():  # warm up (mean outputs, probe runs, first allocations)
        fn()
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(a.repeats):
        for name, fn in calls.items():
            times[name].append(timed(fn))
    med = {name: min(v) for name, v in times.items()}  # the least disturbed run: this machine is shared
    out = {
        "minilm_tokens": len(inputs["input_ids"][0]), "minilm_heads": n_minilm,
        "translator_source_words": int(src.shape[1]), "translator_output_words": len(produced) + 1,
        "translator_heads": n_tr, "seconds": med,
        "minilm_effects_x_forward": med["minilm_effects"] / med["minilm_forward"],
        "minilm_separate_x_forward": 1 + n_minilm,
        "translator_effects_x_forward": med["translator_effects"] / med["translator_forward"],
        "translator_effects_retranslated_x_forward": med["translator_effects_retranslated"] / med["translator_forward"],
        "translator_separate_x_forward": 1 + n_tr,
        "ig32_x_forward": med["translator_ig32"] / med["translator_forward"],
        "gxi_x_forward": med["translator_gxi"] / med["translator_forward"],
    }
    print(f"all-MiniLM-L6-v2, {out['minilm_tokens']} tokens: forward {med['minilm_forward'] * 1e3:.1f} ms")
    print(f"  effects of all {n_minilm} heads, one batch: {med['minilm_effects'] * 1e3:.0f} ms = "
          f"{out['minilm_effects_x_forward']:.1f}× forward (separate passes: ≥ {1 + n_minilm}×)")
    print(f"translator, {out['translator_source_words']} source words → {out['translator_output_words']} output "
          f"words: forward (teacher-forced) {med['translator_forward'] * 1e3:.1f} ms")
    print(f"  effects of all {n_tr} heads, one batch: {med['translator_effects'] * 1e3:.0f} ms = "
          f"{out['translator_effects_x_forward']:.1f}× forward (separate passes: ≥ {1 + n_tr}×)")
    print(f"  ... and every ablated row re-translated greedily: {med['translator_effects_retranslated'] * 1e3:.0f} ms"
          f" = {out['translator_effects_retranslated_x_forward']:.1f}× forward")
    print(f"  integrated gradients, 32 steps: {med['translator_ig32'] * 1e3:.0f} ms = {out['ig32_x_forward']:.1f}× "
          f"forward; gradient × input {out['gxi_x_forward']:.1f}×")
    write_json(a.json, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
