"""The atlas of every SmolLM2 head over 200 texts of ~64 tokens: time and peak memory, in a fresh process.

    python -m bench head_atlas [--texts 200] [--tokens 64] [--threads 1]

The child process loads the model first (not timed; its memory is in the peak), makes the texts (the
built-in corpus's model-written texts, one after another, cut into pieces of `--tokens` tokens, cycled
to `--texts`), then times attention.head_atlas over them and one chosen head as the page shows it (its
joint map with ρ, its examples, its claim). Peak RSS is the child's VmHWM. Budgets (issue 47): the atlas
≤ 90 s on 2 cores, peak ≤ 1.5 GB; a head chosen ≤ 1 s.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.cli import bench_parser, write_json  # noqa: E402
from harness.peak import in_fresh_process, is_child, report  # noqa: E402


def texts_of(tokenizer, n_texts: int, n_tokens: int) -> list[str]:
    """n_texts texts of about n_tokens tokens: the model-written texts joined, cut by tokens, cycled."""
    from attention.lm import corpus_writer

    ids = tokenizer(" ".join(corpus_writer.read()["texts"]), add_special_tokens=False)["input_ids"]
    pieces = [tokenizer.decode(ids[i:i + n_tokens]) for i in range(0, len(ids) - n_tokens + 1, n_tokens)]
    return [pieces[i % len(pieces)] for i in range(n_texts)]


def child(n_texts: int, n_tokens: int, threads: int) -> dict:
    import numpy as np
    import torch

    import attention
    from attention import sources
    from attention.analysis import claims
    from attention.analysis.atlas_map import joint_map

    torch.set_num_threads(threads)
    lm = sources.get(sources.SMOLLM2).kept()
    texts = texts_of(lm.tokenizer, n_texts, n_tokens)
    start = time.perf_counter()
    at = attention.head_atlas(texts, model=sources.SMOLLM2)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    m = joint_map(at, 18, 6)
    at.examples(18, 6, 5)
    role = claims.corpus_role(at.head_shares(18, 6), at.head_even(18, 6), at.rows)
    head_seconds = time.perf_counter() - start
    called = sum(claims.corpus_role(at.head_shares(la, h), at.head_even(la, h), at.rows) is not None
                 for la in at.layers for h in range(at.n_heads))
    print(f"texts {len(at.texts)}, tokens {at.n_tokens} (mean {at.n_tokens / len(at.texts):.1f}), torch threads {threads}")
    print(f"atlas: {seconds:.1f} s ({1000 * seconds / len(at.texts):.0f} ms a text)")
    print(f"a head chosen (L18H6: map, examples, claim): {head_seconds:.2f} s")
    shares = at.head_shares(18, 6)
    print("L18H6 shares: " + ", ".join(f"{r} {v:.2f}" for r, v in shares.items()) + f"; called: {role}")
    agreement = "none" if m.agreement is None else f"rho {m.agreement.rho:.2f} over {m.agreement.n} pairs"
    print(f"L18H6 map: {agreement}, two axes keep {m.kept:.0%}")
    idx, share = at.largest()
    print(f"heads called by a role: {called} of {idx.size}; mean 'first' share {np.nanmean(at.shares['first']):.2f}")
    return {"texts": len(at.texts), "tokens": at.n_tokens, "threads": threads, "atlas_s": round(seconds, 2),
            "head_s": round(head_seconds, 3), "heads_called": int(called)}


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--texts", type=int, default=200)
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (the app computes on one)")
    child_run, argv = is_child(argv)
    args = ap.parse_args(argv)
    if child_run:
        report(child(args.texts, args.tokens, args.threads))
        return 0
    res = in_fresh_process("bench.head_atlas", ["--texts", str(args.texts), "--tokens", str(args.tokens),
                                                "--threads", str(args.threads)])
    if "error" in res:
        print(f"the atlas's process failed: {res['error']}")
        return 1
    print(f"peak RSS of the process (VmHWM, the model loaded first): {res['peak_mib']:,.0f} MiB")
    write_json(args.json, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
