"""How much memory the app's server process holds: at start, with the model loaded, after many sentences.

    python -m bench memory [--sentences 200] [--quick] [--minutes 15] [--json out.json]

Starts the real app, reads VmRSS of the streamlit process from /proc/<pid>/status right after it
answers its health check, again after the first page load in a headless Chromium (the model is
loaded then), then submits `--sentences` different sentences of 8–20 words through that one page
(each waited for until its head view is drawn), stopping early after `--minutes`. A thread samples
VmRSS every 0.5 s for the peak; the kernel's own peak (VmHWM) is printed too. `--quick`: 40
sentences. The trace cache is bounded by bytes (ATTENTION_CACHE_MB, 1024 by default), so memory
should level off below that, not keep growing.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.sync_api import sync_playwright

from bench.cli import bench_parser, write_json
from harness.app_server import CHROMIUM, CHROMIUM_ARGS, wait_idle
from harness.app_server import streamlit_process as app_server
from harness.head_geometry import wait_ready
from harness.page_timing import HEAD_VIEW_DRAWN, HEAD_VIEW_TOKENS, RESET_T0, timed_page
from harness.proc_stats import RssSampler, mib, proc_status_kib
from harness.sentences import check_markers, tokens_of, unique_sentences

TIMEOUT_MS = 120_000
QUICK_SENTENCES = 40


def run(n_sentences: int, minutes: float, every: int) -> dict:
    check_markers()
    sentences = unique_sentences(n_sentences, seed=2)
    deadline = time.monotonic() + minutes * 60
    checkpoints: list[dict] = []
    submit_s: list[float] = []
    t_start = time.monotonic()
    with app_server() as app, RssSampler(app.pid) as sampler, sync_playwright() as p:
        time.sleep(1.0)  # let the freshly started server settle
        rss_start = proc_status_kib(app.pid)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = timed_page(browser, app.url)
            wait_ready(page, TIMEOUT_MS)
            wait_idle(page)
            rss_loaded = proc_status_kib(app.pid)
            checkpoints.append({"sentences": 0, "rss_kib": rss_loaded})
            box = page.get_by_label("Sentence")
            stopped_by = "count"
            for i, (text, marker) in enumerate(sentences, start=1):
                if time.monotonic() > deadline:
                    stopped_by = "time"
                    break
                t0 = time.monotonic()
                box.fill(text)
                page.evaluate(RESET_T0)
                box.press("Control+Enter")
                page.wait_for_function(HEAD_VIEW_DRAWN, arg=marker, polling="raf", timeout=TIMEOUT_MS)
                wait_idle(page)
                submit_s.append(time.monotonic() - t0)
                got = page.evaluate(HEAD_VIEW_TOKENS)
                if got != tokens_of(text):
                    raise RuntimeError(f"sentence {i}: the head view shows {got}, expected the tokens of {text!r}")
                if i % every == 0 or i == len(sentences):
                    rss = proc_status_kib(app.pid)
                    checkpoints.append({"sentences": i, "rss_kib": rss})
                    print(f"  {i:>4} sentences: RSS {mib(rss):7.1f} MiB  (peak so far {mib(sampler.peak_kib):7.1f} MiB, "
                          f"{time.monotonic() - t_start:5.0f} s)", flush=True)
            done = len(submit_s)
            rss_end = proc_status_kib(app.pid)
            hwm = proc_status_kib(app.pid, "VmHWM")
        finally:
            browser.close()
    peak = max(sampler.peak_kib, rss_end)
    return {
        "sentences_asked": n_sentences, "sentences_done": done, "stopped_by": stopped_by,
        "rss_start_mib": round(mib(rss_start), 1), "rss_after_first_load_mib": round(mib(rss_loaded), 1),
        "rss_after_sentences_mib": round(mib(rss_end), 1), "rss_peak_sampled_mib": round(mib(peak), 1),
        "rss_peak_kernel_vmhwm_mib": round(mib(hwm), 1), "rss_samples": sampler.samples,
        "checkpoints": [{"sentences": c["sentences"], "rss_mib": round(mib(c["rss_kib"]), 1)} for c in checkpoints],
        "seconds_per_sentence_mean": round(sum(submit_s) / max(done, 1), 2),
        "wall_s": round(time.monotonic() - t_start, 1),
    }


def print_table(res: dict) -> None:
    print(f"\n{'server RSS (streamlit process)':44} {'MiB':>8}")
    print(f"{'after start (health ok)':44} {res['rss_start_mib']:>8.1f}")
    print(f"{'after first page load (model loaded)':44} {res['rss_after_first_load_mib']:>8.1f}")
    print(f"{'after ' + str(res['sentences_done']) + ' different sentences':44} {res['rss_after_sentences_mib']:>8.1f}")
    print(f"{'peak (sampled every 0.5 s)':44} {res['rss_peak_sampled_mib']:>8.1f}")
    print(f"{'peak (kernel VmHWM)':44} {res['rss_peak_kernel_vmhwm_mib']:>8.1f}")
    print(f"({res['sentences_done']} of {res['sentences_asked']} sentences, stopped by {res['stopped_by']}; "
          f"{res['seconds_per_sentence_mean']} s per sentence; {res['wall_s']} s in all)")


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--sentences", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help=f"only {QUICK_SENTENCES} sentences")
    ap.add_argument("--minutes", type=float, default=15.0, help="stop submitting after this long")
    ap.add_argument("--every", type=int, default=25, help="print RSS every this many sentences")
    args = ap.parse_args(argv)
    n = QUICK_SENTENCES if args.quick else args.sentences
    if not 1 <= n <= 5000 or not 0 < args.minutes <= 60:
        ap.error("--sentences must be 1..5000 and --minutes 0..60")
    res = run(n, args.minutes, 10 if args.quick else max(1, args.every))
    print_table(res)
    write_json(args.json, res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
