"""Where a press's time goes, stage by stage (the class bench prints it; its --stages-out keeps the inputs):
the server's log of each press (harness/press_clock.py, in time.time()) joined with what the page saw
(Date.now(), the same clock here).

    python -m bench press_stages LOG.jsonl PRESSES.json   # read a run's log again (class --stages-out writes both)

Per press, seconds from the click as the page received it:
    recv     the server got the fragment's rerun request
    cb       the session's script thread ran the press's callback (its run started)
    frag     the fragment's body began
    notice   the notice that it waits (or is being written) was enqueued by the server
    sent     the first message to that browser after the notice was handed to the server's send loop
    arrived  the first message the page received after that (the notice's, or one after it)
    seen     the page showed that notice (or the word, whichever first)
    turn     the press's words got their turn (the model's work starts)
    step     its word was written in the server
    word     the page's link held the word (the fragment's run drew everything and told the link)
    late     not a stage: how late, at worst, the page's own 100 ms watch ran while it waited (its renderer busy)
Printed: each stage's median and p95, and how many presses were past 2 s at each stage.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict

from bench.cli import bench_parser, percentile

STAGES = ("recv", "cb", "frag", "notice", "sent", "arrived", "seen", "turn", "step", "word", "late")
SLACK_S = 0.05  # the page's clock and the server's are one clock; a click logged a hair late by the page


def read_log(path: str) -> list[dict]:
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def sessions_by_prompt(events: list[dict]) -> dict[str, str]:
    """Prompt head -> the session whose press callback carried it (a reconnected page: the newest)."""
    return {e["prompt"]: e["s"] for e in events if e["e"] == "cb" and e.get("prompt")}


def first_after(times: list[float], t: float, before: float | None = None) -> float | None:
    for x in times:
        if x >= t and (before is None or x < before):
            return x
    return None


def press_stages(events: list[dict], presses: list[dict]) -> list[dict]:
    """Each press ({prompt, t0, wait, word} from the page, in seconds) with its server stages, in seconds after
    t0 (None: the stage was not reached before the session's next press)."""
    by = defaultdict(lambda: defaultdict(list))
    for e in events:
        by[e["s"]][e["e"]].append(e["t"])
    for sess in by.values():
        for times in sess.values():
            times.sort()
    who = sessions_by_prompt(events)
    out = []
    for i, pr in enumerate(presses):
        nxt = next((q["t0"] for q in presses[i + 1:] if q["prompt"] == pr["prompt"]), None)
        sess = by.get(next((s for head, s in who.items() if pr["prompt"].startswith(head)), ""), {})
        row = {"pupil": pr["pupil"], "wave": pr["wave"]}
        t = pr["t0"] - SLACK_S
        for stage in ("recv", "cb", "frag", "notice", "turn", "step"):
            x = first_after(sess.get(stage, []), t, nxt)
            row[stage] = None if x is None else round(x - pr["t0"], 3)
            if x is not None and stage in ("recv", "cb", "frag"):
                t = x  # the next stage follows this one
        sent = first_after(sess.get("sent", []), pr["t0"] + row["notice"], nxt) if row["notice"] is not None else None
        row["sent"] = None if sent is None else round(sent - pr["t0"], 3)
        arrived = first_after(pr.get("msgs") or [], sent - SLACK_S) if sent is not None else None
        row["arrived"] = None if arrived is None else round(arrived - pr["t0"], 3)
        row["late"] = pr.get("late")
        seen = [x for x in (pr.get("wait"), pr.get("word")) if x]
        row["seen"] = round(min(seen) - pr["t0"], 3) if seen else None
        row["word"] = round(pr["word"] - pr["t0"], 3) if pr.get("word") else None
        out.append(row)
    return out


def stage_summary(rows: list[dict], bound_s: float = 2.0) -> dict[str, dict]:
    """Each stage's median, p95 and how many presses reached it after `bound_s` (or never)."""
    out = {}
    for stage in STAGES:
        xs = [r[stage] for r in rows if r.get(stage) is not None]
        out[stage] = {"n": len(xs), "median_s": round(statistics.median(xs), 2) if xs else None,
                      "p95_s": round(percentile(xs, 95), 2) if xs else None,
                      "over_bound": sum(x > bound_s for x in xs)}
    return out


def told_in_time(rows: list[dict], bound_s: float = 2.0) -> int:
    """Presses whose notice (or word) reached their page within the bound: what the server owes them. The page
    drawing it later is the page's own renderer (on a shared 2-core box, 30 of them beside the server)."""
    return sum(min((x for x in (r.get("arrived"), r.get("word")) if x is not None), default=bound_s + 1) <= bound_s
               for r in rows)


def print_stages(rows: list[dict], bound_s: float = 2.0) -> None:
    print(f"  stage      n  median   p95   > {bound_s:.0f} s   (seconds after the click the page received)")
    for stage, s in stage_summary(rows, bound_s).items():
        print(f"  {stage:<8}{s['n']:>4}  {s['median_s']!s:>6}  {s['p95_s']!s:>5}  {s['over_bound']:>5}")
    print(f"  told in time: {told_in_time(rows, bound_s)} of {len(rows)} presses had their notice (or word) at "
          f"the page within {bound_s:.0f} s")


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("log", help="the server's press log (harness/press_clock.py)")
    ap.add_argument("presses", help="the presses as the page saw them (class --stages-out PRESSES.json)")
    ap.add_argument("--rows", action="store_true", help="print every press's row")
    args = ap.parse_args(argv)
    with open(args.presses) as f:
        rows = press_stages(read_log(args.log), json.load(f))
    if args.rows:
        for r in rows:
            print(r)
    print_stages(rows)
    return 0
