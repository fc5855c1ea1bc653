"""The load benchmark's run (bench/load/__init__.py says what it measures): the sessions driven together with
asyncio, the servers' memory and CPU read around them, the table printed."""

from __future__ import annotations

import asyncio
import contextlib
import os
import statistics
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from playwright.async_api import async_playwright

from bench.cli import percentile
from bench.load.replicas import PAGE_VISITS, kill_and_time, rss_mib, servers
from bench.load.visitor import HEAD_VIEW_READY, STEP_TIMEOUT_MS, Session, wait_idle
from bench.load.write import long_prompt, warm_models
from harness.app_server import CHROMIUM, CHROMIUM_ARGS
from harness.greedy import greedy_ids
from harness.proc_stats import BrowserCpuSampler, RssSampler, mib, proc_cpu_s, proc_status_kib
from harness.sentences import check_markers, unique_sentences

# This run's evidence (server output, screenshots of failed sessions), apart from other runs'.
RUN_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "results",
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
