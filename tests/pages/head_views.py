"""Read the head view the way the browser receives it from an AppTest run: payloads and selection."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from attention.headview.payload import decoded


def head_views(at: AppTest) -> list[dict]:
    """Every head view on the page: its payload, with the decoded numbers under "numbers"."""
    found = []
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("attention_headview"):
            payload = json.loads(json.loads(el.proto.json))["payload"]
            found.append({**payload, "numbers": decoded(payload)})
    return found


def selections(at: AppTest) -> list[tuple[int, int]]:
    """The selection each head view is told to show, (query, key), -1 for none."""
    return [tuple(json.loads(el.proto.json)["selection"]) for el in at.get("bidi_component")
            if el.proto.component_name.endswith("attention_headview_selection")]
