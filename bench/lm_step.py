"""SmolLM2's next-word step (capture + distribution) ÷ a bare step with the KV cache; load and expansion.

The language model's next-word step: the package's (capture + distribution) against a bare
transformers step with the KV cache, and what loading and expanding SmolLM2 cost.

    python -m bench lm_step [--contexts 64 1024] [--steps 8] [--threads N] [--no-expand]

Per context length, the median over `--steps` steps of:
  package   Writing.step(): the next-token distribution (softmax ÷ T, top-10, labels), one token fed
            with the cache while every layer's attention is recorded, its rows kept in numpy;
  bare      the same model loaded with transformers' default attention: one token fed with the
            cache, softmax and argmax;
and their ratio (budget ≤ 1.5×, issue 23), the two interleaved step by step so machine noise hits both.
Then: load time of the expanded folder (ours, with the capture, and bare), and, unless --no-expand, the
expansion of the 4-bit file into a temporary cache folder (15–50 s on a quiet 2-core machine, about
1.6 GB at its peak).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from transformers import AutoModelForCausalLM  # noqa: E402

from attention.lm import models, smollm2, writer  # noqa: E402
from bench.cli import bench_parser  # noqa: E402

TEXT = ("The black cat drank the milk while a small dog watched from under the old wooden table near the "
        "open window of a quiet house in the green hills. ")


def ids_of(lm, n: int) -> list[int]:
    ids = lm.tokenizer(TEXT * (n // 10 + 2))["input_ids"]
    return ids[:n]


def bench_steps(lm, bare, n: int, steps: int) -> tuple[float, float]:
    """Median seconds per step: (package, bare), interleaved."""
    w = writer.Writing(lm, "", limits=writer.Limits(n + steps + 1, n + steps + 1), ids=ids_of(lm, n))
    with torch.inference_mode():
        out = bare(input_ids=torch.tensor([ids_of(lm, n)]), use_cache=True, logits_to_keep=1)
    cache, logits = out.cache, out.logits[0, -1]
    ours, theirs = [], []
    for _ in range(steps):
        t0 = time.perf_counter()
        step = w.step()
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        with torch.inference_mode():
            nxt = int(torch.softmax(logits, -1).argmax())
            out = bare(input_ids=torch.tensor([[nxt]]), cache=cache, use_cache=True, logits_to_keep=1)
            cache, logits = out.cache, out.logits[0, -1]
        theirs.append(time.perf_counter() - t0)
        assert step is not None and step.token_id == nxt  # the same greedy word on both sides
    return statistics.median(ours), statistics.median(theirs)


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)
    ap.add_argument("--contexts", type=int, nargs="+", default=[64, 1024])
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--no-expand", action="store_true")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    folder = smollm2.folder()
    print(f"torch threads: {torch.get_num_threads()}; load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")

    t0 = time.perf_counter()
    lm = models.read(smollm2.folder(), label=smollm2.LABEL)
    load_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    bare = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32).eval()
    load_bare = time.perf_counter() - t0
    print(f"SmolLM2 folder: {folder}")
    print(f"load from the expanded folder: {load_ours:.2f} s with the capture, {load_bare:.2f} s bare "
          f"({bare.config._attn_implementation} attention)")

    print(f"{'context':>8} {'package ms':>11} {'bare ms':>9} {'ratio':>6}")
    for n in args.contexts:
        bench_steps(lm, bare, n, 2)  # warm-up at this length
        ours, theirs = bench_steps(lm, bare, n, args.steps)
        print(f"{n:>8} {ours * 1e3:>11.1f} {theirs * 1e3:>9.1f} {ours / theirs:>6.2f}")

    if not args.no_expand:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["ATTENTION_MODEL_CACHE"] = tmp
            t0 = time.perf_counter()
            smollm2.folder()
            print(f"expansion of the 4-bit file: {time.perf_counter() - t0:.1f} s")
            del os.environ["ATTENTION_MODEL_CACHE"]
    return 0


if __name__ == "__main__":
    sys.exit(main())
