"""What patching every head costs (attention.compare(...).patching()). Prints, never asserts.

    python -m bench compare_patching [--tokens 16] [--repeats 2]

SmolLM2's 270 heads on a pair of `--tokens` tokens that differ in one word in the middle: the seconds
of one full patching (every head alone, ROWS_PER_BATCH rows per forward pass, the shared prefix run
once), and what one plain forward pass of A costs beside it; then the translator's 24 heads on
"the black cat drank the milk ." / "... dog ..." (budget 3 s). The fastest of the repeats (the least
disturbed by other work on the machine), the machine's torch threads.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch

import attention
from attention import sources
from attention.analysis.alignment import align
from attention.capture import hf_ablation, hf_patching
from bench.cli import bench_parser, write_json

WORDS = ("The cat drank the milk in the kitchen because it was WORD and then the small dog came in to look at "
         "the bowl on the floor").split()


def pair(lm, n_tokens: int) -> tuple[str, str]:
    """Two texts of n_tokens tokens (SmolLM2's tokenizer) differing in one word ("thirsty" / "sour")."""
    words = list(WORDS)
    while len(lm.tokenizer(" ".join(words).replace("WORD", "thirsty"))["input_ids"]) > n_tokens:
        words.pop()
    text = " ".join(words)
    return text.replace("WORD", "thirsty"), text.replace("WORD", "sour")


def main(argv: list[str] | None = None) -> int:
    p = bench_parser(__doc__)
    p.add_argument("--tokens", type=int, default=16)
    p.add_argument("--repeats", type=int, default=2)
    args = p.parse_args(argv)
    first = translator(args.repeats)  # first: after SmolLM2 in the same process it measured 60× slower
    lm = sources.get("smollm2").kept("writer")
    text_a, text_b = pair(lm, args.tokens)
    a, b = hf_patching.run(lm, text_a), hf_patching.run(lm, text_b)
    tok = lm.tokenizer.convert_ids_to_tokens
    al = align(tok(a.ids[0].tolist()), tok(b.ids[0].tolist()))
    heads = hf_ablation.all_heads(lm)
    forward, full, whole = [], [], []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        with torch.inference_mode():
            lm.model(input_ids=a.ids, logits_to_keep=1)
        forward.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        result = hf_patching.patch_heads(lm, a, b, al)
        full.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        hf_patching.patch_heads(lm, a, b, al, reuse_prefix=False)
        whole.append(time.perf_counter() - t0)
    out = {"tokens": (len(al.tokens_a), len(al.tokens_b)), "shared_prefix": hf_patching.shared_prefix(al),
           "heads": len(heads), "patching_s": min(full), "no_prefix_s": min(whole), "forward_s": min(forward),
           "threads": torch.get_num_threads(), "top": result.ranked()[:3], "labels": result.labels}
    print(f"A: {text_a!r}\nB: {text_b!r}")
    print(f"SmolLM2, {out['heads']} heads, {out['tokens'][0]}/{out['tokens'][1]} tokens "
          f"(prefix {out['shared_prefix']} run once), {out['threads']} torch threads")
    print(f"  one forward pass of A: {out['forward_s'] * 1000:.0f} ms")
    print(f"  every head patched alone: {out['patching_s']:.1f} s (fastest of {args.repeats}; budget 30 s), "
          f"{out['patching_s'] / out['forward_s']:.0f} forward passes of A")
    print(f"  the same, every position run (as for a change at the first token): {out['no_prefix_s']:.1f} s, "
          f"{out['no_prefix_s'] / out['forward_s']:.0f} forward passes")
    print(f"  contrast {result.labels[0]!r} -> {result.labels[1]!r}; top heads {out['top']}")
    out.update(first)
    write_json(args.json, out)
    return 0


def translator(repeats: int) -> dict:
    from attention.translator import head_patching

    model = sources.get("translator").kept("trace")
    text_a, text_b = "the black cat drank the milk .", "the black dog drank the milk ."
    al = attention.compare(text_a, text_b, model="translator").alignment
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = head_patching.patch_heads(model, text_a, text_b, al)
        times.append(time.perf_counter() - t0)
    print(f"translator, 24 heads: {min(times):.2f} s (fastest of {repeats}; budget 3 s, both translations included); "
          f"{result.labels[0]!r} -> {result.labels[1]!r}, top {result.ranked()[:2]}")
    return {"translator_s": min(times)}


if __name__ == "__main__":
    sys.exit(main())
