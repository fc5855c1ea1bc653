"""Find the needle at SmolLM2's full length: one needle at 8,192 tokens with 24 written words and every head's
top-1 key (attention/lm/needle.py) against plain greedy generation of the same words, and a grid of needles.

    python -m bench needle [--length 8192] [--steps 24] [--grid small|full|none] [--proof 512] [--json out.json]
    python -m bench needle --length 0 --grid full --lengths 512 1024 --compare   # a sub-grid, timed

Each measurement is a fresh process (peak RSS = its VmHWM; the model's load is in the peak, not in the time):
  needle    needle.run on the prompt: prefill in chunks (SDPA), each written token's query row recomputed
            per layer for every head's top key and needle weight
  plain     transformers' generate(), attn_implementation="sdpa", greedy, the same prompt ids and as many new
            tokens as the needle wrote (min = max), no attention asked for
The ratio is needle / plain seconds, both measured in this one run (budget: ≤ 3×; peak ≤ 3 GB).
The grid: lengths × depths × the three built-in needles (full: 512, 1,024, 2,048, 4,096 × 0, .25, .5, .75, 1;
small: 512, 2,048 × .1, .5, .9), one process, minutes, with the answers right or wrong and the retrieval heads;
each start before a needle read once (needle_prefill.Shelf). --lengths / --depths: a sub-grid of it, measured
afresh (the disk is neither read nor written); --compare: then every run reading its own prompt too, in the same
process (the ratio, and whether every number agrees). The tokens each way reads are counted for the named grid
without a model, so a sub-grid's time scales to the whole grid (the time is nearly linear in the tokens read:
99 s at 4,092 and 216 s at 8,150, above).
The proof (--proof n): the small grid's top-5 heads off against 3 draws of same-layer random heads on the three
needles at n tokens; then the caches compared (every policy at budget 128, the DuoAttention-style split) at 2n.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.cli import bench_parser, write_json  # noqa: E402
from harness.peak import peak_mib  # noqa: E402

GRIDS = ("full", "small")  # attention/lm/needle_grid.GRIDS (not imported here: the parent process stays light)


def _prompt(length: int, steps: int, depth: float = 0.5):
    from attention.lm import models, needle_prompt, smollm2

    lm = models.read(smollm2.folder(), label=smollm2.LABEL)
    nd = needle_prompt.NEEDLES[0]
    return lm, nd, needle_prompt.build(lm.tokenizer, nd.needle, nd.question, None,
                                       min(length, lm.max_tokens - steps - 1), depth)


def _needle(length: int, steps: int) -> dict:
    from attention.analysis import retrieval
    from attention.lm import needle

    lm, nd, p = _prompt(length, steps)
    t = time.perf_counter()
    r = needle.run(lm, p, nd.needle, nd.question, nd.answer, steps)
    seconds = time.perf_counter() - t
    return {"seconds": seconds, "peak_mib": peak_mib(), "tokens": len(p.ids), "written": len(r.steps),
            "ids": r.written, "answer": r.answer, "found": r.found, "span": list(p.span),
            "heads": [[L, h, round(s, 3)] for L, h, s in retrieval.above(r.retrieval_scores)][:12]}


def _plain(length: int, steps: int, new: int) -> dict:
    import torch
    from transformers import AutoModelForCausalLM

    from attention.lm import smollm2

    _, _, p = _prompt(length, steps)
    model = AutoModelForCausalLM.from_pretrained(smollm2.folder(), attn_implementation="sdpa", dtype=torch.float32)
    t = time.perf_counter()
    with torch.inference_mode():
        out = model.generate(torch.tensor([list(p.ids)]), max_new_tokens=new, min_new_tokens=new, do_sample=False)
    seconds = time.perf_counter() - t
    return {"seconds": seconds, "peak_mib": peak_mib(), "ids": out[0, len(p.ids):].tolist()}


def _tokens(lm, lengths, depths, steps: int) -> tuple[int, int]:
    """(tokens read with shared starts, tokens read run by run) over the grid, counted without the model."""
    from attention.lm import needle_prefill, needle_prompt

    prompts = [needle_prompt.build(lm.tokenizer, nd.needle, nd.question, None, min(n, lm.max_tokens - steps - 1), d)
               for n in lengths for d in depths for nd in needle_prompt.NEEDLES]
    prompts.sort(key=lambda p: p.ids[: p.span[0]])
    return needle_prefill.planned([(p.ids, p.span[0]) for p in prompts])


def _grid(which: str, steps: int, lengths=None, depths=None, compare: bool = False) -> dict:
    from attention.lm import models, needle_grid, smollm2

    named_lengths, named_depths = needle_grid.GRIDS[which]
    sub = lengths is not None or depths is not None
    lengths, depths = tuple(lengths or named_lengths), tuple(depths or named_depths)
    lm = models.read(smollm2.folder(), label=smollm2.LABEL)
    t, cpu = time.perf_counter(), time.process_time()

    def progress(done: int, total: int) -> None:
        print(f"  grid {done}/{total} {time.perf_counter() - t:.0f} s", file=sys.stderr, flush=True)

    folder = None if sub else os.path.join(smollm2.cache_dir(), "needle")  # the page reads the named grids there
    g = needle_grid.measure(lm, lengths, depths, steps=steps, progress=progress, cache_dir=folder)
    seconds, cpu = time.perf_counter() - t, time.process_time() - cpu
    out = {"tokens": _tokens(lm, lengths, depths, steps), "named_tokens": _tokens(lm, named_lengths, named_depths,
                                                                                   steps), "cpu_seconds": cpu}
    if compare:
        t = time.perf_counter()
        plain = needle_grid.measure(lm, lengths, depths, steps=steps, progress=progress, shared=False)
        out["alone_seconds"] = time.perf_counter() - t
        out["same"] = bool(all(np.array_equal(getattr(g, f), getattr(plain, f))
                               for f in ("found", "scores", "copyable", "answers", "prompt_tokens")))
    return out | {"seconds": seconds, "peak_mib": peak_mib(), "lengths": list(lengths),
            "depths": list(depths), "accuracy": g.accuracy.tolist(), "found": g.found.tolist(),
            "right_runs": g.right_runs, "copied_tokens": g.copied_tokens,
            "answers": g.answers.tolist(),
            "retrieval_heads": [[h.head.layer, h.head.head, round(h.score, 3)] for h in g.retrieval_heads()]}


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--length", type=int, default=8192)
    ap.add_argument("--steps", type=int, default=24)
    ap.add_argument("--grid", choices=(*GRIDS, "none"), default="none")
    ap.add_argument("--lengths", type=int, nargs="+", help="a sub-grid: these lengths of the named grid")
    ap.add_argument("--depths", type=float, nargs="+", help="a sub-grid: these depths")
    ap.add_argument("--compare", action="store_true", help="the grid also run by run, in the same process")
    ap.add_argument("--proof", type=int, default=0, help="the proof at this length, the caches at twice it")
    ap.add_argument("--one", nargs="+", help=argparse_hidden())
    a = ap.parse_args(argv)
    if a.one:  # inside a fresh child: one measurement, printed as JSON
        part = a.one[0]
        result = (_needle(a.length, a.steps) if part == "needle" else
                  _plain(a.length, a.steps, int(a.one[1])) if part == "plain" else
                  _proof(int(a.one[1]), a.steps) if part == "proof" else
                  _grid(a.one[1], a.steps, a.lengths, a.depths, a.compare))
        print(json.dumps(result))
        return 0
    results: dict = {}
    if a.length > 0:
        n = _child_args("needle", a.length, a.steps)
        p = _child_args("plain", a.length, a.steps, str(max(1, n["written"])))
        results = {"needle": n, "plain": p, "ratio": n["seconds"] / p["seconds"],
                   "same_words": n["ids"] == p["ids"][: len(n["ids"])]}
        print(f"needle at {n['tokens']} tokens, {n['written']} written: {n['seconds']:.1f} s, peak {n['peak_mib']:.0f} MiB;"
              f" found={n['found']} answer={n['answer']!r}")
        print(f"plain greedy (sdpa): {p['seconds']:.1f} s, peak {p['peak_mib']:.0f} MiB;"
              f" ratio {results['ratio']:.2f}x; same words: {results['same_words']}")
        print(f"heads above 0.1 (layer, head, score): {n['heads']}")
    if a.grid != "none":
        more = [*(["--lengths", *map(str, a.lengths)] if a.lengths else []),
                *(["--depths", *map(str, a.depths)] if a.depths else []), *(["--compare"] if a.compare else [])]
        g = _child_args("grid", 0, a.steps, a.grid, more)
        results["grid"] = g
        print(f"grid {a.grid} {g['lengths']} × {g['depths']}: {g['right_runs']} right of "
              f"{len(g['lengths']) * len(g['depths']) * 3} in {g['seconds']:.0f} s ({g['cpu_seconds']:.0f} s of CPU),"
              f" peak {g['peak_mib']:.0f} MiB; accuracy by length × depth {g['accuracy']}")
        (sh, al), (nsh, nal) = g["tokens"], g["named_tokens"]
        print(f"tokens read: {sh:,} with shared starts, {al:,} run by run ({sh / al:.2f}); the whole {a.grid} grid "
              f"{nsh:,} against {nal:,}: scaled by tokens, about {g['seconds'] * nsh / sh / 60:.1f} min at this run's "
              f"wall rate, {g['cpu_seconds'] * nsh / sh / 60:.1f} min of CPU")
        if a.compare:
            print(f"run by run: {g['alone_seconds']:.0f} s; ratio shared / alone {g['seconds'] / g['alone_seconds']:.2f};"
                  f" every number the same: {g['same']}")
        print(f"retrieval heads (layer, head, mean score over right runs; {g['copied_tokens']} copyable tokens):"
              f" {g['retrieval_heads']}")
    if a.proof:
        p = _child_args("proof", 0, a.steps, str(a.proof))
        results["proof"] = p
        print(f"proof at {a.proof} tokens, top-5 heads of the small grid {p['top']} off: right {p['top_right']} "
              f"(every head on: {p['base_right']}); 3 same-layer random draws: {p['random_right']}; the top heads' "
              f"top key on the sink where it failed: {p['top_sink']}; answers {p['answers_top']}")
        for r in p["forget"]:
            print(f"  {p['forget_tokens']} tokens, {r['cache']:>9}: right={r['right']} KV kept {r['kept_mb']:.1f} of "
                  f"{r['full_mb']:.1f} MB; {r['answer']!r}")
    write_json(a.json, results)
    return 0


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


def _proof(length: int, steps: int) -> dict:
    """The top-5 heads of the small grid (measured first if not on disk) off against 3 same-layer random draws, on
    the three needles at `length`; then the caches compared at 2 × length with budget 128 on the first needle."""
    from attention.lm import models, needle_grid, needle_proof, needle_prompt, smollm2

    lm = models.read(smollm2.folder(), label=smollm2.LABEL)
    lengths, depths = needle_grid.GRIDS["small"]
    g = needle_grid.measure(lm, lengths, depths, steps=steps, cache_dir=os.path.join(smollm2.cache_dir(), "needle"))
    top = [h.head for h in g.top(5)]
    prompts = [(needle_prompt.build(lm.tokenizer, nd.needle, nd.question, None, length, 0.5), nd)
               for nd in needle_prompt.NEEDLES]
    t = time.perf_counter()
    p = needle_proof.prove(lm, prompts, top, draws=3, steps=steps)
    proof_s = time.perf_counter() - t
    nd = needle_prompt.NEEDLES[0]
    prompt = needle_prompt.build(lm.tokenizer, nd.needle, nd.question, None, 2 * length, 0.5)
    runs = needle_proof.forgetting(lm, prompt, nd, [h.head for h in g.retrieval_heads()], 128, steps=steps)
    return {"top": [list(h[1:]) for h in top], "random": [[list(h[1:]) for h in d] for d in p.random],
            "base_right": p.base_right.tolist(), "top_right": p.top_right.tolist(),
            "random_right": p.random_right.tolist(), "top_sink": p.top_sink, "answers_top": list(p.answers_top),
            "proof_seconds": proof_s, "forget_tokens": len(prompt.ids),
            "forget": [{"cache": r.label, "right": r.found, "answer": r.answer, "kept_mb": r.kv_bytes_kept / 1e6,
                        "full_mb": r.kv_bytes_full / 1e6} for r in runs]}


def _child_args(part: str, length: int, steps: int, extra: str | None = None, more: list[str] | None = None) -> dict:
    cmd = [sys.executable, "-m", "bench.needle", "--length", str(length), "--steps", str(steps), *(more or []),
           "--one", part]
    if extra is not None:
        cmd.append(extra)
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{part} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    raise SystemExit(main())
