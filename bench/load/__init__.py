"""Many people at once: N browser sessions on one server, each must get its own, correct result.

    python -m bench load [--sessions 20] [--minutes 10] [--json out.json]
    python -m bench load --through nginx --replicas 1 2 --sessions 30 --pages --kill-one
    python -m bench load --through nginx --replicas 1 --sessions 30 --write 3 --wave 6 --minutes 8
    python -m bench load --through nginx --replicas 1 --sessions 30 --write 12 --prompt-tokens 250 --minutes 30

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
(bench/load/write.py); the warm-up loads all three models, so "at start" is a replica with all loaded.
--prompt-tokens T: each session's Write prompt is its own sentence filled to about T tokens (the class:
30 sessions, 250 tokens, 12 words). With --write, every session's written ids are compared with
transformers' own greedy continuation of its prompt (wrong: any differs), and the app's CPU seconds per
written word are printed (all the app's CPU over the run, page opens included: an upper bound).

On one machine the N Chromium pages compete with the server for the same cores (and usually use
several times its CPU): the latencies are an upper bound for N real visitors on their own machines.

The parts: run.py drives the sessions and prints the table, visitor.py is one session, write.py what --write
adds, replicas.py what --through nginx adds (the servers, the page visits, the replica killed).
"""

from __future__ import annotations

from bench.cli import bench_parser, write_json
from harness.sentences import MARKERS


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
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
    args = ap.parse_args(argv)
    if not 1 <= args.sessions <= len(MARKERS) - 3 or not 0 < args.minutes <= 30:
        ap.error(f"--sessions must be 1..{len(MARKERS) - 3} (one marker word each) and --minutes 0..30")
    if args.through == "direct" and (args.replicas != [1] or args.kill_one):
        ap.error("--replicas and --kill-one need --through nginx")
    if not all(1 <= r <= 8 for r in args.replicas):
        ap.error("--replicas must be 1..8")
    from bench.load.run import print_table, run

    results = []
    for replicas in args.replicas:
        res = run(args.sessions, args.minutes, args.cold, tuple(args.preimport), args.through, replicas,
                  args.pages, args.kill_one, args.write, args.wave, args.prompt_tokens)
        print_table(res)
        results.append(res)
    write_json(args.json, results if len(results) > 1 else results[0])
    return 0 if all(r["succeeded"] == r["sessions"] for r in results) else 1
