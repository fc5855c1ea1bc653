"""How much a full trace costs compared with the model's bare forward pass.

    python -m bench trace_speed [--lengths 32 128 512] [--repeats 5] [--blas default] [--json out.json]

Prints, per input length, the median time of: the bare forward pass of all-MiniLM-L6-v2 with
transformers' eager attention and with its default (sdpa); `trace`, the call that captures every
site (forward with capture, numpy conversion); `+1 site`, that plus one layer recomputed by core.py
and checked against the model's own weights (what the Explore page pays); `full`, that plus every
layer recomputed and checked; and the ratios to eager, measured in the same run with the runs
interleaved so machine noise hits all alike.

The budget (issue #5): a full trace — every layer × head captured, q, k, v and the model's own A
and Z, ready to draw — at most 1.5× the eager forward pass. `--blas default` lets numpy's BLAS run
its own threads during the recomputation, as it did before attention/blas.py, to show what that
cost the forward passes that follow.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import time
from collections.abc import Callable

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch
from transformers import AutoModel

from attention import blas
from attention.capture import hf_model
from bench.cli import bench_parser, write_json
from harness.texts import text_of_tokens


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def timed_calls(lm, bare: dict, text: str) -> dict[str, Callable[[], object]]:
    """What is timed for one text, by name, in the order the repeats run them."""
    inputs = hf_model.encode(lm, [text]).inputs

    def forward(model) -> None:
        with torch.inference_mode():
            model(**inputs)

    return {
        "eager": lambda: forward(bare["eager"]),
        "sdpa": lambda: forward(bare["sdpa"]),
        "trace": lambda: hf_model.trace_batch(lm, [text]),
        "one": lambda: hf_model.trace_batch(lm, [text])[0].sites[0].faithful,
        "full": lambda: hf_model.trace_batch(lm, [text])[0].faithful,
    }


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--lengths", type=int, nargs="+", default=[32, 128, 512])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--blas", choices=["one", "default"], default="one",
                    help="numpy BLAS threads in the recomputation: one (the package's choice) or numpy's default")
    args = ap.parse_args(argv)
    if args.blas == "default":
        blas.one_thread = contextlib.nullcontext

    lm = hf_model.load()
    path = hf_model.default_model_path()
    bare = {impl: AutoModel.from_pretrained(path, attn_implementation=impl).eval() for impl in ("eager", "sdpa")}
    rows = []
    print(f"torch threads: {torch.get_num_threads()}")
    print(f"{'tokens':>6} {'eager ms':>9} {'sdpa ms':>8} {'trace ms':>9} {'+1 site':>8} {'full ms':>8}   "
          f"{'trace/eager':>11} {'+1 site/eager':>13} {'full/eager':>10} {'full/sdpa':>9}")
    for n in args.lengths:
        text = text_of_tokens(n)
        calls = timed_calls(lm, bare, text)
        times: dict[str, list[float]] = {name: [] for name in calls}
        for name in ("eager", "sdpa", "trace"):  # warm-up
            calls[name]()
        for _ in range(args.repeats):
            for name, call in calls.items():  # interleaved, so machine noise hits all alike
                times[name].append(timed(call))
        med = {k: statistics.median(v) * 1000 for k, v in times.items()}
        row = {"tokens": n, **{f"{k}_ms": round(v, 2) for k, v in med.items()},
               **{f"{k}_over_eager": round(med[k] / med["eager"], 3) for k in ("trace", "one", "full")},
               "full_over_sdpa": round(med["full"] / med["sdpa"], 3),
               # each repeat's trace ÷ the eager pass run just before it: noise that drifts hits both alike
               "trace_over_eager_paired": round(statistics.median(
                   t / e for t, e in zip(times["trace"], times["eager"], strict=True)), 3)}
        rows.append(row)
        print(f"{n:>6} {med['eager']:>9.1f} {med['sdpa']:>8.1f} {med['trace']:>9.1f} {med['one']:>8.1f} "
              f"{med['full']:>8.1f}   {row['trace_over_eager']:>11.2f} {row['one_over_eager']:>13.2f} "
              f"{row['full_over_eager']:>10.2f} {row['full_over_sdpa']:>9.2f}")
    worst = max(rows, key=lambda r: r["trace_over_eager"])
    paired = ", ".join(f"{r['trace_over_eager_paired']:.2f}" for r in rows)
    checked = ", ".join(f"{r['full_over_eager']:.2f}" for r in rows)
    print(f"budget: full trace / eager forward <= 1.5: worst {worst['trace_over_eager']:.2f} at {worst['tokens']} tokens "
          f"({'met' if worst['trace_over_eager'] <= 1.5 else 'NOT met'}); median of paired ratios: {paired}; "
          f"with every head also recomputed by numpy and checked: {checked}; load average {os.getloadavg()[0]:.2f}")
    write_json(args.json, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
