"""SmolLM2 at 512 … 8,192 tokens: trace, check, pooled head, a written word vs bare SDPA; peak RSS.

SmolLM2 at long lengths: what a trace, a written word and a head's first view cost, beside the bare
transformers forward pass (SDPA) on the same ids, each in a fresh process (peak RSS = its VmHWM).

    python -m bench long_context [--lengths 512 1024 2048 4096 8192] [--json out.json]

Per length n, each row a new process that loads the model first (the load is not timed, its memory is
in the peak):
  bare      transformers' forward, attn_implementation="sdpa", logits of the last position, no cache;
            then one step with the KV cache (the forward filled it)
  trace     registry.get("smollm2").run(model, text): every layer captured (Explore, Overview, Compare)
  check     that trace's check of one layer (layer 17: every head's z against the model's, in tiles)
  head      one head's first view past 512 tokens: A max-pooled to at most 1,024 px a side and the words, as
            the long head view's first message (headview/long_payload.py)
  write     a Writing of the n-token prompt (Write's page; prompt not cut) and one written word: its step, and
            the newest site the page then shows with its new row checked (site s)
Ratios are to the bare forward and the bare KV-cache step measured in the same run.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.cli import bench_parser, write_json  # noqa: E402
from harness.peak import in_fresh_process, is_child, peak_mib, report  # noqa: E402

LENGTHS = (512, 1024, 2048, 4096, 8192)
WORDS = ("the cat sat on a mat and then it went home to sleep because it was tired of the long day in "
         "spring when every bird sang over green hills near an old river").split()



def ids_of(tokenizer, n: int) -> list[int]:
    """n token ids of random words (numpy seed 0) that the tokenizer reads back as themselves."""
    import numpy as np

    text = " ".join(np.random.default_rng(0).choice(WORDS, size=2 * n))
    ids = tokenizer(text, add_special_tokens=False)["input_ids"][:n]
    assert tokenizer(tokenizer.decode(ids))["input_ids"] == ids
    return ids


def _bare(n: int) -> dict:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from attention.lm import smollm2

    folder = smollm2.folder()
    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForCausalLM.from_pretrained(folder, attn_implementation="sdpa", dtype=torch.float32).eval()
    ids = torch.tensor([ids_of(tok, n)])
    with torch.inference_mode():
        t0 = time.perf_counter()
        model(input_ids=ids, logits_to_keep=1, use_cache=False)
        forward = time.perf_counter() - t0
        out = model(input_ids=ids[:, :-1], logits_to_keep=1, use_cache=True)
        t0 = time.perf_counter()
        model(input_ids=ids[:, -1:], cache=out.cache, use_cache=True, logits_to_keep=1)
        step = time.perf_counter() - t0
    return {"forward_s": forward, "step_s": step}


def _trace(n: int) -> dict:
    from attention.sources import registry

    source = registry.get("smollm2")
    lm = source.load()
    text = lm.tokenizer.decode(ids_of(lm.tokenizer, n))
    t0 = time.perf_counter()
    tr = source.run(lm, text).trace
    traced = time.perf_counter() - t0
    site = tr.site(17, "decoder")
    t0 = time.perf_counter()
    diff = site.check_diff
    checked = time.perf_counter() - t0
    out = {"trace_s": traced, "trace_peak_mib": peak_mib(), "tokens": len(tr.tokens), "cut": tr.dropped_tokens,
           "check_s": checked, "check_diff": diff}
    from attention.analysis.pooled import pooled_pattern
    from attention.headview import long_payload

    t0 = time.perf_counter()  # what Explore sends first past 512 tokens: the long view's first message
    first = long_payload.first(pooled_pattern(site, 4), site.query_tokens, site.key_tokens, info={}, labels={})
    out.update(head_s=time.perf_counter() - t0, head_kb=len(first) / 1024, all_peak_mib=peak_mib())
    return out


def _write(n: int) -> dict:
    from attention.lm import writer
    from attention.lm.written import Limits
    from attention.sources import registry

    lm = registry.get("smollm2").load_writer()
    ids = ids_of(lm.tokenizer, n)
    t0 = time.perf_counter()
    w = writer.Writing(lm, lm.tokenizer.decode(ids), Limits(prompt=n, total=n + 1), ids=ids[:-1])
    read = time.perf_counter() - t0
    t0 = time.perf_counter()
    w.step(token_id=ids[-1])
    step = time.perf_counter() - t0
    w.site(17, step=0)  # the layer shown before the word: its prompt rows checked once, as the page does
    t0 = time.perf_counter()
    w.site(17).faithful  # after the word: the site the page shows, its new row checked
    shown = time.perf_counter() - t0
    return {"write_read_s": read, "write_step_s": step, "write_site_s": shown, "write_peak_mib": peak_mib(),
            "write_cut": w.cut, "write_lean": w.lean}


PARTS = {"bare": _bare, "trace": _trace, "write": _write}


def one(part: str, n: int) -> dict:
    """A fresh process for one part at one length: its figures and its peak (as `<part>_peak_mib`)."""
    res = in_fresh_process("bench.long_context", ["--parts", part, "--lengths", str(n)])
    peak = res.pop("peak_mib", None)
    if "error" not in res:
        res.setdefault(f"{part}_peak_mib", peak)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--lengths", type=int, nargs="+", default=list(LENGTHS))
    ap.add_argument("--parts", nargs="+", default=list(PARTS), choices=list(PARTS))
    child_run, argv = is_child(argv)
    args = ap.parse_args(argv)
    if child_run:  # one part at one length
        report(PARTS[args.parts[0]](args.lengths[0]))
        return 0
    rows = []
    print(f"{'n':>6} {'bare s':>7} {'bare MiB':>8} {'trace s':>8} {'×bare':>6} {'trace MiB':>9} {'check s':>8} "
          f"{'check diff':>10} {'head s':>7} {'head kB':>7} {'write MiB':>9} {'word s':>7} {'site s':>7} {'×step':>6}")
    for n in args.lengths:
        row = {"n": n}
        for part in args.parts:
            row.update(one(part, n))
        rows.append(row)

        def f(key: str, fmt: str = "{:.2f}") -> str:
            return fmt.format(row[key]) if isinstance(row.get(key), (int, float)) else "—"

        ratio = row.get("trace_s", 0) / row["forward_s"] if row.get("forward_s") else float("nan")
        word = row.get("write_step_s", 0) / row["step_s"] if row.get("step_s") else float("nan")
        print(f"{n:>6} {f('forward_s'):>7} {f('bare_peak_mib', '{:.0f}'):>8} {f('trace_s'):>8} {ratio:>6.2f} "
              f"{f('trace_peak_mib', '{:.0f}'):>9} {f('check_s'):>8} {f('check_diff', '{:.1e}'):>10} "
              f"{f('head_s'):>7} {f('head_kb', '{:.0f}'):>7} {f('write_peak_mib', '{:.0f}'):>9} {f('write_step_s', '{:.3f}'):>7} {f('write_site_s', '{:.3f}'):>7} {word:>6.2f}",
              flush=True)
        if "error" in row:
            print("   error:", row["error"])
    write_json(args.json, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
