"""What each Lesson step costs to build once the traces are made, and the size of the printable page.

    python -m bench lesson_steps [--repeats 3]

Builds every step the way the page does (text, figure, prediction) on the article's sentences, with
the model, translator and snapshot traces made once beforehand (the page keeps them in its cache).
Prints per step the median build time, its share of the whole, and the summary page's bytes beside
plotly.js's own (inlined once, it is most of the file). The last step's SmolLM2 work (the ten likeliest,
every head's estimate, the best 24 heads switched off, the rows) is timed apart: cold, each repeat on a
fresh call; the step's build itself then reads it from a memo, as the page reads its cache.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from attention import sources  # noqa: E402
from attention.params.selection import Selection  # noqa: E402
from attention.lm import deciding  # noqa: E402
from attention.lesson import numbers as lesson_numbers  # noqa: E402
from attention.capture import hf_model, projections  # noqa: E402
from attention.translator import api, snapshots, translate  # noqa: E402
from attention.lesson import printout  # noqa: E402
from attention.lesson.steps import Context  # noqa: E402
from attention.lesson.story import STEPS  # noqa: E402
from attention.translator.grammar import verb_forms  # noqa: E402

TEXT, TR_TEXT = "The black cat drank the milk", "The ball is blue."


def deciding_timed(repeats: int):
    """(prompt -> Deciding, memoised as the page's cache is; the cold times in seconds per prompt)."""
    writer = sources.get(sources.SMOLLM2).load()
    memo: dict[str, deciding.Deciding] = {}
    cold: dict[str, list[float]] = {}

    def decide(prompt: str) -> deciding.Deciding:
        if prompt not in memo:
            for _ in range(repeats):
                start = time.perf_counter()
                memo[prompt] = deciding.decide(writer, prompt)
                cold.setdefault(prompt, []).append(time.perf_counter() - start)
        return memo[prompt]

    return decide, cold


def context(lang: str = "en", repeats: int = 3) -> tuple[Context, dict[str, list[float]]]:
    lm = hf_model.read_model(None)
    tr = hf_model.trace_batch(lm, [TEXT])[0]
    final, snaps = api.read_model(), api.read_snapshots()
    out = translate(TR_TEXT, model=final)
    snap_traces = snapshots.snapshot_traces(tr.text, final, snaps)
    f = lesson_numbers.focus(tr.tokens, verb_forms())
    best = lesson_numbers.best_head(tr, "encoder", f.query, f.key)
    decide, cold = deciding_timed(repeats)
    return Context(lang, tr.text, tr, best.layer, best.head, Selection(f.query, f.key), f.other,
                   lambda s, h, pos: projections.origin(lm, tr, s, h, pos), TR_TEXT, translation=lambda: out,
                   snapshots=lambda: snap_traces, temperature=lesson_numbers.TEMPERATURE, deciding=decide,
                   writer=sources.SMOLLM2), cold


def main(argv: list[str] | None = None) -> int:
    from bench.cli import bench_parser

    parser = bench_parser(__doc__, results=False)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    c, cold = context(repeats=args.repeats)
    times: dict[str, list[float]] = {}
    for _ in range(args.repeats):
        for build in STEPS:
            start = time.perf_counter()
            step = build(c)
            times.setdefault(step.title, []).append(time.perf_counter() - start)
    medians = {title: statistics.median(ts) for title, ts in times.items()}
    whole = sum(medians.values())
    print(f"{'step':<58} {'ms':>8} {'share':>7}")
    for title, t in medians.items():
        print(f"{title:<58} {t * 1000:8.1f} {t / whole:7.1%}")
    print(f"{f'all {len(STEPS)} steps':<58} {whole * 1000:8.1f}")
    for prompt, ts in cold.items():
        print(f"step {len(STEPS)} on SmolLM2, {prompt!r}: deciding heads {statistics.median(ts) * 1000:.0f} ms cold "
              f"(median of {len(ts)}; min {min(ts) * 1000:.0f}, max {max(ts) * 1000:.0f}); cached, as above")
    steps = [build(c) for build in STEPS]
    words = {"try": "Try it", "predict": "Predict first", "answer_was": "{chosen} / {answer}", "print": "Print"}
    start = time.perf_counter()
    page = printout.summary_html("Lesson", "en", [TEXT], steps, {}, words)
    took = time.perf_counter() - start
    import plotly

    js = os.path.getsize(os.path.join(os.path.dirname(plotly.__file__), "package_data", "plotly.min.js"))
    size = len(page.encode("utf-8"))
    print(f"summary page: {size:,} bytes ({size - js:,} without plotly.js's {js:,}), built in {took * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
