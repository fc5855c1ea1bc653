"""What the class benches share (bench/class_browsers.py: pupils in Chromium; bench/class_protocol.py: pupils
speaking Streamlit's protocol, no browser): their options, the hosted replica they run against (the real app,
ATTENTION_HOSTED=1, its press log and memory probe), and the report they print from the pupils' presses (the
counts, the times, the server's memory, the words against transformers' greedy continuation, the stages)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass

from bench import press_stages
from bench.cli import write_json
from harness.proc_stats import proc_status_kib

TOLD_WITHIN_S = 2.0  # the bound: every press answered or told to wait within 2 s


def class_options(ap: argparse.ArgumentParser) -> None:
    """The options every class bench has beside its number of pupils."""
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


@dataclass
class Hosted:
    """The replica a class runs against: its server, the press log's path, the memory probe's (or None), and
    the RSS budget it was given (MiB)."""

    url: str
    pid: int
    clock: str
    memory: str | None
    budget_mib: int


@contextlib.contextmanager
def hosted_replica(args: argparse.Namespace, title: str) -> Iterator[Hosted]:
    """The real app in hosted mode with the replica's derived budgets unless the options make them tighter,
    logging each press's stages (harness/press_clock.py) and, with --memory, answering the memory probe."""
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
    print(f"{title}, {args.words} words, prompts ~{args.prompt_tokens} tokens, env {env}", flush=True)
    memory = tempfile.mkstemp(suffix=".probe")[1] if args.memory else None
    if memory:
        env["ATTENTION_MEMORY_PROBE"] = memory
    with streamlit_process(extra_env=env, log_path=args.log, start_timeout=300,
                           preimport=("harness.press_clock", "harness.memory_probe")) as server:
        yield Hosted(server.url, server.pid, clock, memory, budget)


def probe(memory: str | None, label: str, snaps: list, trim: bool = False) -> None:
    """The server's memory figures now (--memory), printed and kept."""
    if not memory:
        return
    from bench import class_memory
    from harness import memory_probe

    snaps.append((label, memory_probe.ask(memory, trim=trim)))
    print(class_memory.line(label, snaps[-1][1]), flush=True)


def summary(res: dict, words: int, peak_mib: float, budget_mib: int, prompts_tokens: list[int],
            who: str = "browsers") -> dict:
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

    return {who: len(res["pupils"]), "words": words, "waves_run": len(res["waves"]),
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


def report(res: dict, args: argparse.Namespace, hosted: Hosted, peak_mib: float, who: str = "browsers") -> dict:
    """Print the class's summary and where each press's time went; keep --stages-out and --json. Returns the
    results (the summary, the stages, the memory)."""
    from transformers import AutoTokenizer

    from attention.lm import smollm2

    tok = AutoTokenizer.from_pretrained(smollm2.folder_path())
    lengths = [min(len(tok(p.prompt)["input_ids"]), 256) for p in res["pupils"]]
    out = summary(res, args.words, peak_mib, hosted.budget_mib, lengths, who)
    for key, value in out.items():
        if key != "waves":
            print(f"{key:>30}: {value}")
    seen = page_presses(res)
    rows = press_stages.press_stages(press_stages.read_log(hosted.clock), seen)
    press_stages.print_stages(rows, TOLD_WITHIN_S)
    out["stages"] = press_stages.stage_summary(rows, TOLD_WITHIN_S)
    if hosted.memory:
        from bench import class_memory

        out["memory"] = {"per_session": class_memory.per_session(res["memory"]), "snapshots": res["memory"]}
        print(f"{'per opened session':>30}: {out['memory']['per_session']}")
    if args.stages_out:
        with open(f"{args.stages_out}.presses.json", "w") as f:
            json.dump(seen, f)
    else:
        os.unlink(hosted.clock)
    write_json(args.json, out)
    return out


def run_and_report(args: argparse.Namespace, title: str, run_class, pupils: int, who: str) -> tuple[dict, dict]:
    """The hosted replica started, `run_class(url, pid, pupils, words, prompt_tokens, wave_s, memory)` run against
    it, the replica's peak RSS read before it stops; the report printed and kept. Returns (the run, the report)."""
    with hosted_replica(args, title) as hosted:
        res = asyncio.run(run_class(hosted.url, hosted.pid, pupils, args.words, args.prompt_tokens, args.wave_s,
                                    hosted.memory))
        peak = proc_status_kib(hosted.pid, "VmHWM") / 1024
    return res, report(res, args, hosted, peak, who)


def passed(out: dict) -> bool:
    """The class's verdict: no press silent, no word wrong, no pupil with fewer words than presses."""
    return out["silent"] == 0 and out["wrong"] == 0 and out["fewer_words_than_presses"] == 0
