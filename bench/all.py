"""The app's headline figures in one run, one combined table and one JSON file.

    python -m bench all [--quick] [--sessions 20] [--skip NAME ...]

Which, and why these: the figures the README's claims about the app rest on, all of them on the default
model (all-MiniLM-L6-v2: nothing to expand, no SmolLM2), each a few minutes, and meant to be read together
in one table: what a trace costs beside the bare model, what the page sends beside bertviz's head view,
what a person waits beside the floor of any Streamlit app, what the server holds, and many people at once.
Run one after the other (never two at once, so they do not slow each other down):

  trace_speed      full trace time ÷ the model's bare forward pass, 32/128/512 tokens
  page_payload     bytes the Explore page sends to the browser, 32/128/512 tokens (real Chromium)
  browser_latency  submit and click latency in Chromium, against a trivial Streamlit app
  memory           server RSS: start, model loaded, after 200 sentences (stopping after 8 minutes;
                   40 with --quick), peak
  load             N concurrent browser sessions, each checking it got its own result
  bertviz_size     bertviz's head view of the same model, where bertviz is importable; otherwise the
                   figures from the design notes, labelled as such

Left out: the SmolLM2 benchmarks (long_context, lm_step, evict_speed, write_*, head_atlas, why_word, ...:
the expanded model and up to 1.6 GB each), held_out (about 15 minutes), the load through nginx (a
deployment), and those that measure one page's own feature; `python -m bench --list` names them all.
To add one here: a line in PLAN below (its name, its options, its time limit) and its rows in
print_combined.

Each writes its JSON into bench/results/; this then writes bench/results/all.json and prints the
combined table. Exits 1 if any step failed (load fails when a session got a wrong or mixed result).
About 12 minutes on 2 idle CPU cores, at most about 20 on busy ones (--quick: 9).
"""

from __future__ import annotations

import json
import os
import platform
import signal
import subprocess
import sys
import time

from bench.bertviz_size import DESIGN_NOTES
from bench.cli import bench_parser

BENCH = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(BENCH, "results")


def plan(quick: bool, sessions: int) -> dict[str, tuple[list[str], float]]:
    """What runs, in order: benchmark name -> (its options, seconds before it is interrupted)."""
    return {
        "trace_speed": ([], 600),
        "page_payload": ([], 600),
        "browser_latency": ([], 900),
        "memory": (["--quick"] if quick else ["--minutes", "8"], 720),
        "load": (["--sessions", str(sessions), "--minutes", "10"], 900),
        "bertviz_size": ([], 900),  # only where bertviz is importable (the design notes' figures otherwise)
    }


STEPS = tuple(plan(False, 20))


def run_step(name: str, options: list[str], timeout_s: float) -> dict:
    """Run one benchmark in its own process; on timeout interrupt it (so it stops the servers it started)."""
    out = os.path.join(RESULTS, f"{name}.json")
    if os.path.exists(out):
        os.remove(out)
    argv = ["-m", "bench", name, *options]
    print(f"\n=== {name}: python {' '.join(argv)}", flush=True)
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, *argv, "--json", out], cwd=os.path.dirname(BENCH),
                            start_new_session=True)
    try:
        rc = proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGINT)  # KeyboardInterrupt: its `finally` blocks stop its servers
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
        rc = f"timed out after {timeout_s:.0f} s"
    wall = round(time.monotonic() - t0, 1)
    result = None
    if os.path.exists(out):
        with open(out) as f:
            result = json.load(f)
    print(f"=== {name}: exit {rc}, {wall} s", flush=True)
    return {"exit": rc, "wall_s": wall, "result": result}


def bertviz_importable() -> bool:
    probe = [sys.executable, "-c", "import bertviz"]
    return subprocess.run(probe, check=False, capture_output=True, timeout=120).returncode == 0


def mb(n: float) -> str:
    return f"{n / 1e6:.2f} MB" if n < 1e8 else f"{n / 1e6:.0f} MB"


def print_combined(report: dict) -> None:
    steps = report["steps"]
    print("\n" + "=" * 100)
    print(f"ALL BENCHMARKS  ({report['machine']['cpus']} CPUs, load average {report['machine']['load_average_at_start']}"
          f" at start, {report['wall_s']:.0f} s in all)")

    def result(name):
        step = steps.get(name) or {}
        return step.get("result")

    def status(name):
        step = steps.get(name)
        if step is None:
            return "skipped"
        return "ok" if step["exit"] == 0 else f"FAILED (exit {step['exit']})"

    print(f"\n[trace_speed] {status('trace_speed')}")
    rows = result("trace_speed")
    if rows:
        print(f"  {'tokens':>6} {'eager ms':>9} {'sdpa ms':>8} {'trace ms':>9} {'+1 site':>8} {'full ms':>8} "
              f"{'trace/eager':>12} {'+1 site/eager':>14} {'full/eager':>11}")
        for r in rows:
            print(f"  {r['tokens']:>6} {r['eager_ms']:>9.1f} {r['sdpa_ms']:>8.1f} {r['trace_ms']:>9.1f} "
                  f"{r['one_ms']:>8.1f} {r['full_ms']:>8.1f} {r['trace_over_eager']:>12.2f} "
                  f"{r['one_over_eager']:>14.2f} {r['full_over_eager']:>11.2f}")

    print(f"\n[page_payload + bertviz] {status('page_payload')}; bertviz: {report['bertviz']['source']}")
    payload = {r["tokens"]: r for r in (result("page_payload") or [])}
    bv = {int(k): v for k, v in report["bertviz"]["figures"].items()}
    print(f"  {'tokens':>6} {'Explore page load':>18} {'one click':>10} {'bertviz head view':>18} {'build':>7} "
          f"{'bertviz/page':>13}")
    for n in sorted(set(payload) | set(bv)):
        p, b = payload.get(n, {}), bv.get(n, {})
        page = mb(p["page_bytes"]) if p else "-"
        click = mb(p["click_bytes"]) if p else "-"
        bert = mb(b["html_bytes"]) if b else "-"
        build = f"{b['build_s']:.1f} s" if b.get("build_s") is not None else "-"
        ratio = f"{b['html_bytes'] / p['page_bytes']:.0f}x" if p and b else "-"
        print(f"  {n:>6} {page:>18} {click:>10} {bert:>18} {build:>7} {ratio:>13}")
    if report["bertviz"]["source"] != "measured here":
        print("  (bertviz figures: from the design notes, not measured here)")

    print(f"\n[browser_latency] {status('browser_latency')}")
    lat = result("browser_latency")
    if lat:
        labels = {"floor": "(a) floor: trivial app, Enter -> text", "submit": "(b) Explore: submit -> S, A drawn",
                  "click": "(c) Explore: click row word -> detail"}
        print(f"  {'':40} {'median ms':>10} {'p90 ms':>8} {'median/(a)':>11} {'p90/(a)':>8}")
        for k, name in labels.items():
            r = lat[k]
            m_ratio = r.get("median_over_floor", 1.0)
            p_ratio = r.get("p90_over_floor", 1.0)
            print(f"  {name:40} {r['median_ms']:>10.1f} {r['p90_ms']:>8.1f} {m_ratio:>11.1f} {p_ratio:>8.1f}")
        print(f"  ({lat['repeats']} sentences; load average {lat['load_average_at_start']} at start)")

    print(f"\n[memory] {status('memory')}")
    mem = result("memory")
    if mem:
        print(f"  server RSS: start {mem['rss_start_mib']} MiB, after first page load (model) "
              f"{mem['rss_after_first_load_mib']} MiB, after {mem['sentences_done']} sentences "
              f"{mem['rss_after_sentences_mib']} MiB, peak {mem['rss_peak_sampled_mib']} MiB sampled / "
              f"{mem['rss_peak_kernel_vmhwm_mib']} MiB VmHWM")
        print("  RSS by sentences: " + ", ".join(f"{c['sentences']}: {c['rss_mib']}" for c in mem["checkpoints"]))

    print(f"\n[load] {status('load')}")
    load = result("load")
    if load:
        print(f"  {load['succeeded']}/{load['sessions']} sessions correct, {load['wrong_or_mixed']} wrong or mixed")
        for key, name in (("open_to_drawn", "open page -> charts"), ("submit_to_drawn", "submit -> S, A drawn"),
                          ("click_to_detail", "click row word -> detail")):
            r = load[key]
            if r["n"]:
                print(f"  {name:26} n={r['n']:>3}  p50 {r['p50_ms']:>8.0f} ms  p90 {r['p90_ms']:>8.0f} ms  "
                      f"max {r['max_ms']:>8.0f} ms")
        print(f"  server RSS peak {load['rss_peak_sampled_mib']} MiB (VmHWM {load['rss_peak_kernel_vmhwm_mib']} MiB); "
              f"CPU: server {load['server_cpu_s']} s, Chromium {load['browser_cpu_s']} s over {load['drive_s']} s")
        for who, errors in load["failures"].items():
            print(f"  FAILED {who}: {errors[0]}")
        if load["failures"]:
            print(f"  tracebacks: {load['run_dir']}/")
    print(f"\nwritten: {os.path.relpath(os.path.join(RESULTS, 'all.json'))}")


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)  # its JSON is always bench/results/all.json
    ap.add_argument("--quick", action="store_true", help="memory with 40 sentences instead of 200")
    ap.add_argument("--sessions", type=int, default=20, help="concurrent sessions for load")
    ap.add_argument("--skip", nargs="*", default=[], choices=STEPS, help="steps not to run")
    args = ap.parse_args(argv)
    os.makedirs(RESULTS, exist_ok=True)
    t0 = time.monotonic()
    report: dict = {
        "machine": {"cpus": os.cpu_count(), "load_average_at_start": round(os.getloadavg()[0], 2),
                    "python": platform.python_version()},
        "steps": {},
    }
    steps = plan(args.quick, args.sessions)
    bertviz = steps.pop("bertviz_size")
    for name, (options, timeout_s) in steps.items():
        if name not in args.skip:
            report["steps"][name] = run_step(name, options, timeout_s)

    report["bertviz"] = {"source": "from the design notes, not measured here", "figures": DESIGN_NOTES}
    if "bertviz_size" not in args.skip and bertviz_importable():
        step = run_step("bertviz_size", *bertviz)
        report["steps"]["bertviz_size"] = step
        if step["exit"] == 0 and step["result"]:
            report["bertviz"] = {"source": "measured here", "figures": {r["tokens"]: r for r in step["result"]}}
    elif "bertviz_size" not in args.skip:
        print("\n=== bertviz_size: bertviz is not importable here; using the design notes' figures (not measured here)")

    report["wall_s"] = round(time.monotonic() - t0, 1)
    with open(os.path.join(RESULTS, "all.json"), "w") as f:
        json.dump(report, f, indent=2)
    print_combined(report)
    return 0 if all(s["exit"] == 0 for s in report["steps"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
