"""The head view's colour legend: its bars are the view's own colour stops (read from draw.js), its
text escaped."""

import re
from pathlib import Path

from attention.plots import colour_legend
from attention.plots.colour_legend import Scale, legend_html

DRAW_JS = Path(colour_legend.__file__).resolve().parents[1] / "headview" / "assets" / "draw.js"


def js_stops(name: str) -> list[str]:
    body = re.search(rf"const {name} = \[(.*?)\];", DRAW_JS.read_text(), re.S).group(1)
    return re.findall(r'"(#[0-9a-f]{6})"', body)


def test_the_bars_are_painted_with_the_head_views_own_stops():
    for py, js in ((colour_legend.BLUES, "HV_BLUES"), (colour_legend.RDBU, "HV_RDBU"),
                   (colour_legend.CIVIDIS, "HV_CIVIDIS"), (colour_legend.BUOR, "HV_BUOR")):
        assert py == js_stops(js), js


def test_every_scale_is_drawn_with_its_ends_and_words_escaped():
    out = legend_html([Scale("S <b>", ["#000000", "#ffffff"], ("−2.0", "0", "2.0"), "a < b")], "grey")
    assert "S &lt;b&gt;" in out and "a &lt; b" in out and "<b>" not in out.replace("S &lt;b&gt;", "")
    assert "linear-gradient(to right, #000000, #ffffff)" in out
    assert all(f"<span>{e}</span>" in out for e in ("−2.0", "0", "2.0")) and "grey" in out


def test_the_row_caption_starts_where_the_narrowest_view_leaves_words_out():
    from attention.ui.head_view import head_legend

    assets = DRAW_JS.parent
    label_px = int(re.search(r"const HV_LABEL_PX = (\d+);", DRAW_JS.read_text()).group(1))
    view = (assets / "view.js").read_text()
    top = int(re.search(r"const HV_MARGIN = \[\d+, (\d+)\];", view).group(1))
    smallest = int(re.search(r"Math\.max\((\d+), Math\.min\(\d+, Math\.floor", view).group(1))
    assert (head_legend.LABEL_PX, head_legend.TOP_MARGIN_PX, head_legend.SMALLEST_PX) == (label_px, top, smallest)
    plot = smallest - top - 4  # the plot's height (draw.js's resize)
    assert plot / (head_legend.THINNED_FROM - 1) >= label_px > plot / head_legend.THINNED_FROM
