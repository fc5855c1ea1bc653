"""For comparison: how big bertviz's head view of the same model is, and how long it takes to build.

    python -m bench bertviz_size [--lengths 32 128 512] [--json out.json]

bertviz is not one of the app's requirements; this runs only where it is importable (the benchmark
runner falls back to the figures in the design notes otherwise). all-MiniLM-L6-v2 is loaded with
eager attention and output_attentions=True, as bertviz's own examples do; for a text of exactly N
tokens, `head_view(attention, tokens, html_action="return").data` is built and its size in bytes
(UTF-8) taken. The time covers the forward pass with attentions and the HTML build.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.cli import bench_parser, write_json  # noqa: E402

# What the design notes measured (all-MiniLM-L6-v2, head view): bytes and, where noted, build seconds.
DESIGN_NOTES = {32: {"html_bytes": 3.3e6}, 128: {"html_bytes": 53e6}, 512: {"html_bytes": 870e6, "build_s": 26.0}}


def measure(lengths: list[int]) -> list[dict]:
    import torch
    from bertviz import head_view
    from transformers import AutoModel, AutoTokenizer

    from attention.capture import hf_model
    from harness.texts import text_of_tokens

    path = hf_model.default_model_path()
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModel.from_pretrained(path, attn_implementation="eager", output_attentions=True).eval()
    rows = []
    for n in lengths:
        text = text_of_tokens(n)
        t0 = time.perf_counter()
        inputs = tokenizer(text, return_tensors="pt")
        with torch.inference_mode():
            attention = model(**inputs).attentions
        tokens = tokenizer.convert_ids_to_tokens(inputs["input_ids"][0])
        html = head_view(attention, tokens, html_action="return").data
        build_s = time.perf_counter() - t0
        size = len(html.encode())
        del html
        rows.append({"tokens": n, "html_bytes": size, "build_s": round(build_s, 2)})
        print(f"{n:>6} {size / 1e6:>10.1f} MB {build_s:>8.1f} s", flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--lengths", type=int, nargs="+", default=[32, 128, 512])
    args = ap.parse_args(argv)
    try:
        import bertviz  # noqa: F401
    except ImportError:
        print("bertviz is not installed: nothing measured (the design notes have 3.3 MB, 53 MB and 870 MB).")
        return 3
    print(f"{'tokens':>6} {'head view':>13} {'build':>10}")
    write_json(args.json, measure(args.lengths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
