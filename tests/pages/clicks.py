"""Clicks in an AppTest, delivered the way the browser delivers them: as widget state on the next run,
so Streamlit itself calls the chart's or component's callback (never by writing session state).

- A plotly chart drawn with `on_select` is a widget holding a JSON string. On a click Streamlit's
  frontend sends {"selection": {"points": [...], "point_indices": [...], "box": [], "lasso": []}},
  each point plotly's click data with its keys in snake_case (curve_number, point_number,
  point_index, x, y, customdata).
- A dataframe drawn with `on_select` sends {"selection": {"rows": [...], "columns": [], "cells": []}}.
- A components.v2 element (the head view) has a trigger widget, id "$$STREAMLIT_INTERNAL_KEY_<id>__events";
  `setTriggerValue(name, value)` sends a JSON list of {"event": name, "value": value} on it.

AppTest has no handle for either (both are "unknown" elements), so the run below adds the clicked
element's state to the widget states AppTest would send anyway.
"""

from __future__ import annotations

import base64
import json

import numpy as np
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from streamlit.runtime.state.session_state import STREAMLIT_INTERNAL_KEY_PREFIX
from streamlit.testing.v1 import AppTest

EVENT_DELIM = "__"  # streamlit.components.v2.bidi_component.constants.EVENT_DELIM


def _values(column: object) -> list:
    """A spec column as a plain list (plotly writes numeric arrays as base64 typed arrays)."""
    if isinstance(column, dict) and "bdata" in column:
        return np.frombuffer(base64.b64decode(column["bdata"]), dtype=column["dtype"]).tolist()
    return list(column) if column is not None else []


def _send(at: AppTest, state: WidgetState) -> AppTest:
    states = WidgetStates()
    states.widgets.extend(w for w in at._tree.get_widget_states().widgets if w.id != state.id)
    states.widgets.append(state)
    return at._run(states)


def _chart(at: AppTest, key: str):
    found = [c for c in at.get("plotly_chart") if c.key == key]
    assert len(found) == 1, f"no single plotly chart with key {key!r}: {[c.key for c in at.get('plotly_chart')]}"
    return found[0]


def plotly_point(at: AppTest, key: str, customdata: list[int], trace: str | None = None) -> dict:
    """The point plotly reports for a click on the marker carrying `customdata` (in trace `trace`)."""
    spec = json.loads(_chart(at, key).proto.spec)
    for curve, tr in enumerate(spec["data"]):
        if trace is not None and tr.get("name") != trace:
            continue
        for i, data in enumerate(tr.get("customdata") or []):
            if list(data) == list(customdata):
                xs, ys = _values(tr.get("x")), _values(tr.get("y"))
                return {"curve_number": curve, "point_number": i, "point_index": i, "x": xs[i] if xs else None,
                        "y": ys[i] if ys else None, "customdata": list(data)}
    raise AssertionError(f"chart {key!r} has no clickable point {customdata}")


def click_chart(at: AppTest, key: str, customdata: list[int], trace: str | None = None) -> AppTest:
    """Click the point of plotly chart `key` that carries `customdata`, then run (its on_select fires)."""
    point = plotly_point(at, key, customdata, trace)
    event = {"selection": {"points": [point], "point_indices": [point["point_index"]], "box": [], "lasso": []}}
    return _send(at, WidgetState(id=_chart(at, key).proto.id, string_value=json.dumps(event)))


def click_dataframe_row(at: AppTest, key: str, row: int) -> AppTest:
    """Select row `row` of the dataframe `key` (drawn with on_select), then run."""
    found = [d for d in at.dataframe if d.proto.id and d.key == key]
    assert len(found) == 1, f"no single dataframe with key {key!r}"
    event = {"selection": {"rows": [row], "columns": [], "cells": []}}
    return _send(at, WidgetState(id=found[0].proto.id, string_value=json.dumps(event)))


def click_component(at: AppTest, key: str, event: str, value: object) -> AppTest:
    """Fire trigger `event` with `value` on the components.v2 element `key`, then run."""
    found = [c for c in at.get("bidi_component") if c.key == key]
    assert len(found) == 1, f"no single component with key {key!r}: {[c.key for c in at.get('bidi_component')]}"
    trigger = f"{STREAMLIT_INTERNAL_KEY_PREFIX}_{found[0].proto.id}{EVENT_DELIM}events"
    return _send(at, WidgetState(id=trigger, json_trigger_value=json.dumps([{"event": event, "value": value}])))


def click_head_view(at: AppTest, key: str, query: int, key_pos: int) -> AppTest:
    """A click in the head view: the cell (query, key_pos); -1 on an axis for a word alone."""
    return click_component(at, key, "select", [query, key_pos])
