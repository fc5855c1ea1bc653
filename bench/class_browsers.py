"""A class in real browsers on one hosted replica: one Chromium, N contexts (one per pupil), each with its own
~T-token prompt on the Write page, then everyone presses "Next word" at once, W waves of one word each.

    python -m bench class [--browsers 30] [--words 12] [--prompt-tokens 250]
                                   [--sessions-mb MB] [--max-traces K] [--rss-budget-mb MB]

The server is the real app in hosted mode (ATTENTION_HOSTED=1), with the replica's derived budgets unless the
options make them tighter. Pages are opened one after another (a class arriving), then the waves are sent.
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
import json
import os
import statistics
import tempfile
import time

from harness.proc_stats import children_cpu_s, proc_cpu_s, proc_status_kib
from bench import press_stages
from bench.class_pages import REFUSED_KEYS, WAITING_KEYS, Pupil, open_pupil, phrases, press, settle
from bench.cli import bench_parser, write_json

TOLD_WITHIN_S = 2.0  # the bound: every press answered or told to wait within 2 s
def probe(memory: str | None, label: str, snaps: list, trim: bool = False) -> None:
    """The server's memory figures now (--memory), printed and kept."""
    if not memory:
        return
    from bench import class_memory
    from harness import memory_probe

    snaps.append((label, memory_probe.ask(memory, trim=trim)))
    print(class_memory.line(label, snaps[-1][1]), flush=True)


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


def summary(res: dict, words: int, peak_mib: float, budget_mib: int, prompts_tokens: list[int]) -> dict:
    from harness.greedy import greedy_ids

    presses = [pr for p in res["pupils"] for pr in p.presses]
    outcomes = {k: sum(pr.outcome == k for pr in presses) for k in ("answered", "waiting shown", "refused shown",
                                                                  "silent")}
    to_word = sorted(pr.word - pr.t0 for pr in presses if pr.word)
    told_first = sum(pr.wait is not None and (pr.word is None or pr.wait <= pr.word) for pr in presses)
    first = sorted(x for x in (pr.first_answer() for pr in presses) if x is not None)
    wrong = sum(bool(p.ids) and p.ids != greedy_ids(p.prompt, len(p.ids)) for p in res["pupils"])
    short = sum(len(p.ids) != len(res["waves"]) for p in res["pupils"])

    def q(xs: list[float], f: float) -> float | None:
        return round(xs[min(len(xs) - 1, int(f * len(xs)))], 2) if xs else None

    return {"browsers": len(res["pupils"]), "words": words, "waves_run": len(res["waves"]),
            "prompt_tokens": [min(prompts_tokens), max(prompts_tokens)], "opened_s": res["opened_s"],
            "presses": len(presses), **outcomes, "told_it_waits_before_its_word": told_first, "wrong": wrong, "fewer_words_than_presses": short,
            "press_to_word_median_s": round(statistics.median(to_word), 2) if to_word else None,
            "press_to_word_p95_s": q(to_word, 0.95),
            "press_to_first_answer_p95_s": q(first, 0.95),
            "answers_later_than_2s": sum(x > TOLD_WITHIN_S for x in first) + outcomes["silent"],
            "waves": res["waves"], "server_peak_rss_mib": round(peak_mib), "rss_budget_mib": budget_mib}


def page_presses(res: dict) -> list[dict]:
    """Every press as its page saw it (seconds, time.time()'s clock), in the order they were sent."""
    return [{"pupil": p.index, "wave": w + 1, "prompt": p.prompt, "t0": pr.t0, "wait": pr.wait, "word": pr.word,
             "msgs": pr.msgs, "late": pr.late_s}
            for w in range(max(len(p.presses) for p in res["pupils"])) for p in res["pupils"] if w < len(p.presses)
            for pr in (p.presses[w],)]


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--browsers", type=int, default=30, help="pupils: contexts of one Chromium")
    ap.add_argument("--words", type=int, default=12, help="waves: each pupil presses Next word once per wave")
    ap.add_argument("--prompt-tokens", type=int, default=250)
    ap.add_argument("--sessions-mb", type=int, help="ATTENTION_SESSIONS_MB (default: the hosted derived figure)")
    ap.add_argument("--max-traces", type=int, help="ATTENTION_MAX_TRACES (default: hosted, 2)")
    ap.add_argument("--rss-budget-mb", type=int, help="ATTENTION_RSS_BUDGET_MB (default: the hosted derived figure)")
    ap.add_argument("--wave-s", type=float, default=300.0, help="give up on a wave's words after this long")
    ap.add_argument("--log", help="write the server's output here")
    ap.add_argument("--stages-out", metavar="PREFIX", help="keep PREFIX.log.jsonl (the server's press log) and "
                    "PREFIX.presses.json (the page's): python -m bench press_stages reads them again")
    ap.add_argument("--memory", action="store_true", help="the server's memory, where it is, after each page "
                    "opened and each wave (bench/class_memory.py)")
    args = ap.parse_args(argv)
    from attention.ui.hosting import settings
    from harness.app_server import streamlit_process

    clock = os.path.abspath(f"{args.stages_out}.log.jsonl") if args.stages_out else tempfile.mkstemp(suffix=".jsonl")[1]
    open(clock, "w").close()
    env = {"ATTENTION_HOSTED": "1", "ATTENTION_PRESS_CLOCK": clock}
    for name, value in (("ATTENTION_SESSIONS_MB", args.sessions_mb), ("ATTENTION_MAX_TRACES", args.max_traces),
                        ("ATTENTION_RSS_BUDGET_MB", args.rss_budget_mb)):
        if value is not None:
            env[name] = str(value)
    budget = args.rss_budget_mb if args.rss_budget_mb is not None else settings.HOSTED_RSS_BUDGET_MB
    print(f"class in browsers: {args.browsers} contexts, {args.words} words, prompts ~{args.prompt_tokens} tokens, "
          f"env {env}", flush=True)
    memory = tempfile.mkstemp(suffix=".probe")[1] if args.memory else None
    if memory:
        env["ATTENTION_MEMORY_PROBE"] = memory
    with streamlit_process(extra_env=env, log_path=args.log, start_timeout=300,
                           preimport=("harness.press_clock", "harness.memory_probe")) as server:
        res = asyncio.run(run_class(server.url, server.pid, args.browsers, args.words, args.prompt_tokens,
                                    args.wave_s, memory))
        peak = proc_status_kib(server.pid, "VmHWM") / 1024
    from transformers import AutoTokenizer

    from attention.lm import smollm2

    tok = AutoTokenizer.from_pretrained(smollm2.folder_path())
    lengths = [min(len(tok(p.prompt)["input_ids"]), 256) for p in res["pupils"]]
    out = summary(res, args.words, peak, budget, lengths)
    for key, value in out.items():
        if key != "waves":
            print(f"{key:>30}: {value}")
    seen = page_presses(res)
    rows = press_stages.press_stages(press_stages.read_log(clock), seen)
    press_stages.print_stages(rows, TOLD_WITHIN_S)
    out["stages"] = press_stages.stage_summary(rows, TOLD_WITHIN_S)
    if memory:
        from bench import class_memory

        out["memory"] = {"per_session": class_memory.per_session(res["memory"]), "snapshots": res["memory"]}
        print(f"{'per opened session':>30}: {out['memory']['per_session']}")
    if args.stages_out:
        with open(f"{args.stages_out}.presses.json", "w") as f:
            json.dump(seen, f)
    else:
        os.unlink(clock)
    write_json(args.json, out)
    return 0 if out["silent"] == 0 and out["wrong"] == 0 else 1


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    raise SystemExit(main())
