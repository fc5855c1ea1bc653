"""figure_build.figure: the figure a call-by-call build makes, from one dict per trace and one layout dict."""

import numpy as np
import plotly.graph_objects as go
import pytest

from attention.plots.figure_build import EMPTY_TEMPLATE, figure, in_order
from tests.plots.figure_spec_cases import spec_json


def call_by_call() -> go.Figure:
    fig = go.Figure()
    fig.add_trace(go.Heatmap(z=np.eye(3, dtype=np.float32), colorscale="Viridis", name="m"))
    fig.add_trace(go.Scatter(x=[0, 1], y=[1, 0], mode="lines", line={"color": "red", "width": 2}))
    fig.update_layout(template=EMPTY_TEMPLATE, title={"text": "t", "x": 0, "font": {"size": 12}}, height=300,
                      margin={"l": 5, "t": 40}, dragmode=False)
    fig.update_yaxes(range=[2.5, -0.5], autorange=False)
    fig.update_xaxes(side="top", tickvals=[0, 1, 2])
    fig.add_shape(type="rect", x0=0, x1=1, y0=0, y1=1, line={"color": "black"})
    fig.add_shape(type="line", x0=0, x1=2, y0=2, y1=2)
    return fig


def one_step() -> go.Figure:
    """The same figure, the layout written in the order the calls above leave it (compounds as first set)."""
    return figure(
        [{"type": "heatmap", "z": np.eye(3, dtype=np.float32), "colorscale": "Viridis", "name": "m"},
         {"type": "scatter", "x": [0, 1], "y": [1, 0], "mode": "lines", "line": {"color": "red", "width": 2}}],
        {"title": {"font": {"size": 12}, "text": "t", "x": 0}, "margin": {"l": 5, "t": 40}, "height": 300,
         "dragmode": False, "yaxis": {"range": [2.5, -0.5], "autorange": False},
         "xaxis": {"side": "top", "tickvals": [0, 1, 2]},
         "shapes": [{"type": "rect", "x0": 0, "x1": 1, "y0": 0, "y1": 1, "line": {"color": "black"}},
                    {"type": "line", "x0": 0, "x1": 2, "y0": 2, "y1": 2}]})


def test_one_step_sends_the_bytes_of_call_by_call():
    assert spec_json(one_step()) == spec_json(call_by_call())


def test_values_are_validated_and_coerced_as_plotly_does():
    fig = one_step()
    assert fig.data[0].colorscale[0] == (0.0, "#440154")  # a named scale becomes its colours
    assert len(fig.layout.shapes) == 2 and fig.layout.shapes[1].type == "line"  # shapes are objects too
    fig.add_shape(type="circle", x0=0, x1=1, y0=0, y1=1)  # and later additions keep them
    assert [s.type for s in fig.layout.shapes] == ["rect", "line", "circle"]


@pytest.mark.parametrize("traces, layout", [
    ([{"type": "scatter", "colour": "red"}], {}),
    ([{"type": "scatter"}], {"heigth": 300}),
    ([{"type": "scatter"}], {"xaxis": {"rnage": [0, 1]}}),
    ([{"type": "scatter"}], {"shapes": [{"type": "rect", "wdth": 1}]}),
])
def test_an_unknown_property_is_refused(traces, layout):
    with pytest.raises(ValueError):
        figure(traces, layout)


def test_in_order_keeps_the_given_order_and_the_validated_values():
    given = {"b": {"z": 1, "a": "x"}, "a": [{"q": 1, "p": 2}], "c": 3}
    validated = {"a": [{"p": 2, "q": 1}], "b": {"a": "X", "z": 1, "extra": 0}, "c": 3}
    out = in_order(validated, given)
    assert out == validated
    assert list(out) == ["b", "a", "c"] and list(out["b"]) == ["z", "a", "extra"] and list(out["a"][0]) == ["q", "p"]
