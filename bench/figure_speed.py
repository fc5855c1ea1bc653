"""The matrix figures and the head grid, built the old way (call by call) and the new way (one step): ms, old ÷ new.

    python -m bench figure_speed [--repeats 15] [--before REV] [--memory] [--json out.json]

The old way is attention/plots/heatmaps.py, head_grid.py and attention/ui/charts.py as they were at `--before` (the
commit before the figures were built in one step; read with `git show`), run beside today's in this one
process. For each figure the
pages draw (a head's S and A on a short sentence with a selection, a decoder's masked A, the compare
page's difference grid, whole-word weights, a 128-token A past the cell-click limit, the Overview's grid of
MiniLM's 72 heads):
  build  the builder alone (matrix_figure and the wrappers around it, grid_figure);
  sent   what a page pays per chart: build, toolbar_band (charts.show's band for the toolbar, old or new), then
         Streamlit 1.67's own two calls, plotly.tools.return_figure_from_figure_or_data(fig,
         validate_figure=True) (fig.to_dict()) and plotly.io.to_json(..., validate=False).
Old and new are interleaved so machine noise hits both; each figure's median over --repeats, as wall time
and as this thread's CPU time (time.thread_time: without the waits for a core on a shared machine). Every
figure's sent spec is also compared, old against new: "same" must say yes.
--memory: the peak RSS (VmHWM) of a fresh process that builds and sends 200 figures, old and new.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numpy as np
import plotly.io
import plotly.tools

from attention import core
from attention.params.selection import NO_SELECTION, Selection
from attention.plots import head_grid, heatmaps
from attention.trace import Site, make_site
from attention.ui.charts import toolbar_band
from bench.cli import bench_parser, write_json
from harness.peak import in_fresh_process, is_child, report

BEFORE = "8b4a372b96397b37dc709f941f33f647e058fdea"  # main before the figures were built in one step
ROOT = Path(__file__).resolve().parents[1]
Builder = Callable[["Way"], object]  # a way to build (old or new) -> its figure


def old_module(rev: str, path: str) -> types.ModuleType:
    """The module at `path` (e.g. attention/plots/heatmaps.py) as it was at `rev`, loaded as a module of its own."""
    source = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout
    module = types.ModuleType(f"{Path(path).stem}_before")
    exec(compile(source, f"{path}@{rev[:7]}", "exec"), module.__dict__)
    return module


class Way(NamedTuple):
    """One way to draw: the modules that build (heatmaps, head_grid), the toolbar_band that charts.show applies."""

    heatmaps: types.ModuleType
    head_grid: types.ModuleType
    band: Callable[[object], object]


def old_way(rev: str) -> Way:
    return Way(old_module(rev, "attention/plots/heatmaps.py"), old_module(rev, "attention/plots/head_grid.py"),
               old_module(rev, "attention/ui/charts.py").toolbar_band)


NEW = Way(heatmaps, head_grid, toolbar_band)


def site_of(n: int, causal: bool, seed: int = 0) -> Site:
    """A head's site on n words (2 heads, d_head 8), random q, k, v."""
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((2, n, 8)) for _ in range(3))
    mask = core.causal_mask(n) if causal else None
    _, weights, z = core.attention(q, k, v, mask=mask)
    words = tuple(f"word{i}" for i in range(n))
    return make_site(layer=0, kind="decoder" if causal else "encoder", query_tokens=words, key_tokens=words,
                     q=q, k=k, v=v, scale=core.default_scale(8), mask=mask, model_weights=weights, model_z=z)


def figures() -> dict[str, Builder]:
    """The figures the pages draw most, each as a function of the heatmaps module that builds it."""
    enc8, dec12, enc128 = site_of(8, False), site_of(12, True), site_of(128, False)
    sel = Selection(query=3, key=5)
    diff = np.random.default_rng(1).standard_normal((12, 12)) * 0.1
    diff[np.triu_indices(12, 1)] = np.nan
    words = [f"word{i}" for i in range(10)]
    merged = np.random.default_rng(2).dirichlet(np.ones(10), size=10)
    rng = np.random.default_rng(3)
    heads = {(layer, h): rng.dirichlet(np.ones(12), size=12) for layer in range(6) for h in range(12)}  # MiniLM
    return {
        "A 8×8, selection": lambda w: w.heatmaps.weights_figure(enc8, 0, sel),
        "S 8×8, selection": lambda w: w.heatmaps.scores_figure(enc8, 1, sel),
        "A 8×8, none": lambda w: w.heatmaps.weights_figure(enc8, 0, NO_SELECTION),
        "A 12×12 masked": lambda w: w.heatmaps.weights_figure(dec12, 0, Selection(query=7)),
        "compare diff 12×12": lambda w: w.heatmaps.matrix_figure(
            diff, words + ["x", "y"], words + ["x", "y"], title="difference", colorscale="RdBu_r", zmid=0.0,
            zmin=-0.3, zmax=0.3, fmt="+.3f", masked=np.isnan(diff), masked_text="no head"),
        "words 10×10": lambda w: w.heatmaps.merged_weights_figure(merged, words, words, "whole words"),
        "A 128×128": lambda w: w.heatmaps.weights_figure(enc128, 0, sel),
        "head grid 6×12": lambda w: w.head_grid.grid_figure(heads, highlight_query=3, selected=(2, 5), title="heads"),
    }


def sent(way: Way, build: Builder) -> str:
    """What st.plotly_chart puts on the wire for a chart built and drawn through charts.show `way`."""
    fig = way.band(build(way))
    return plotly.io.to_json(plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True), validate=False)


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(wall ms, this thread's CPU ms) of one call."""
    w, c = time.perf_counter(), time.thread_time()
    fn()
    return (time.perf_counter() - w) * 1e3, (time.thread_time() - c) * 1e3


def compare(old: Way, repeats: int) -> list[dict]:
    """Per figure: median ms of build and sent, old and new, interleaved; and whether the bytes agree."""
    rows = []
    for name, build in figures().items():
        same = sent(old, build) == sent(NEW, build)  # also the warm-up
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(repeats):
            for which, way in (("old", old), ("new", NEW)):
                times.setdefault(("build", which), []).append(timed(lambda w=way: build(w)))
                times.setdefault(("sent", which), []).append(timed(lambda w=way: sent(w, build)))
        row = {"figure": name, "same": same}
        for (stage, which), values in times.items():
            row[f"{stage}_{which}_ms"] = round(statistics.median(w for w, _ in values), 2)
            row[f"{stage}_{which}_cpu_ms"] = round(statistics.median(c for _, c in values), 2)
        rows.append(row)
    return rows


def child(which: str, rev: str, count: int) -> None:
    """In the fresh process: build and send `count` figures the old or the new way, then report the peak."""
    way = old_way(rev) if which == "old" else NEW
    builders = list(figures().values())
    start = time.perf_counter()
    for i in range(count):
        sent(way, builders[i % len(builders)])
    report({"which": which, "figures": count, "seconds": round(time.perf_counter() - start, 2)})


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__)
    ap.add_argument("--repeats", type=int, default=15, help="old/new pairs per figure (the median is shown)")
    ap.add_argument("--before", default=BEFORE, help="the commit whose heatmaps.py is the old way")
    ap.add_argument("--memory", action="store_true", help="peak RSS of a fresh process, 200 figures, old and new")
    ap.add_argument("--part", choices=("old", "new"), help=argparse.SUPPRESS)  # the fresh process's own
    child_run, argv = is_child(argv)
    args = ap.parse_args(argv)
    if child_run:
        child(args.part, args.before, 200)
        return 0
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.memory:
        print(f"{'fresh process':>14} {'peak MiB':>9} {'seconds':>8}  (200 figures built and sent)")
        for which in ("old", "new"):
            out = in_fresh_process("bench.figure_speed", ["--part", which, "--before", args.before])
            if "error" in out:
                print(f"{which:>14} failed: {out['error']}")
                return 1
            print(f"{which:>14} {out['peak_mib']:>9} {out['seconds']:>8}")
        return 0
    rows = compare(old_way(args.before), args.repeats)
    print(f"{'':>20} {'build ms (CPU)':>28} {'sent ms (CPU)':>28}")
    print(f"{'figure':>20} {'old':>9} {'new':>9} {'old÷new':>8} {'old':>9} {'new':>9} {'old÷new':>8} {'same':>5}")
    for r in rows:
        print(f"{r['figure']:>20} {r['build_old_cpu_ms']:>9.2f} {r['build_new_cpu_ms']:>9.2f} "
              f"{r['build_old_cpu_ms'] / r['build_new_cpu_ms']:>8.2f} {r['sent_old_cpu_ms']:>9.2f} "
              f"{r['sent_new_cpu_ms']:>9.2f} {r['sent_old_cpu_ms'] / r['sent_new_cpu_ms']:>8.2f} "
              f"{'yes' if r['same'] else 'NO':>5}")
    wall = [r["sent_old_ms"] / r["sent_new_ms"] for r in rows]
    print(f"sent, wall time old÷new: {' '.join(f'{x:.2f}' for x in wall)} (same order)")
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    write_json(args.json, rows)
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
