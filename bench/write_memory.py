"""What a local Writing of a long prompt keeps (RSS before, peak, after); --hosted: one session's parts.

What a local Writing of a long prompt keeps: RSS before, at the peak of reading the prompt, and after,
and the bytes its layer stores hold (the model's own weights are most of them).

    python -m bench write_memory [--tokens 2048]
    python -m bench write_memory --hosted      # a hosted writing at its cap: 256 prompt tokens + 64 written

With --hosted it prints what one session's Writing holds, part by part (the rows with their room, the
model's weights kept for the check, the logits of every step, the recomputation of the layer shown).
"""

from __future__ import annotations

import os
import sys
import threading
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.cli import bench_parser  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)
    ap.add_argument("--tokens", type=int, default=2048)
    ap.add_argument("--hosted", action="store_true")
    args = ap.parse_args(argv)
    if args.hosted:
        hosted()
        return 0
    from attention.lm import writer
    from attention.sources import registry
    from attention.ui.hosting.memory import release, rss_bytes

    lm = registry.get("smollm2").load_writer()
    prompt = " ".join(f"word{i % 97}" for i in range(args.tokens))
    ids = lm.tokenizer(prompt)["input_ids"][: args.tokens]
    release()
    base, peak, done = rss_bytes(), [0], threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss_bytes())
            time.sleep(0.05)

    threading.Thread(target=sample, daemon=True).start()
    t0 = time.monotonic()
    w = writer.Writing(lm, prompt, writer.LOCAL, ids=ids)
    secs = time.monotonic() - t0
    done.set()
    release()
    kept = sum(b.nbytes for s in w.stores.values() for b in s.blocks)
    mib = 2**20
    print(f"{w.n}-token prompt read in {secs:.1f} s: RSS {base / mib:.0f} MiB with the model, peak "
          f"{max(peak[0], rss_bytes()) / mib:.0f} MiB, after {rss_bytes() / mib:.0f} MiB; the model's weights "
          f"kept for the check: {kept / mib:.0f} MiB")
    return 0


def hosted() -> None:
    from attention.lm import writer
    from attention.sources import registry

    lm = registry.get("smollm2").load_writer()
    limits = writer.HOSTED
    ids = lm.tokenizer(" ".join(f"word{i % 97}" for i in range(limits.prompt)))["input_ids"][: limits.prompt]
    w = writer.Writing(lm, "", limits, ids=ids)
    while w.step(token_id=ids[len(w.steps) % len(ids)]) is not None:
        pass
    w.site(18)  # the layer the page shows first: its recomputation is kept
    mib = 2**20
    parts = {
        "rows (q, z, k, v with room)": sum(a.nbytes for s in w.stores.values() for a in (s._q, s._z, s._k, s._v)),
        "model's weights for the check": sum(b.nbytes for s in w.stores.values() for b in s.blocks),
        "logits of every step": sum(x.nbytes for x in w._logits),
        "recomputation of the layer shown": sum(a.nbytes for a in (w._recomputed[1].scores, w._recomputed[1].weights,
                                                                   w._recomputed[1].z)),
    }
    print(f"hosted writing: {w.prompt_len} prompt tokens + {len(w.steps)} written")
    for name, b in parts.items():
        print(f"  {name:34s} {b / mib:7.1f} MiB")
    print(f"  {'total':34s} {sum(parts.values()) / mib:7.1f} MiB")


if __name__ == "__main__":
    sys.exit(main())
