"""A go.Figure made in one step from its traces and its whole layout: each value validated once.

A figure built call by call (go.Figure(), add_trace, update_layout, update_xaxes, add_shape, ...) runs
Plotly's validators again at every call and goes through its batch-update machinery each time: about
15 ms for an 8×8 matrix, most of a page's rerun. Here every trace is a dict validated once by its
constructor, and the layout once by go.Layout.

The bytes sent to the browser stay the ones the call-by-call builders sent. Plotly writes a layout's
keys in the order they were set (its JSON, and Streamlit's chart id hashed from that JSON, follow it),
while go.Layout(...) sorts them. So the layout is given as a dict in the order the page has always sent
(`layout`), validated by go.Layout, and the validated values are set back in that order with
plotly_relayout, which writes values as given (plotly 7.1: BaseFigure._perform_plotly_relayout). The
shapes, which a figure also keeps as objects (fig.layout.shapes), are set through the property, last.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

EMPTY_TEMPLATE = go.layout.Template()  # the default template alone is ~8 kB per chart


def in_order(values: Any, order: Any) -> Any:
    """`values` (a layout as go.Layout validated it, keys sorted) with its keys in the order of `order`
    (the same layout as given), nested dicts and lists of dicts too; a key the validator added comes
    after the given ones.

    Args:
        values: the validated layout (or a part of it), e.g. go.Layout(order).to_plotly_json().
        order: the layout as given, whose key order is kept.

    Returns:
        The validated values, ordered like `order`.
    """
    if isinstance(values, dict) and isinstance(order, dict):
        ordered = {key: in_order(values[key], order[key]) for key in order if key in values}
        ordered.update((key, value) for key, value in values.items() if key not in ordered)
        return ordered
    if isinstance(values, list | tuple) and isinstance(order, list | tuple) and len(values) == len(order):
        return [in_order(v, o) for v, o in zip(values, order, strict=True)]
    return values


def figure(traces: list[dict], layout: dict, template: go.layout.Template = EMPTY_TEMPLATE) -> go.Figure:
    """A figure of `traces` (dicts with their "type") and `layout` (a dict in the order its keys are to be
    written, shapes last), each validated once; the same figure and the same JSON, key for key, as
    go.Figure() then update_layout(template=template, **layout) call by call, add_trace for each trace and
    add_shape for each shape, when `layout` is written in the order those calls set it.

    Args:
        traces: one dict per trace, e.g. {"type": "heatmap", "z": ...}; drawn in this order.
        layout: the layout's properties but its template; "shapes" a list of shape dicts (empty: none set).
        template: the layout's template (the default one weighs ~8 kB per chart).

    Returns:
        The figure. Raises ValueError, as Plotly does, on a property it does not know.
    """
    shapes = layout.get("shapes")
    rest = {key: value for key, value in layout.items() if key != "shapes"}
    fig = go.Figure(data=traces, layout={"template": template})
    fig.plotly_relayout(in_order(go.Layout(rest).to_plotly_json(), rest))
    if shapes:
        fig.layout.shapes = shapes
    return fig
