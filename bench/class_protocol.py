"""A class on one hosted replica with no browser: N sessions speaking Streamlit's own protocol (harness/
st_protocol.py), each with its own ~T-token prompt on the Write page, all pressing "Next word" at once, W waves.

    python -m bench class_protocol [--sessions 30] [--words 12] [--prompt-tokens 250]
                                   [--sessions-mb MB] [--max-traces K] [--rss-budget-mb MB] [--memory]

`python -m bench class` does the same in one Chromium with a context per pupil; there the 30 renderers used
several times the server's CPU on the same cores, so its times measured them. Here each pupil is a WebSocket
in this one process (its CPU per wave is printed beside the server's), so the times are the server's.

The server is the real app in hosted mode (bench/class_hosted.py). Sessions are opened one after another (a
class arriving: each first run finished before the next connects), then the waves are sent. Per press, in
time.time() on this side: when the click left (its BackMsg: the button's trigger in the fragment it is drawn
in, as the browser sends it), when the first message with a notice that it waits or was refused arrived (the
texts of attention/i18n, bench/class_pages.py), and when the word arrived (the link the server sets gains an
id in `ids=`). A press is answered, waiting shown, refused shown or silent as in `class`.
Printed: those counts; press -> word median and p95; press -> first answer p95 and how many took over 2 s;
per wave, the time from the wave to its last word beside the bound 2 x (the server's CPU for the wave / the
cores); the server's peak RSS beside the budget; every session's words against transformers' own greedy
continuation (wrong); then where each press's time went, stage by stage (bench/press_stages.py).
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from urllib.parse import urlencode

from bench.class_hosted import class_options, passed, probe, run_and_report
from bench.class_pages import REFUSED_KEYS, WAITING_KEYS, Press, Pupil, phrases
from bench.cli import bench_parser
from harness.proc_stats import proc_cpu_s, proc_status_kib
from harness.st_protocol import Session, alert_text

OPEN_S = 600.0
MSGS_KEPT = 2000  # arrival times kept per press (the stages need the first after the notice)


class Caller:
    """One pupil on the protocol: its session, and what each of its presses got back, as the messages arrive."""

    def __init__(self, pupil: Pupil, url: str, wait_re: str, refused_re: str, trigger: bool = True) -> None:
        self.pupil, self.trigger = pupil, trigger
        self.wait_re, self.refused_re = re.compile(wait_re), re.compile(refused_re)
        self.session = Session(url, "write", urlencode({"prompt": pupil.prompt}), on_message=self.on_message)
        pupil.page = self.session  # Pupil.link_ids reads its .url: the address the server last set
        self.want = 0  # ids the link must hold once the current press is answered
        self.done = asyncio.Event()  # the current press's run ended with its word (or its refusal) drawn

    async def open(self, label: str, prompt_label: str) -> None:
        await self.session.open(OPEN_S)
        if label not in self.session.widgets:
            raise RuntimeError(f"pupil {self.pupil.index}: no {label!r} button; the page has {sorted(self.session.widgets)}")
        box = self.session.widgets.get(prompt_label)
        if box is None or self.pupil.marker not in (box.value or ""):
            raise RuntimeError(f"pupil {self.pupil.index}: the prompt is not its own")

    async def press(self, label: str, want: int) -> None:
        self.want = want
        self.done.clear()
        pr = Press(time.time())
        self.pupil.presses.append(pr)
        pr.t0 = await self.session.press(label, trigger=self.trigger)

    def on_message(self, now: float, msg) -> None:
        if not self.want or not self.pupil.presses:
            return
        pr = self.pupil.presses[-1]
        if self.done.is_set():
            return
        if len(pr.msgs) < MSGS_KEPT:
            pr.msgs.append(now)
        kind = msg.WhichOneof("type")
        text = alert_text(msg)
        if text is not None:
            if pr.wait is None and self.wait_re.search(text):
                pr.wait = now
            if pr.refused is None and self.refused_re.search(text):
                pr.refused = now
        elif kind == "page_info_changed" and pr.word is None and len(self.session.query_ids()) >= self.want:
            pr.word = now
        elif kind == "script_finished" and (pr.word is not None or pr.refused is not None):
            self.done.set()  # the run that drew the word (or said why not) has finished

    async def settle(self, deadline: float) -> None:
        """Wait for the press's word (its run finished) until the deadline; then read the ids the link holds."""
        try:
            await asyncio.wait_for(self.done.wait(), max(0.0, deadline - time.monotonic()))
            await self.session.idle(max(1.0, deadline - time.monotonic()))
        except (TimeoutError, ConnectionError):  # no word by the deadline, or the socket ended: counted as such
            pass
        self.pupil.ids = self.pupil.link_ids()


async def run_class(url: str, pid: int | None, n: int, words: int, prompt_tokens: int, wave_s: float,
                    memory: str | None = None, trigger: bool = True) -> dict:
    from attention.i18n import STRINGS
    from bench.load.write import long_prompt
    from harness.sentences import unique_sentences

    label, prompt_label = STRINGS["write.next"]["en"], STRINGS["write.prompt"]["en"]
    pupils = [Pupil(i, long_prompt(text, prompt_tokens), marker)
              for i, (text, marker) in enumerate(unique_sentences(n, seed=55))]
    callers = [Caller(p, url, phrases(WAITING_KEYS), phrases(REFUSED_KEYS), trigger) for p in pupils]
    cores = len(os.sched_getaffinity(0))
    waves, snaps = [], []
    try:
        t0 = time.monotonic()
        for c in callers:  # a class arriving: one after another
            await c.open(label, prompt_label)
            probe(memory, f"opened {c.pupil.index + 1}", snaps)
        opened_s = time.monotonic() - t0
        for w in range(words):
            start, server_cpu, own_cpu = time.time(), proc_cpu_s(pid) if pid else 0.0, time.process_time()
            await asyncio.gather(*(c.press(label, w + 1) for c in callers))
            deadline = time.monotonic() + wave_s
            await asyncio.gather(*(c.settle(deadline) for c in callers))
            got = [p.presses[-1].word for p in pupils if p.presses[-1].word]
            cpu = proc_cpu_s(pid) - server_cpu if pid else float("nan")  # pid None: a server not ours to measure
            waves.append({"wave": w + 1, "answered": len(got),
                          "last_word_s": round(max(got) - start, 1) if got else None,
                          "bound_s": round(2 * cpu / cores, 1),
                          "rss_after_mib": round(proc_status_kib(pid) / 1024) if pid else None,
                          "server_cpu_s": round(cpu, 1), "client_cpu_s": round(time.process_time() - own_cpu, 1)})
            print(f"  wave {w + 1}: {len(got)}/{n} words, last after {waves[-1]['last_word_s']} s (bound 2 x CPU / "
                  f"{cores} cores: {waves[-1]['bound_s']} s), RSS {waves[-1]['rss_after_mib']} MiB; CPU: server "
                  f"{waves[-1]['server_cpu_s']} s, this client {waves[-1]['client_cpu_s']} s", flush=True)
            probe(memory, f"wave {w + 1}", snaps)
            if len(got) < n:
                break  # a lost press: later waves would count it again
        probe(memory, "trimmed", snaps, trim=True)
    finally:
        await asyncio.gather(*(c.session.close() for c in callers), return_exceptions=True)
    misses = sum(c.session.cache.misses for c in callers)
    closed = [c.session.closed for c in callers if c.session.closed and "closed by the server" not in c.session.closed]
    return {"pupils": pupils, "opened_s": round(opened_s, 1), "waves": waves, "memory": snaps,
            "cache_misses": misses, "sockets_failed": closed}


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--sessions", type=int, default=30, help="pupils: protocol sessions of this one process")
    class_options(ap)
    args = ap.parse_args(argv)
    res, out = run_and_report(args, f"class on the protocol: {args.sessions} sessions", run_class, args.sessions,
                              "sessions")
    over = [w["wave"] for w in res["waves"] if w["last_word_s"] is not None and w["last_word_s"] > w["bound_s"]]
    print(f"{'waves past their bound':>30}: {over or 'none'} (2 x the server's CPU for the wave / the cores)")
    print(f"{'cache misses, sockets failed':>30}: {res['cache_misses']}, {res['sockets_failed'] or 'none'}")
    return 0 if passed(out) else 1


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    raise SystemExit(main())
