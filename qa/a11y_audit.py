"""An axe-core audit (WCAG 2.0–2.2, A and AA) of every page in English and Chinese, in real Chromium.

    python -m qa a11y_audit [--width 1280] [--pages explore lesson ...] [--json out.json]

Each page is opened fresh, drawn, then audited; prints the violations per page by rule and impact, the
nodes of every serious or critical one, and how many pixels the page is wider than the window.
"""

from __future__ import annotations

import os
import sys
from collections import Counter

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.cli import bench_parser, write_json
from harness.axe import SERIOUS, audit, open_drawn, serious, sideways_overflow
from harness.frames import app_and_browser


def main(argv: list[str] | None = None) -> int:
    from attention.ui.state import PAGES

    ap = bench_parser(__doc__)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--pages", nargs="+", default=list(PAGES))
    ap.add_argument("--langs", nargs="+", default=["en", "zh"])
    args = ap.parse_args(argv)
    results, total = [], Counter()
    with app_and_browser() as (url, browser):
        for lang in args.langs:
            for name in args.pages:
                context = browser.new_context(viewport={"width": args.width, "height": 1000})
                page = context.new_page()
                open_drawn(page, url, name, lang)
                found = audit(page)
                over = sideways_overflow(page)
                context.close()
                counts = Counter()
                for v in found:
                    for n in v["nodes"]:
                        counts[(v["id"], n["impact"] or v["impact"])] += 1
                total.update(counts)
                n_serious = sum(c for (_, imp), c in counts.items() if imp in SERIOUS)
                print(f"{lang} {name:15s} serious+critical nodes {n_serious:3d}  wider than window {over:4d} px  "
                      + ", ".join(f"{rule}/{imp}×{c}" for (rule, imp), c in sorted(counts.items())))
                for line in serious(found):
                    print("    " + line)
                results.append({"lang": lang, "page": name, "overflow_px": over, "serious": serious(found),
                                "counts": {f"{r}/{i}": c for (r, i), c in counts.items()}})
    n = sum(c for (_, imp), c in total.items() if imp in SERIOUS)
    print(f"total serious+critical nodes at {args.width} px: {n}")
    for (rule, imp), c in sorted(total.items()):
        print(f"  {rule:30s} {imp:9s} {c}")
    write_json(args.json, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
