"""The translator's head roles at every training snapshot: seconds, and the step each role appears.

When each head role appears while the translator learns: the roles of every training snapshot on its
probe (seed 0), per kind of attention the best head's score at each step and the step the appearance rule
gives (attention/analysis/role_emergence.py), with the seconds measuring every snapshot took.

    python -m bench roles_over_training [--seed 0] [--length 12]
"""

from __future__ import annotations

import sys
import time

from attention.analysis import role_emergence
from attention.translator import read_snapshots, roles
from bench.cli import bench_parser


def main(argv: list[str] | None = None) -> int:
    p = bench_parser(__doc__, results=False)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--length", type=int, default=12)
    a = p.parse_args(argv)
    snaps = read_snapshots()
    steps = [s for s, _ in snaps]
    started = time.perf_counter()
    per = [roles.measure(m, a.seed, a.length) for _, m in snaps]
    seconds = time.perf_counter() - started
    print(f"roles of all {len(snaps)} snapshots (steps {steps[0]}..{steps[-1]}): {seconds:.2f} s "
          f"({seconds / len(snaps) * 1000:.0f} ms each)")
    for kind in roles.KINDS:
        print(f"\n{kind}")
        for role, e in role_emergence.over_training(steps, [r[kind] for r in per]).items():
            when = "never" if e.appears is None else ("from the start" if e.from_start else f"step {e.appears}")
            curve = " ".join(f"{s}:{b:.2f}" for s, b in zip(steps, e.best))
            print(f"  {role:9s} even {e.even:.3f} bar {e.bar:.3f} appears {when:14s} best {curve}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
