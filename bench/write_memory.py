"""What a local Writing of a long prompt keeps: RSS before, at the peak of reading the prompt, and after,
and the bytes its layer stores hold (the model's own weights are most of them).

    python -m bench.write_memory [--tokens 2048]
"""

from __future__ import annotations

import argparse
import os
import threading
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tokens", type=int, default=2048)
    args = ap.parse_args()
    from attention.lm import writer
    from attention.sources import registry
    from attention.ui.memory import release, rss_bytes

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


if __name__ == "__main__":
    main()
