"""Top heads per role on SmolLM2 and MiniLM, sink rates, and the proof curves (top-k off vs random k).

What each head does, measured: the top heads per role on SmolLM2 and MiniLM, the sink rate, and the
proof curves (SmolLM2's top-k heads of a role switched off against k random heads), with the time taken.

    python -m bench head_roles [--seed 0] [--length 12] [--draws 8] [--probes 3] [--roles induction previous]
    python -m bench head_roles --page   # the page's settings (role_proof.PAGE): seconds per curve (budget 60 s)
                                        # and, per role, the first k at which claims.role_matters holds

The sink rate is printed on the probe and on an ordinary paragraph (Gu et al. 2025 measure it on
ordinary text). The loss is nats per token on the repeated half of `--probes` fresh probes.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np  # noqa: E402

import attention  # noqa: E402
from attention.analysis import head_roles, role_probes  # noqa: E402
from bench.cli import bench_parser  # noqa: E402

PARAGRAPH = ("The black cat drank the milk while a small dog watched from under the old wooden table near the "
             "open window. Outside, the rain had stopped and the children ran back to the garden to find the "
             "ball they had lost in the morning.")


def show_roles(roles: head_roles.HeadRoles, seconds: float) -> None:
    print(f"\n{roles.model}: {roles.shape[0]} layers × {roles.shape[1]} heads, causal={roles.causal}, "
          f"probe seed {roles.seed}, L = {roles.length} tokens from position {roles.start} ({seconds:.1f} s)")
    for role in head_roles.ROLES:
        if not roles.applies(role):
            print(f"  {role:9s} not measured: {roles.notes[role]}")
            continue
        top = ", ".join(f"L{layer}H{head} {score:.2f}" for (_, layer, head), score in roles.top(role, 5))
        print(f"  {role:9s} {top}")
    print(f"  sink rate on the probe (> {head_roles.SINK_EPSILON}): {roles.sink_rate:.1%}")


def ordinary_sink_rate(trace) -> float:
    kind = role_probes.self_attention_kind(trace)
    weights, _ = role_probes.stacked(trace, kind)
    return float(np.mean(head_roles.sink(weights, head_roles.is_causal(weights)) > head_roles.SINK_EPSILON))


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--length", type=int, default=12)
    ap.add_argument("--draws", type=int, default=8)
    ap.add_argument("--probes", type=int, default=3)
    ap.add_argument("--roles", nargs="*", default=["induction", "previous"])
    ap.add_argument("--page", action="store_true", help="only the proof curves, with the Overview's settings")
    args = ap.parse_args(argv)
    if args.page:
        page_proofs(args.seed, args.length)
        return 0

    t = time.perf_counter()
    from attention import sources
    from attention.capture import hf_model

    lm = sources.get(attention.SMOLLM2).kept("writer")  # the very model head_roles() reads
    print(f"SmolLM2 loaded in {time.perf_counter() - t:.1f} s")
    for name in (attention.SMOLLM2, None):
        t = time.perf_counter()
        roles = attention.head_roles(name, seed=args.seed, length=args.length)
        show_roles(roles, time.perf_counter() - t)
        tr = hf_model.trace_batch(lm, [PARAGRAPH])[0] if name else attention.trace(PARAGRAPH)
        print(f"  sink rate on an ordinary paragraph of {len(tr.tokens)} tokens: {ordinary_sink_rate(tr):.1%}")

    from attention.capture import role_proof

    smol = attention.head_roles(attention.SMOLLM2, seed=args.seed, length=args.length)
    for role in args.roles:
        t = time.perf_counter()
        proof = role_proof.prove(lm, smol, role, draws=args.draws, probes=args.probes)
        heads = ", ".join(f"L{layer}H{head}" for _, layer, head in proof.ranked)
        print(f"\nproof, {role}: top heads {heads}; every head on: {proof.base_loss:.3f} nats/token "
              f"({args.draws} random draws per k, probes of seeds {proof.seeds}; {time.perf_counter() - t:.1f} s)")
        print("   k   top-k off   random mean ± sd   [min, max]        z")
        for row, z in zip(proof.rows(), proof.z()):
            print(f"  {row['k']:2d}   {row['top']:8.3f}   {row['random_mean']:7.3f} ± {row['random_sd']:.3f}   "
                  f"[{row['random_min']:.3f}, {row['random_max']:.3f}]   {z:6.1f}")
    return 0


def page_proofs(seed: int, length: int) -> None:
    """Each provable role's curve with the page's settings: its time and what the page will say."""
    from attention import sources
    from attention.analysis import claims
    from attention.capture import role_proof

    lm = sources.get(attention.SMOLLM2).kept("writer")
    smol = attention.head_roles(attention.SMOLLM2, seed=seed, length=length)
    print(f"page settings {role_proof.PAGE}; budget 60 s per curve")
    for role in role_proof.PROVABLE:
        t = time.perf_counter()
        p = role_proof.prove(lm, smol, role, **role_proof.PAGE)
        k = claims.first_k_that_matters(p.ks, p.top_loss, p.random_loss, p.base_loss)
        verdict = f"matters from k = {k}" if k is not None else "does NOT matter (up to k = 5)"
        print(f"  {role:9s} {time.perf_counter() - t:5.1f} s  base {p.base_loss:.2f}  "
              f"top-k {np.round(p.top_loss, 2).tolist()}  random mean {np.round(p.random_loss.mean(1), 2).tolist()}"
              f"  -> {verdict}")


if __name__ == "__main__":
    sys.exit(main())
