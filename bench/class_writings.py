"""A class (30 hosted Writings) in one replica's process, no browsers: peak RSS, CPU a word, correctness.

A class's Writings in one hosted replica's process, without browsers: what the memory and CPU budgets of a
class are made of, measurable on a machine where 30 Chromium pages cannot run beside the app.

    python -m bench class_writings [--sessions 30] [--words 12] [--prompt-tokens 250]

A fresh process in hosted mode warms as a replica does before it is ready (attention/ui/serve.warm: MiniLM,
the translator and SmolLM2 loaded, the pages' modules imported), then every session reads its own prompt (its
own sentence filled to about T tokens, as `python -m bench load --prompt-tokens`) into a hosted Writing
(lm/written.HOSTED), and the class writes together: word 1 for everyone, then word 2, ...; after each word the
page's view of it is made (the newest layer's site and the shown head's rows). Printed: the process's peak RSS
(VmHWM) beside the replica's derived RSS budget (attention/ui/hosting/settings.py), the Writings' bytes, the CPU per
prompt read and per written word. Then, in this (parent) process, every session's words are compared with
transformers' own greedy continuation of its prompt: wrong = any differs.
"""

from __future__ import annotations

import os
import sys
import time

from bench.cli import bench_parser, write_json
from harness.peak import in_fresh_process, is_child, peak_mib, report

LAYER, HEAD = 18, 6  # what the page shows by default is not important: one layer's site, one head's rows


def child(sessions: int, words: int, prompt_tokens: int) -> dict:
    os.environ["ATTENTION_HOSTED"] = "1"
    from attention.ui.hosting import cache, serve, settings

    t0 = time.process_time()
    serve.warm()
    warm_cpu, base = time.process_time() - t0, peak_mib()
    from attention.lm import writer
    from bench.load.write import long_prompt
    from harness.sentences import unique_sentences

    lm = cache.language_model()
    prompts = [long_prompt(text, prompt_tokens) for text, _ in unique_sentences(sessions, seed=3)]
    t0 = time.process_time()
    class_ = [writer.Writing(lm, p, writer.HOSTED) for p in prompts]
    read_cpu = (time.process_time() - t0) / sessions
    t0 = time.process_time()
    for _ in range(words):
        for w in class_:
            w.step()
            w.site(LAYER).pattern(HEAD, slice(None))  # the head view of the newest text
    word_cpu = (time.process_time() - t0) / (sessions * words)
    return {"sessions": sessions, "words": words, "prompt_tokens": [w.prompt_len for w in class_],
            "ids": [[s.token_id for s in w.steps] for w in class_], "prompts": prompts,
            "warm_cpu_s": round(warm_cpu, 1), "after_warm_mib": round(base, 1), "peak_mib": round(peak_mib(), 1),
            "writings_mib": round(sum(w.nbytes() for w in class_) / 2**20, 1),
            "writing_mib": round(max(w.nbytes() for w in class_) / 2**20, 1),
            "rss_budget_mib": settings.HOSTED_RSS_BUDGET_MB, "sessions_budget_mib": settings.HOSTED_SESSIONS_MB,
            "prompt_read_cpu_s": round(read_cpu, 3), "word_cpu_s": round(word_cpu, 3),
            "load_average": round(os.getloadavg()[0], 2)}


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--words", type=int, default=12)
    ap.add_argument("--prompt-tokens", type=int, default=250)
    child_run, argv = is_child(argv)
    args = ap.parse_args(argv)
    if child_run:
        report(child(args.sessions, args.words, args.prompt_tokens))
        return 0
    res = in_fresh_process("bench.class_writings", ["--sessions", str(args.sessions), "--words", str(args.words),
                                                   "--prompt-tokens", str(args.prompt_tokens)])
    if "error" in res:
        print(f"the class's process failed: {res['error']}")
        return 1
    from harness.greedy import greedy_ids

    wrong = sum(ids != greedy_ids(p, args.words) for p, ids in zip(res["prompts"], res["ids"], strict=True))
    n = res["prompt_tokens"]
    print(f"class: {res['sessions']} hosted Writings, prompts of {min(n)}-{max(n)} tokens, {res['words']} words each "
          f"(load average {res['load_average']})")
    print(f"  peak RSS (VmHWM) {res['peak_mib']:,} MiB; after warming {res['after_warm_mib']:,} MiB; "
          f"the replica's RSS budget {res['rss_budget_mib']:,} MiB")
    print(f"  Writings {res['writings_mib']:,} MiB in all, the largest {res['writing_mib']} MiB "
          f"(sessions' budget {res['sessions_budget_mib']:,} MiB)")
    print(f"  CPU: a prompt read {res['prompt_read_cpu_s']} s, a written word with its view {res['word_cpu_s']} s "
          f"(warming {res['warm_cpu_s']} s)")
    print(f"  wrong (a word not transformers' greedy continuation): {wrong} of {res['sessions']}")
    write_json(args.json, {**res, "wrong": wrong})
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
