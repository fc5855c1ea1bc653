"""The Change one word page under AppTest, per model: cold draw, warm redraw, a head chosen, patching.

What the Change one word page costs, per model, under AppTest (the page's script as the server runs it,
without a browser). Prints, never asserts.

    python -m bench compare_page [--models minilm,translator,smollm2]

Per model: the cold first draw (the model loaded, both sentences traced and compared), a warm redraw
(everything from the cache shelf), a head chosen (the layer picker changed), and the patching button
(every head patched alone, and all at once); then the patching alone, timed directly on the kept
comparison (attention.compare(...).patching()), the fastest of --repeats.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from streamlit.testing.v1 import AppTest  # noqa: E402

from attention.ui import state  # noqa: E402
from bench.cli import bench_parser, write_json  # noqa: E402

APP = str(Path(__file__).resolve().parents[1] / "app.py")
PAIRS = {
    "minilm": ("The cat drank the milk because it was thirsty", "The cat drank the milk because it was sour"),
    "translator": ("the black cat drank the milk .", "the black dog drank the milk ."),
    "smollm2": ("The cat drank the milk because it was thirsty and the", "The cat drank the milk because it was sour and the"),
}


def timed(at: AppTest) -> float:
    t0 = time.perf_counter()
    at.run()
    if at.exception:
        raise RuntimeError([e.value for e in at.exception])
    return time.perf_counter() - t0


def page(model: str) -> dict[str, float]:
    a, b = PAIRS[model]
    at = AppTest.from_file(APP, default_timeout=900)
    at.query_params.update({"model": model, "a": a, "b": b, "lang": "en"})
    at.switch_page(state.PAGES["compare"].path)
    out = {"cold_s": timed(at), "warm_s": timed(at)}
    layer = at.selectbox(key="cmp_layer")
    layer.select(layer.options[0] if layer.value != layer.options[0] else layer.options[-1])
    out["head_s"] = timed(at)
    at.button(key="cmp_patch_button").click()
    out["patch_page_s"] = timed(at)
    heads = len(at.dataframe[-1].value) if at.dataframe else 0
    out["ranked_rows"] = heads
    return out


def direct(model: str, repeats: int) -> tuple[int, float]:
    import attention

    a, b = PAIRS[model]
    cmp = attention.compare(a, b, model=model)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        p = cmp.patching()
        times.append(time.perf_counter() - t0)
    return len(p.restored), min(times)


def main(argv: list[str] | None = None) -> int:
    p = bench_parser(__doc__)
    p.add_argument("--models", default="minilm,translator,smollm2")
    p.add_argument("--repeats", type=int, default=2)
    args = p.parse_args(argv)
    results = {}
    for model in args.models.split(","):
        r = page(model)
        n, s = direct(model, args.repeats)
        r.update({"heads": n, "patching_s": s})
        results[model] = r
        print(f"{model}: cold first draw {r['cold_s']:.2f} s, warm redraw {r['warm_s']:.2f} s, "
              f"head chosen {r['head_s']:.2f} s, patching button {r['patch_page_s']:.2f} s; "
              f"patching {n} heads alone {s:.2f} s (fastest of {args.repeats})")
    write_json(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
