"""Representative inputs of the matrix figures, and the JSON spec Streamlit sends for each: what
tests/plots/test_figure_specs.py compares with the frozen specs in tests/plots/figure_specs/.

The frozen specs were written by the builders as they were before they were made faster (one
update_* call per property group, add_trace and add_shape one by one); the test proves the faster
builders send the browser the same bytes. A deliberate change to a figure writes them anew:

    PYTHONPATH=. python -m tests.plots.figure_spec_cases      # rewrites tests/plots/figure_specs/*.json

Every value is exact in float32 and in its printed form (k/16, small integers, uniform weights), so the
specs do not depend on a machine's exp or BLAS.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import plotly.io
import plotly.tools

from attention import core
from attention.params.selection import Selection
from attention.plots import effect_figures, head_grid, heatmaps
from attention.trace import make_site

SPEC_DIR = Path(__file__).with_name("figure_specs")
SHOWN = ("masked_selection", "chinese_labels", "over_row_text_max")  # also frozen as charts.show sends them


def spec_json(fig: go.Figure) -> str:
    """The JSON string st.plotly_chart puts in its message for `fig` (Streamlit 1.67's two calls)."""
    figure = plotly.tools.return_figure_from_figure_or_data(fig, validate_figure=True)
    return plotly.io.to_json(figure, validate=False)


def shown_spec_json(fig: go.Figure) -> str:
    """The spec of `fig` as the pages send it: through charts.show, which moves the figure down for the
    toolbar (charts.toolbar_band) before st.plotly_chart."""
    from attention.ui.charts import toolbar_band

    return spec_json(toolbar_band(fig))


def frozen(name: str) -> Path:
    """The file of a case's frozen spec; "NAME.shown" is a matrix case after charts.show's band, "band.NAME" a
    BAND_CASES figure after it."""
    return SPEC_DIR / f"{name}.json"


def grid(n_rows: int, n_cols: int) -> np.ndarray:
    """(n_rows, n_cols) values in -1..1, multiples of 1/16: exact in float32 and in every format."""
    r, c = np.mgrid[0:n_rows, 0:n_cols]
    return ((3 * r + 5 * c) % 33 - 16) / 16.0


def words(n: int, stem: str = "w") -> list[str]:
    return [f"{stem}{i}" for i in range(n)]


def causal(n: int) -> np.ndarray:
    """(n, n) bools: True above the diagonal (a decoder's future keys)."""
    return np.triu(np.ones((n, n), dtype=bool), k=1)


def _site(tokens: list[str], is_causal: bool):
    """A site whose figures are exact: integer q and k (S exact), v one-hot (norms 1)."""
    n, h, d = len(tokens), 2, 4
    i = np.arange(n)
    q = np.stack([np.stack([(i + hd) % 3, i % 2, -(i % 4), np.ones(n)], axis=1) for hd in range(h)]).astype(float)
    k = np.stack([np.stack([i % 2, (i + hd) % 3, np.ones(n), i % 5 - 2], axis=1) for hd in range(h)]).astype(float)
    v = np.stack([np.eye(d)[i % d] for _ in range(h)])
    mask = core.causal_mask(n) if is_causal else None
    _, weights, z = core.attention(q, k, v, mask=mask)
    return make_site(layer=0, kind="decoder" if is_causal else "encoder", query_tokens=tuple(tokens),
                     key_tokens=tuple(tokens), q=q, k=k, v=v, scale=core.default_scale(d), mask=mask,
                     model_weights=weights, model_z=z)


def _uniform_site(tokens: list[str]):
    """All-zero q: every weight is exactly 1/n (1/(i+1) on a causal row)."""
    site = _site(tokens, is_causal=True)
    return make_site(layer=0, kind="decoder", query_tokens=site.query_tokens, key_tokens=site.key_tokens,
                     q=np.zeros_like(site.q), k=site.k, v=site.v, scale=site.scale, mask=core.causal_mask(len(tokens)),
                     model_weights=None, model_z=None)


CHINESE_ROWS = ["猫", "坐在", "垫子上", "一只非常非常长的词语在这里", "。"]
CHINESE_COLS = ["猫", "坐", "在", "垫子", "上面的（改变的词）"]


def _cases() -> dict[str, Callable[[], go.Figure]]:
    mf = heatmaps.matrix_figure
    big = grid(65, 64)  # 4160 cells > CELL_CLICK_MAX: hover on the heatmap, no cell overlay
    tall = grid(heatmaps.ROW_TEXT_MAX + 3, 3)  # rows as axis ticks
    nan_vals = grid(4, 4)
    nan_vals[1, 2] = np.nan
    heads = {(layer, h): np.abs(grid(6, 6)) / 6 for layer in range(2) for h in range(3)}
    # 49 positions: thumbnails of THUMB_MAX (48) cells, a block of two summed or averaged (exact in any order)
    long_heads = {head: np.abs(grid(49, 49)) / 2 for head in [(0, 0), (0, 1), (1, 0)]}
    return {
        "grid_plain": lambda: head_grid.grid_figure(heads),
        "grid_selected": lambda: head_grid.grid_figure(heads, highlight_query=2, selected=(1, 2), title="每个头",
                                                       hover={(0, 1): "entropy 1.2"}, tile_title="层{layer} 头{head}"),
        "grid_ordered_long": lambda: head_grid.grid_figure(long_heads, order=[(1, 0), (0, 0), (0, 1)],
                                                           n_cols=2, highlight_query=45, n_query=49,
                                                           selected=(0, 0)),
        "small_plain": lambda: mf(grid(3, 4), words(3), words(4, "k"), title="S", colorscale="RdBu_r", zmid=0.0),
        "masked_selection": lambda: mf(
            np.where(causal(6), np.nan, np.abs(grid(6, 6))), words(6), words(6), title="A<br>step 3",
            colorscale="Blues", zmin=0.0, zmax=1.0, fmt=".4f", sel=Selection(query=3, key=1), masked=causal(6),
            masked_text="masked", weights_emphasis=True),
        "query_selected_only": lambda: mf(np.abs(grid(5, 5)), words(5), words(5), title="A", colorscale="Blues",
                                          zmin=0.0, zmax=1.0, sel=Selection(query=2), weights_emphasis=True),
        "key_selected_only": lambda: mf(grid(5, 5), words(5), words(5), title="S", colorscale="RdBu_r",
                                        sel=Selection(key=4)),
        "selection_out_of_range": lambda: mf(grid(4, 4), words(4), words(4), title="S", colorscale="RdBu_r",
                                             sel=Selection(query=9, key=9), weights_emphasis=True),
        "columns_are_dimensions": lambda: mf(grid(4, 6), words(4), [str(j) for j in range(6)], title="Z",
                                             colorscale="RdBu_r", zmid=0.0, sel=Selection(query=1, key=2),
                                             columns_are_keys=False),
        "nan_without_mask": lambda: mf(nan_vals, words(4), words(4), title="diff", colorscale="RdBu_r",
                                       zmin=-1.0, zmax=1.0, fmt="+.3f", masked=np.isnan(nan_vals),
                                       masked_text="no head"),
        "over_cell_click_max": lambda: mf(
            np.where(causal(65)[:, :64], np.nan, big), words(65), words(64), title="A", colorscale="Blues",
            sel=Selection(query=40, key=10), masked=causal(65)[:, :64], axis_names=("query <b>", "key")),
        "over_row_text_max": lambda: mf(tall, words(len(tall)), words(3, "k"), title="tall", colorscale="Reds",
                                        sel=Selection(query=50, key=1)),
        "single_cell": lambda: mf(np.ones((1, 1)), ["only"], ["only"], title="", colorscale="Blues"),
        "chinese_labels": lambda: mf(grid(5, 5), CHINESE_ROWS, CHINESE_COLS, title="注意力权重<br>第 2 层",
                                     colorscale="Blues", sel=Selection(query=1, key=3), masked=causal(5),
                                     masked_text="已遮蔽", axis_names=("查询", "键"), weights_emphasis=True),
        "markup_words": lambda: heatmaps.merged_weights_figure(np.eye(3), ["<b>x</b>", "<script>", "a&b"],
                                                              ["<b>x</b>", "", "a&b"], "words"),
        "scores_site": lambda: heatmaps.scores_figure(_site(words(7), is_causal=True), 1, Selection(query=4, key=2)),
        "weights_site": lambda: heatmaps.weights_figure(_uniform_site(words(6)), 0, Selection(query=5)),
        "value_weighted_site": lambda: effect_figures.value_weighted_figure(_uniform_site(words(5)), 1,
                                                                           Selection(query=3, key=0)),
        "rollout": lambda: head_grid.rollout_figure(np.abs(grid(5, 5)), words(5), Selection(query=2)),
    }


CASES = _cases()

LONG = "How much of each word's output comes from every other word, per head and per layer of the model"


def _bars(**layout: object) -> go.Figure:
    """A bar chart laid out call by call as the other builders do (go.Figure, add_trace, update_layout)."""
    fig = go.Figure()
    fig.add_trace(go.Bar(x=[0, 1, 2], y=[0.5, 0.25, 0.125], marker_color="#2ca02c"))
    fig.update_layout(template=heatmaps.EMPTY_TEMPLATE, **layout)
    return fig


# charts.show's band on the layouts the app's figures have: title with or without its own place, no title,
# no height or no margin (plotly's defaults), a title to wrap, one in the paper's frame.
BAND_CASES: dict[str, Callable[[], go.Figure]] = {
    "titled_bars": lambda: _bars(title={"text": "short", "font": {"size": 13}}, height=300,
                                 margin={"l": 50, "r": 10, "t": 40, "b": 60}),
    "long_title_no_height_no_margin": lambda: _bars(title={"text": LONG}),
    "chinese_long_title": lambda: _bars(title={"text": "每个词的输出有多少来自其他每个词" * 3, "x": 0}, height=280,
                                        margin={"l": 40}),
    "title_placed": lambda: _bars(title={"text": LONG, "y": 0.98, "yanchor": "top", "yref": "container"},
                                  margin={"t": 76}),
    "title_auto_anchor": lambda: _bars(title={"text": "high", "y": 0.9}, height=320),
    "title_bottom_anchor": lambda: _bars(title={"text": "low", "y": 0.5, "yanchor": "bottom"}, height=320),
    "title_in_paper": lambda: _bars(title={"text": "paper", "yref": "paper", "y": 1.0}, height=300),
    "untitled": lambda: _bars(height=260),
    "bare": lambda: go.Figure(go.Bar(y=[1, 2])),
}


def main(argv: list[str] | None = None) -> int:
    """Write every case's spec to SPEC_DIR (after a deliberate change to a figure)."""
    SPEC_DIR.mkdir(exist_ok=True)
    for name, build in CASES.items():
        frozen(name).write_text(spec_json(build()) + "\n", encoding="utf-8")
    for name in SHOWN:
        frozen(f"{name}.shown").write_text(shown_spec_json(CASES[name]()) + "\n", encoding="utf-8")
    for name, build in BAND_CASES.items():
        frozen(f"band.{name}").write_text(shown_spec_json(build()) + "\n", encoding="utf-8")
    print(f"wrote {len(CASES) + len(SHOWN) + len(BAND_CASES)} specs to {SPEC_DIR.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
