"""A written word with an evicted KV cache ÷ a plain one, per policy (budget 1.5×); --memory: peak RSS.

What a written word with an evicted KV cache costs (issue 44: ≤ 1.5× a plain written word at the same
length), and the peak memory of a 2,048-token prompt with budget 256 (within "Attention at the model's
full length": the Write page's writer on the same prompt).

    python -m bench evict_speed [--contexts 186 1024] [--policies streaming h2o] [--budget 64] [--steps 6] [--rounds 2]
    python -m bench evict_speed --memory          # two fresh processes: eviction and the plain writer

Time: per context and policy, against Writing.step() (the Write page's word: one token, every row recorded),
interleaved so machine noise hits both, on one torch thread as the app runs them (attention/blas.one_torch_thread),
as wall time and as the calling thread's CPU time (time.thread_time: without the waits for a core on a shared machine):
  1 by 1   the median over `--steps` words of Eviction.step() and then its `.kl` (the token read through the
           evicted cache, the policy's next kept sets; then the full cache reads that word): the page's "Next word";
  6 at once   six Eviction.step() and then read_full() (the full cache reads the six words in one pass), ÷ 6:
           the page's "6 words", its lesson and a link; the median over `--rounds`.
Memory: VmHWM (the kernel's peak resident size) of a fresh process that loads the model, reads the prompt
and writes 4 words, once with eviction and once with the plain writer.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402

from attention import sources  # noqa: E402
from attention.lm import evict, writer  # noqa: E402
from attention.lm.evict_policies import POLICIES  # noqa: E402
from bench.cli import bench_parser  # noqa: E402
from bench.lm_step import ids_of  # noqa: E402
from harness.peak import in_fresh_process, is_child, peak_mib, report  # noqa: E402


def _clock() -> tuple[float, float]:
    """(wall seconds, this thread's CPU seconds): on a shared machine the second leaves out the time the process
    waited for a core (torch on one thread computes in the calling thread)."""
    return time.perf_counter(), time.thread_time()


def _since(t0: tuple[float, float], words: int = 1) -> tuple[float, float]:
    t1 = _clock()
    return (t1[0] - t0[0]) / words, (t1[1] - t0[1]) / words


def bench_steps(lm, n: int, policy: str, budget: int, steps: int, rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds per word: "one" evicted 1 by 1, "six" evicted 6 at once, "plain"; and "kl"."""
    ids = ids_of(lm, n)
    limits = writer.Limits(n + 2 * steps + 12 * rounds + 1, n + 2 * steps + 12 * rounds + 1)
    w = writer.Writing(lm, "", limits=limits, ids=ids)
    one = evict.Eviction(lm, "", policy, budget, limits=limits, ids=ids)
    six = evict.Eviction(lm, "", policy, budget, limits=limits, ids=ids)
    times: dict[str, list[tuple[float, float]]] = {"one": [], "six": [], "plain": []}

    def plain_word() -> None:
        t0 = _clock()
        w.step()
        times["plain"].append(_since(t0))

    for _ in range(steps):
        t0 = _clock()
        kl = one.step().kl
        times["one"].append(_since(t0))
        plain_word()
    for _ in range(rounds):
        t0 = _clock()
        for _ in range(6):
            six.step()
        six.read_full()
        times["six"].append(_since(t0, 6))
        for _ in range(6):
            plain_word()
    out = {k: (statistics.median(x for x, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    return {**out, "kl": (kl, kl)}


def child(kind: str, n: int, budget: int) -> None:
    """One fresh process: load, read n tokens, write 4 words; report the peak resident size."""
    lm = sources.get(sources.SMOLLM2).kept("writer")
    loaded = peak_mib()
    ids = ids_of(lm, n)
    limits = writer.Limits(n + 8, n + 8)
    t0 = time.perf_counter()
    with torch.inference_mode():
        run = (evict.Eviction(lm, "", "h2o", budget, limits=limits, ids=ids) if kind == "evict"
               else writer.Writing(lm, "", limits=limits, ids=ids))
        for _ in range(4):
            run.step()
        if kind == "evict":
            run.read_full()  # the full cache beside it, at the same 4 words
    report({"kind": kind, "loaded_mib": round(loaded), "peak_mib": round(peak_mib()),
            "seconds": round(time.perf_counter() - t0, 1)})


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)
    ap.add_argument("--contexts", type=int, nargs="+", default=[186, 1024])
    ap.add_argument("--policies", nargs="+", default=list(POLICIES))
    ap.add_argument("--budget", type=int, default=64)
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=2, help="rounds of 6 words written at once")
    ap.add_argument("--memory", action="store_true", help="peak RSS of 2,048 tokens, budget 256, in fresh processes")
    ap.add_argument("--part", choices=("evict", "write"), help=argparse.SUPPRESS)  # the fresh process's
    child_run, argv = is_child(argv)
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    if child_run:
        child(args.part, args.contexts[0], args.budget)
        return 0
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; torch threads 1")
    if args.memory:
        print(f"{'fresh process':>14} {'loaded MiB':>11} {'peak MiB':>9} {'seconds':>8}  (2,048 tokens, h2o budget 256)")
        for kind in ("evict", "write"):
            out = in_fresh_process("bench.evict_speed", ["--part", kind, "--contexts", "2048", "--budget", "256"])
            if "error" in out:
                print(f"{kind:>14} failed: {out['error']}")
                return 1
            print(f"{kind:>14} {out['loaded_mib']:>11} {out['peak_mib']:>9} {out['seconds']:>8}")
        return 0
    lm = sources.get(sources.SMOLLM2).kept("writer")
    print(f"{'':>19} {'plain ms a word':>16} {'1 by 1 ÷ plain':>15} {'6 at once ÷ plain':>17}")
    print(f"{'context':>8} {'policy':>10} {'wall':>7} {'CPU':>7} {'wall':>7} {'CPU':>7} {'wall':>8} {'CPU':>8} {'KL':>6}"
          f"  (budget {args.budget})")
    for n in args.contexts:
        for policy in args.policies:
            bench_steps(lm, n, policy, args.budget, 1, 1)  # warm-up at this length
            r = bench_steps(lm, n, policy, args.budget, args.steps, args.rounds)
            (pw, pc), (ow, oc), (sw, sc) = r["plain"], r["one"], r["six"]
            print(f"{n:>8} {policy:>10} {pw * 1e3:>7.1f} {pc * 1e3:>7.1f} {ow / pw:>7.2f} {oc / pc:>7.2f} {sw / pw:>8.2f} "
                  f"{sc / pc:>8.2f} {r['kl'][0]:>6.3f}", flush=True)
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
