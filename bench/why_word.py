"""Why this word on SmolLM2: every head off alone, the top heads, IG's completeness gap, rank agreement.

Why this word on SmolLM2: the time to switch every one of its 270 heads off alone (in batches), the top
heads for the next token, the attributions' completeness gap and the rank agreement claims allow.

    python -m bench why_word [--prompt TEXT] [--ig-steps 32] [--repeat 2]

Then every head off again, in the batch that grows layer by layer (capture/growing_batch.py) and in the plain
batch of whole rows, interleaved: seconds, their ratio and the largest difference of the drops.

    python -m bench why_word --memory [--tokens 9 512]   # every head off, grown and plain, each in a fresh process:
                                                         # peak RSS (VmHWM) and seconds, per prompt length
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import attention
from attention.analysis import why_word
from bench.cli import bench_parser
from harness.peak import in_fresh_process, is_child, peak_mib, report
from harness.proc_stats import proc_status_kib

PROMPT = "The black cat drank the milk because it was"


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)
    ap.add_argument("--prompt", default=PROMPT)
    ap.add_argument("--ig-steps", type=int, default=32)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--memory", action="store_true", help="peak RSS of every head off, grown and plain, fresh processes")
    ap.add_argument("--tokens", type=int, nargs="+", default=[9, 512], help="--memory: prompt lengths")
    ap.add_argument("--part", choices=("grown", "plain"), help=argparse.SUPPRESS)
    child, argv = is_child(argv)
    args = ap.parse_args(argv)
    if child:
        return _memory_part(args.part, args.tokens[0])
    if args.memory:
        for n in args.tokens:
            got = {part: in_fresh_process("bench.why_word", ["--part", part, "--tokens", str(n)]) for part in ("grown", "plain")}
            print(f"{n} tokens, every head off: " + "; ".join(
                f"{part} peak RSS {r.get('peak_mib', float('nan')):.0f} MiB (model loaded {r.get('loaded_mib', float('nan')):.0f}), "
                f"{r.get('seconds', float('nan')):.1f} s" for part, r in got.items()))
        return 0
    for i in range(args.repeat):  # the first run also loads the model and probes its sites
        started = time.perf_counter()
        w = attention.why(args.prompt, ig_steps=args.ig_steps)
        total = time.perf_counter() - started
        print(f"run {i + 1}: every head off ({len(w.heads)} heads, {len(w.tokens)} tokens) {w.seconds_heads:.1f} s; "
              f"all of why() {total:.1f} s")
    print(f"next token {w.token!r}: log p {w.f_input:.3f}; f(0) {w.f_baseline:.3f}")
    for (_, layer, head), drop in w.top:
        print(f"  layer {layer:2d} head {head}: drop {drop:.3f} nats")
    print(f"IG ({w.ig_steps} steps) sum {w.integrated_gradients.sum():.3f} vs f(x) - f(0) "
          f"{w.f_input - w.f_baseline:.3f}: gap {w.completeness_gap:.3f}; reference {w.reference[0]}")
    print("  tokens", [t for t in w.tokens])
    print("  IG    ", [round(float(v), 3) for v in w.integrated_gradients])
    print("  GxI   ", [round(float(v), 3) for v in w.gradient_x_input])
    for a in w.agreements:
        att = "not said" if a.attention is None else f"rho {a.attention.rho:+.2f} (n={a.attention.n}, " \
              f"{why_word.strength(a.attention.rho)})"
        val = "not said" if a.value_weighted is None else f"rho {a.value_weighted.rho:+.2f}"
        print(f"  layer {a.head[1]} head {a.head[2]}: attention row vs |{w.reference[0]}| {att}; value-weighted {val}")
    grown_vs_plain(w, args.prompt, args.repeat)
    print(f"peak RSS of this process (VmHWM, model included): {proc_status_kib(os.getpid(), 'VmHWM') / 1024:.0f} MiB")
    return 0


def grown_vs_plain(w, prompt: str, repeat: int) -> None:
    """Every head off alone for w's token, grown and plain, `repeat` times each, interleaved."""
    import numpy as np

    from attention import sources
    from attention.lm import why

    lm = sources.get(sources.SMOLLM2).kept("writer")
    ids = lm.tokenizer(prompt)["input_ids"]
    times: dict[str, list[float]] = {"grown": [], "plain": []}
    drops = {}
    for _ in range(repeat):
        for name in ("grown", "plain"):
            started = time.process_time()
            _, drops[name] = why.head_drops(lm, ids, w.token_id, grow=name == "grown")
            times[name].append(time.process_time() - started)
    g, p = min(times["grown"]), min(times["plain"])
    print(f"every head off, CPU s (best of {repeat}): grown batch {g:.1f}, plain batch {p:.1f}, grown/plain {g / p:.2f}; "
          f"largest |difference| of the drops {float(np.abs(drops['grown'] - drops['plain']).max()):.1e} nats")


def _memory_part(part: str, n_tokens: int) -> int:
    """In a fresh process: SmolLM2 loaded, then every head off alone for a prompt of n_tokens tokens."""
    from attention import sources
    from attention.lm import why

    lm = sources.get(sources.SMOLLM2).kept("writer")
    ids = lm.tokenizer((PROMPT + " ") * (n_tokens // 8 + 1))["input_ids"][:n_tokens]
    loaded = peak_mib()
    started = time.perf_counter()
    why.head_drops(lm, ids, int(ids[-1]), grow=part == "grown")
    report({"loaded_mib": round(loaded, 1), "seconds": round(time.perf_counter() - started, 2)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
