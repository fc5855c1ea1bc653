"""Many people at once: N browser sessions on one server, each must get its own, correct result.

    python bench/load_sessions.py [--sessions 20] [--minutes 10] [--json out.json]
    python -m bench.load_sessions --through nginx --replicas 1 2 --sessions 30 --pages --kill-one
    python -m bench.load_sessions --through nginx --replicas 1 --sessions 30 --write 3 --wave 6 --minutes 8
    python -m bench.load_sessions --through nginx --replicas 1 --sessions 30 --write 12 --prompt-tokens 250 --minutes 30

Loopback only. Starts the real app and one headless Chromium with N separate contexts (separate
cookies, separate Streamlit sessions) driven together with asyncio. Every session opens the app,
then, all at the same moment, submits ITS OWN sentence (8–20 words holding a marker noun no other
session has) and, all at the same moment again, clicks the word beside one row of A. Each checks:

  - the head view's key words are exactly the tokens of its own sentence (its marker is there and
    no other session's marker is);
  - the detail panel names the word of the row it clicked ("Query word: … (position N)").

Reports how many sessions succeeded, percentiles of submit → drawn and click → detail (in each
page's own clock, from keydown / mousedown), and the server's peak memory (VmRSS sampled every
0.5 s), and the CPU seconds used by the server and by the browsers driving it. Exits 1 if any
session got a wrong or mixed result or failed; bounded by --minutes. By default one visit loads the
model first (--cold: the sessions' own first visits load it). --preimport MODULE...: the server
imports those modules before it starts, to try out a fix. Each run keeps the server's output and a
screenshot of every failed session in its own folder under bench/results/.

--through nginx --replicas N [N ...]: the app in hosted mode on N replicas behind nginx
(deploy/local.sh), one run per N; memory is reported per replica. --pages: after Explore, every
session opens every other page from a link with its own sentence, all together, and each replica's
RSS is read after each round. --kill-one (2 replicas or more): at the end one replica is killed and
new visitors come one after another; the seconds from the kill to each served are reported.
--write N [--wave W]: then every session writes N words on the Write page, W at a time
(bench/load_write.py); the warm-up loads all three models, so "at start" is a replica with all loaded.
--prompt-tokens T: each session's Write prompt is its own sentence filled to about T tokens (the class:
30 sessions, 250 tokens, 12 words). With --write, every session's written ids are compared with
transformers' own greedy continuation of its prompt (wrong: any differs), and the app's CPU seconds per
written word are printed (all the app's CPU over the run, page opens included: an upper bound).

On one machine the N Chromium pages compete with the server for the same cores (and usually use
several times its CPU): the latencies are an upper bound for N real visitors on their own machines.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.async_api import async_playwright

from bench.app_process import (
    BrowserCpuSampler,
    RssSampler,
    mib,
    percentile,
    proc_cpu_s,
    proc_status_kib,
)
from bench.load_session import HEAD_VIEW_READY, STEP_TIMEOUT_MS, Session, wait_idle
from bench.load_write import greedy_ids, long_prompt, warm_models
from bench.replica_load import PAGE_VISITS, kill_and_time, rss_mib, servers
from bench.sentences import MARKERS, check_markers, unique_sentences
from harness.app_server import CHROMIUM, CHROMIUM_ARGS

# This run's evidence (server output, screenshots of failed sessions), apart from other runs'.
RUN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results",
                       f"load_sessions_{time.strftime('%Y%m%d-%H%M%S')}_{os.getpid()}")
async def warm_up(browser, url: str, dep, models: bool = False) -> None:
    """Page loads before the sessions, so the model is loaded (servers that have had a visitor):
    through nginx, until every replica has served one (routes are random: a few visits)."""
    for _ in range(4 * (len(dep.replicas) if dep else 1)):
        context = await browser.new_context(viewport={"width": 1400, "height": 1400})
        try:
            page = await context.new_page()
            await page.goto(url, timeout=STEP_TIMEOUT_MS)
            await page.wait_for_selector(HEAD_VIEW_READY, timeout=STEP_TIMEOUT_MS)
            await wait_idle(page)
            if models:
                await warm_models(page, url, wait_idle, STEP_TIMEOUT_MS)
        finally:
            await context.close()
        if dep is None or {r.addr for r in dep.replicas} <= set(dep.routes().values()):
            return


async def drive(url: str, sessions: list[Session], minutes: float, cold: bool, dep, pages: bool,
                on_meet, kill: int | None, kill_pairs: list, words: int = 0, wave: int = 0) -> dict | None:
    names = ["opened", "submitted"] + (["explore"] + [name for name, _ in PAGE_VISITS] if pages else [])
    names += ["written"] if words else []
    turns = asyncio.Semaphore(wave) if wave else None
    barriers = {name: asyncio.Barrier(len(sessions)) for name in names}
    killed = None
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            if not cold:
                await warm_up(browser, url, dep, models=bool(words))
            await asyncio.wait_for(asyncio.gather(*(s.run(browser, url, barriers, on_meet, pages, words, turns)
                                                    for s in sessions)),
                                   timeout=minutes * 60)
            if kill is not None:
                killed = await kill_and_time(browser, url, kill, kill_pairs, wait_idle, STEP_TIMEOUT_MS)
        except TimeoutError:
            for s in sessions:
                if not s.ok and not s.errors:
                    s.errors.append(f"did not finish within {minutes} min")
        finally:
            await browser.close()
    return killed


def stats(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50_ms": round(statistics.median(values), 1),
            "p90_ms": round(percentile(values, 90), 1), "p95_ms": round(percentile(values, 95), 1), "max_ms": round(max(values), 1)}


def run(n: int, minutes: float, cold: bool = False, preimport: tuple[str, ...] = (), through: str = "direct",
        replicas: int = 1, pages: bool = False, kill_one: bool = False, words: int = 0, wave: int = 0,
        prompt_tokens: int = 0) -> dict:
    check_markers()
    pairs = unique_sentences(n + 3, seed=3)
    markers = {m for _, m in pairs}
    sessions = [Session(i, text, marker, markers, RUN_DIR) for i, (text, marker) in enumerate(pairs[:n])]
    for s in sessions:
        s.prompt = long_prompt(s.text, prompt_tokens) if words else s.text
    t_start, load_start = time.monotonic(), round(os.getloadavg()[0], 2)
    os.makedirs(RUN_DIR, exist_ok=True)
    with servers(through, replicas, RUN_DIR, preimport) as (url, pids, dep), contextlib.ExitStack() as stack:
        samplers = {name: stack.enter_context(RssSampler(pid)) for name, pid in pids.items()}
        rss_start = rss_mib(pids)
        after: dict[str, dict] = {}  # memory of each replica once every session has done a step
        cpu_start, t_drive = sum(proc_cpu_s(pid) for pid in pids.values()), time.monotonic()
        with BrowserCpuSampler(exclude_pid=dep.script_pid if dep else next(iter(pids.values()))) as browser_cpu:
            victim = dep.replicas[0].pid if kill_one and dep and len(dep.replicas) > 1 else None
            killed = asyncio.run(drive(url, sessions, minutes, cold, dep, pages,
                                       lambda step: after.__setitem__(step, rss_mib(pids)), victim, pairs[n:],
                                       words, wave))
        rss_end = rss_mib(pids)
        live = {name: pid for name, pid in pids.items() if rss_end[name] is not None}
        server_cpu, drive_s = sum(proc_cpu_s(pid) for pid in live.values()) - cpu_start, time.monotonic() - t_drive
        hwm = {name: round(mib(proc_status_kib(pid, "VmHWM")), 1) for name, pid in live.items()}
        nginx_errors = len(dep.error_statuses()) if dep else None
        served = dep.routes() if dep else {}
    for s in sessions:  # each written word must be transformers' own greedy choice (greedy is the page's default)
        if words and len(s.written) == words and s.written != greedy_ids(s.prompt, words):
            s.errors.append(f"WRONG: wrote {s.written}, transformers' greedy continuation is "
                            f"{greedy_ids(s.prompt, words)}")
    failed = [s for s in sessions if not s.ok]
    written = sum(len(s.written) for s in sessions)
    return {
        "prompt_tokens": prompt_tokens, "words_written": written,
        "server_cpu_s_per_word": round(server_cpu / written, 3) if written else None,
        "failed": sum(not s.ok and not any(e.startswith(("WRONG", "MIXED")) for e in s.errors) for s in sessions),
        "wrong": sum(any(e.startswith("WRONG") for e in s.errors) for s in sessions),
        "mixed": sum(any(e.startswith("MIXED") for e in s.errors) for s in sessions),
        "sessions": n, "through": through, "replicas": len(pids), "cold_server": cold, "preimport": list(preimport),
        "succeeded": n - len(failed),
        "wrong_or_mixed": sum(any(e.startswith(("WRONG", "MIXED")) for e in s.errors) for s in sessions),
        "open_to_drawn": stats([s.open_s * 1000 for s in sessions if s.open_s is not None]),
        "submit_to_drawn": stats([s.submit_ms for s in sessions if s.submit_ms is not None]),
        "click_to_detail": stats([s.click_ms for s in sessions if s.click_ms is not None]),
        "next_word": stats([ms for s in sessions for ms in s.write_ms]), "words": words, "wave": wave,
        "sessions_per_replica": {a: sum(served.get(s.route) == a for s in sessions) for a in pids} if dep else None,
        "rss_start_mib": rss_start, "rss_after_step_mib": after, "rss_end_mib": rss_end,
        "rss_peak_sampled_mib": {k: round(mib(max(v.peak_kib, 0)), 1) for k, v in samplers.items()},
        "rss_peak_kernel_vmhwm_mib": hwm, "killed": killed, "nginx_error_pages": nginx_errors,
        "failures": {f"session {s.index} ({s.marker})": s.errors or ["unfinished"] for s in failed},
        "run_dir": os.path.relpath(RUN_DIR), "server_cpu_s": round(server_cpu, 1),
        "browser_cpu_s": round(browser_cpu.cpu_s, 1), "drive_s": round(drive_s, 1),
        "load_average_at_start": load_start, "load_average_at_end": round(os.getloadavg()[0], 2),
        "wall_s": round(time.monotonic() - t_start, 1),
    }


def print_table(res: dict) -> None:
    where = f"through nginx, {res['replicas']} replica(s)" if res["through"] == "nginx" else "one server"
    print(f"\n[{where}] {res['succeeded']}/{res['sessions']} sessions got their own correct result "
          f"({res['wrong_or_mixed']} wrong or mixed; {'cold' if res['cold_server'] else 'warm'} server"
          f"{'s' if res['replicas'] > 1 else ''})")
    print(f"{'':32} {'n':>3} {'p50 ms':>9} {'p90 ms':>9} {'p95 ms':>9} {'max ms':>9}")
    for key, name in (("open_to_drawn", "open page -> charts drawn"), ("submit_to_drawn", "submit -> S, A drawn"),
                      ("click_to_detail", "click row word -> detail"), ("next_word", "Next word -> page idle")):
        r = res[key]
        if r["n"]:
            print(f"{name:32} {r['n']:>3} {r['p50_ms']:>9.0f} {r['p90_ms']:>9.0f} {r['p95_ms']:>9.0f} {r['max_ms']:>9.0f}")
    if res["sessions_per_replica"]:
        print(f"sessions per replica: {res['sessions_per_replica']}")
    print(f"{'RSS MiB per process':24} " + " ".join(f"{k:>16}" for k in res["rss_start_mib"]))
    rows = {"at start": res["rss_start_mib"], **{f"after {k}": v for k, v in res["rss_after_step_mib"].items()},
            "at the end": res["rss_end_mib"], "peak (sampled)": res["rss_peak_sampled_mib"],
            "peak (VmHWM)": res["rss_peak_kernel_vmhwm_mib"]}
    for label, values in rows.items():
        print(f"{label:24} " + " ".join(f"{'-' if values.get(k) is None else values[k]:>16}" for k in res["rss_start_mib"]))
    if res["killed"]:
        print(f"killed replica pid {res['killed']['killed_pid']}: new visitors served "
              f"{res['killed']['kill_to_new_sessions_s']} s after the kill")
    if res["words_written"]:
        r = res["next_word"]
        peak = max(v for v in res["rss_peak_kernel_vmhwm_mib"].values())
        print(f"class: {res['sessions']} sessions, ~{res['prompt_tokens']}-token prompts, {res['words']} words each: "
              f"peak RSS {peak} MiB; press -> word drawn median {r.get('p50_ms')} ms, p95 {r.get('p95_ms')} ms; "
              f"server CPU {res['server_cpu_s_per_word']} s per word; failed {res['failed']}, wrong {res['wrong']}, "
              f"mixed {res['mixed']}")
    if res["nginx_error_pages"] is not None:
        print(f"requests answered with nginx's error page: {res['nginx_error_pages']}")
    print(f"{res['wall_s']} s in all; CPU over {res['drive_s']} s on {os.cpu_count()} cores: app {res['server_cpu_s']} s, "
          f"Chromium and Playwright {res['browser_cpu_s']} s; load average {res['load_average_at_start']} at start, "
          f"{res['load_average_at_end']} at the end")
    for who, errors in res["failures"].items():
        print(f"  FAILED {who}: {'; '.join(errors)}")
    if res["failures"]:
        print(f"  the servers' output (tracebacks) and screenshots are in {res['run_dir']}/")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--minutes", type=float, default=10.0, help="give up on unfinished sessions after this long")
    ap.add_argument("--cold", action="store_true", help="no warm-up visit: the sessions' first visit loads the model")
    ap.add_argument("--preimport", nargs="*", default=[], metavar="MODULE",
                    help="modules the server imports before it starts (to try a fix, e.g. pandas)")
    ap.add_argument("--through", choices=("direct", "nginx"), default="direct",
                    help="nginx: hosted replicas behind nginx (deploy/local.sh)")
    ap.add_argument("--replicas", type=int, nargs="+", default=[1], help="with --through nginx: one run per count")
    ap.add_argument("--pages", action="store_true", help="then every session opens every other page")
    ap.add_argument("--kill-one", action="store_true", help="then kill a replica and time the next new visitors")
    ap.add_argument("--write", type=int, default=0, metavar="N",
                    help="then every session writes N words on the Write page (all three models loaded first)")
    ap.add_argument("--wave", type=int, default=0, metavar="W", help="with --write: at most W sessions write at once")
    ap.add_argument("--prompt-tokens", type=int, default=0, metavar="T",
                    help="with --write: each prompt its own sentence filled to about T tokens (the class: 250)")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()
    if not 1 <= args.sessions <= len(MARKERS) - 3 or not 0 < args.minutes <= 30:
        ap.error(f"--sessions must be 1..{len(MARKERS) - 3} (one marker word each) and --minutes 0..30")
    if args.through == "direct" and (args.replicas != [1] or args.kill_one):
        ap.error("--replicas and --kill-one need --through nginx")
    if not all(1 <= r <= 8 for r in args.replicas):
        ap.error("--replicas must be 1..8")
    results = []
    for replicas in args.replicas:
        res = run(args.sessions, args.minutes, args.cold, tuple(args.preimport), args.through, replicas,
                  args.pages, args.kill_one, args.write, args.wave, args.prompt_tokens)
        print_table(res)
        results.append(res)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results if len(results) > 1 else results[0], f, indent=2)
    sys.exit(0 if all(r["succeeded"] == r["sessions"] for r in results) else 1)


if __name__ == "__main__":
    main()
