"""What a head writes on SmolLM2 (attention/lm/head_writes.py), a 64-token prompt: every one of the 270 heads'
direct share of one token's logit at one position, against one bare forward pass of the same model, as a
ratio measured in this run (budget ≤ 1.5×); one head's promoted tokens (ms, budget ≤ 100 ms); the check; and
the peak RSS (VmHWM) of a fresh process that does it beside a fresh process that makes Write's own Writing
of the same prompt (budget: within Write's).

    python -m bench.head_writes [--tokens 64] [--repeats 5] [--no-memory]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from bench.cli import bench_parser

os.environ.setdefault("HF_HUB_OFFLINE", "1")

TEXT = ("The black cat drank the milk while a small dog watched from under the old wooden table near the "
        "window, and the rain kept falling on the quiet street outside. ")


def _ids(lm, n: int) -> list[int]:
    ids = lm.tokenizer(TEXT * (n // 20 + 2))["input_ids"][:n]
    assert len(ids) == n
    return ids


def _child(what: str, n: int) -> None:
    """In a fresh process: load SmolLM2, do `what` once, print the peak RSS in MiB."""
    from attention.sources import registry
    from harness.peak import peak_mib

    lm = registry.get("smollm2").kept("writer")
    ids = _ids(lm, n)
    if what == "writes":
        from attention.lm import head_writes

        head_writes.writes(lm, ids)
    else:  # Write's own: a Writing of the same prompt and its next word
        from attention.lm import writer

        w = writer.Writing(lm, lm.tokenizer.decode(ids), ids=ids)
        w.distribution(0)
    print(f"{peak_mib():.1f}")


def _peak(what: str, n: int) -> float:
    out = subprocess.run([sys.executable, "-m", "bench.head_writes", "--child", what, "--tokens", str(n)],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def _translator(repeats: int) -> None:
    """The translator's decoder: every part at the last position of a sentence, against one forward pass."""
    import torch

    import attention
    from attention.translator import api
    from attention.translator.vocab import BOS_ID

    text = "The black cat drank the milk."
    model = api.load_model()
    out = api.translate(text)
    src = torch.tensor([api._source(model, text).ids])
    tgt = torch.tensor([[BOS_ID, *(model.tgt_vocab.id(w) for w in out.target_tokens)]])
    fwd, parts = [], []
    for _ in range(repeats):
        started = time.process_time()
        with torch.inference_mode():
            model(src, tgt)
        fwd.append(time.process_time() - started)
        started = time.process_time()
        r = attention.head_writes(text, model="translator")
        parts.append(time.process_time() - started)
    f, p = statistics.median(fwd), statistics.median(parts)
    print(f"translator, {tgt.shape[1]} decoder positions, {r.heads.size} heads (self + cross), {r.token!r}: forward "
          f"{f * 1e3:.1f} ms CPU, every part (greedy translation, encoder, replay, forward) {p * 1e3:.1f} ms CPU "
          f"= {p / f:.1f}x; check {r.check:.1e}")


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--no-memory", action="store_true", help="leave out the two fresh processes")
    ap.add_argument("--child", choices=["writes", "write"], help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child, args.tokens)
        return 0
    import torch

    from attention.lm import head_writes
    from attention.sources import registry

    lm = registry.get("smollm2").kept("writer")
    ids = _ids(lm, args.tokens)
    t = torch.tensor([ids])
    head_writes.writes(lm, ids)  # the first call finds the layout and installs the hooks
    bare, last, parts = [], [], []  # (wall seconds, CPU seconds of this process): on a shared machine the CPU
    for _ in range(args.repeats):    # time is what the work itself took; interleaved, so both see the same load
        for kept, times in ((None, bare), (1, last)):  # every position's logits, or the last one's alone
            started, cpu = time.perf_counter(), time.process_time()
            with torch.inference_mode():
                lm.model(input_ids=t, attention_mask=torch.ones_like(t), use_cache=False, **({} if kept is None else
                                                                             {"logits_to_keep": kept}))
            times.append((time.perf_counter() - started, time.process_time() - cpu))
        started, cpu = time.perf_counter(), time.process_time()
        r = head_writes.writes(lm, ids)
        parts.append((time.perf_counter() - started, time.process_time() - cpu))
    layer, head = r.top(1)[0].head.layer, r.top(1)[0].head.head
    promoted = []
    for _ in range(max(args.repeats, 5)):
        r._last.clear()  # the product with W_U made again, not the kept one
        started = time.perf_counter()
        r.promotes(layer, head, 10)
        promoted.append(time.perf_counter() - started)
    fwd, dla, last_fwd = (statistics.median(x[0] for x in xs) for xs in (bare, parts, last))
    cpu_fwd, cpu_dla, cpu_last = (statistics.median(x[1] for x in xs) for xs in (bare, parts, last))
    print(f"SmolLM2, {len(ids)} tokens, token {r.token!r} at position {r.position}: {r.heads.size} heads")
    print(f"  one bare forward pass (median of {args.repeats}): {fwd * 1e3:.0f} ms")
    print(f"  the same with the last position's logits alone: {last_fwd * 1e3:.0f} ms")
    print(f"  every head's part, hooks and check included:  {dla * 1e3:.0f} ms  = {dla / fwd:.2f}x the forward "
          f"pass (budget 1.5x); {dla / last_fwd:.2f}x the one that keeps the last logits alone, as it does")
    print(f"  in CPU time of this process: forward {cpu_fwd * 1e3:.0f} ms, last logits alone {cpu_last * 1e3:.0f} ms, "
          f"every head's part {cpu_dla * 1e3:.0f} ms = {cpu_dla / cpu_fwd:.2f}x / {cpu_dla / cpu_last:.2f}x")
    print(f"  promoted tokens of layer {layer} head {head} (top 10 of {r.readout.unembed.shape[0]:,}): "
          f"{statistics.median(promoted) * 1e3:.1f} ms (budget 100 ms)")
    print(f"  check |sum of parts + bias - logit| = {r.check:.1e} (at most 1e-4); logit {r.logit:.3f}")
    ranked = []
    for _ in range(max(args.repeats, 5)):
        r._last.clear()
        started = time.perf_counter()
        rank = r.rank(layer, head)
        ranked.append(time.perf_counter() - started)
    print(f"  the word's exact rank among that head's pushes ({rank[0]:,} of {rank[1]:,}): "
          f"{statistics.median(ranked) * 1e3:.1f} ms, its product with W_U made again (kept for the lists after)")
    _translator(args.repeats)
    if not args.no_memory:
        mine, write = _peak("writes", args.tokens), _peak("write", args.tokens)
        print(f"  peak RSS (VmHWM) of a fresh process: head_writes {mine:.0f} MiB; Write's Writing {write:.0f} MiB "
              f"({mine / write:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
