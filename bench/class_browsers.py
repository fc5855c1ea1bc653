"""A class in real browsers on one hosted replica: one Chromium, N contexts (one per pupil), each with its own
~T-token prompt on the Write page, then everyone presses "Next word" at once, W waves of one word each.

    python -m bench class [--browsers 30] [--words 12] [--prompt-tokens 250]
                                   [--sessions-mb MB] [--max-traces K] [--rss-budget-mb MB]

The server is the real app in hosted mode (ATTENTION_HOSTED=1), with the replica's derived budgets unless the
options make them tighter (bench/class_hosted.py; bench/class_protocol.py runs the same class with no browser). Pages are opened one after another (a class arriving), then the waves are sent.
Per press, the page itself records (in its own clock, every 100 ms) when the link gained the word and when a
notice that the press waits, or was refused, was first shown. A press is:
  answered      its word came;
  waiting shown a notice said it waits (its place, a rough wait) or is being written, before the word came, or
                instead of it;
  refused shown the page said it was refused and why (with a button to try again);
  silent        neither a word nor a notice by the wave's end: the press was lost.
Printed: those counts (and how many were told they wait before their word came); press -> word median and p95
(from the click as the page received it); press -> first answer (word or notice) p95 and how many
took over 2 s; the time from the wave to its last word; the server's peak RSS (VmHWM) beside the budget, its
RSS after the last wave; and every session's words against transformers' own greedy continuation (wrong).
Then where each press's time went, stage by stage (bench/press_stages.py: the server logs when the press
arrived, its run started, its notice was drawn, its turn came and its word was written).
"""

from __future__ import annotations

import asyncio
import os
import time

from harness.proc_stats import children_cpu_s, proc_cpu_s, proc_status_kib
from bench.class_hosted import class_options, passed, probe, run_and_report
from bench.class_pages import REFUSED_KEYS, WAITING_KEYS, Pupil, open_pupil, phrases, press, settle
from bench.cli import bench_parser


async def run_class(url: str, pid: int, n: int, words: int, prompt_tokens: int, wave_s: float,
                    memory: str | None = None) -> dict:
    from playwright.async_api import async_playwright

    from bench.load.write import long_prompt
    from harness.sentences import unique_sentences
    from harness.app_server import CHROMIUM, CHROMIUM_ARGS

    pupils = [Pupil(i, long_prompt(text, prompt_tokens), marker)
              for i, (text, marker) in enumerate(unique_sentences(n, seed=55))]
    wait_re, refused_re = phrases(WAITING_KEYS), phrases(REFUSED_KEYS)
    waves = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            t0 = time.monotonic()
            snaps: list[tuple[str, dict]] = []
            for p in pupils:  # a class arriving: one after another
                await open_pupil(browser, url, p)
                probe(memory, f"opened {p.index + 1}", snaps)
            opened_s = time.monotonic() - t0
            for w in range(words):
                start, server_cpu, browser_cpu = time.time(), proc_cpu_s(pid), children_cpu_s(pid)
                await asyncio.gather(*(press(p, w + 1, wait_re, refused_re) for p in pupils))
                deadline = time.monotonic() + wave_s
                await asyncio.gather(*(settle(p, deadline) for p in pupils))
                got = [p.presses[-1].word for p in pupils if p.presses[-1].word]
                waves.append({"wave": w + 1, "answered": len(got),
                              "last_word_s": round(max(got) - start, 1) if got else None,
                              "rss_after_mib": round(proc_status_kib(pid) / 1024),
                              "server_cpu_s": round(proc_cpu_s(pid) - server_cpu, 1),
                              "browsers_cpu_s": round(children_cpu_s(pid) - browser_cpu, 1)})
                print(f"  wave {w + 1}: {len(got)}/{n} words, last after {waves[-1]['last_word_s']} s, RSS "
                      f"{waves[-1]['rss_after_mib']} MiB; CPU: server {waves[-1]['server_cpu_s']} s, browsers "
                      f"{waves[-1]['browsers_cpu_s']} s", flush=True)
                probe(memory, f"wave {w + 1}", snaps)
                if len(got) < n:
                    break  # a lost press: later waves would count it again
            probe(memory, "trimmed", snaps, trim=True)
        finally:
            await browser.close()
    return {"pupils": pupils, "opened_s": round(opened_s, 1), "waves": waves, "memory": snaps}


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--browsers", type=int, default=30, help="pupils: contexts of one Chromium")
    class_options(ap)
    args = ap.parse_args(argv)
    _, out = run_and_report(args, f"class in browsers: {args.browsers} contexts", run_class, args.browsers, "browsers")
    return 0 if passed(out) else 1


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    raise SystemExit(main())
