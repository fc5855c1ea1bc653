"""Read the head view the way the browser receives it from an AppTest run: payloads and selection."""

from __future__ import annotations

import html
import json
import re

from streamlit.testing.v1 import AppTest

import numpy as np

from attention.headview import blocks
from attention.headview.payload import MASKED_CODE, decoded
from attention.keys import Keys

_BLOCKS: dict[str, str] = {}  # every block seen, by its content id (a later run names them, as the browser's store)


def _from_blocks(message: dict, sent: dict) -> dict:
    """A blocks element (the Write page) read back as a payload: tokens, labels and the numbers. `sent`:
    the server's record for this view (head_component), whose "bands" is the whole list just sent."""
    _BLOCKS.update({i: json.dumps(b) for i, b in message["blocks"].items()})
    _BLOCKS.update(blocks.held())  # sent in a run the test did not read: the server's copy
    head = dict(message["head"])
    if "keep" in head:  # the first `keep` bands are those of the list `of`, which the browser holds
        keep = head.pop("keep")
        assert blocks.bands_id(sent["bands"]) == head["list"] and sent["bands"][keep:] == head["bands"]
        head["bands"] = sent["bands"]
    bands = [json.loads(_BLOCKS[i]) for i in head["bands"]]
    view = {k: head[k] for k in ("kind", "layer", "head", "n_heads", "d_head", "decimals")}
    for side, short, raw in (("query", "ql", "qt"), ("key", "kl", "kt")):
        view[f"{side}_tokens"] = [t for b in bands for t in b[raw]]
        if any(short in b for b in bands):
            view[f"{side}_labels"] = [t for b in bands for t in b.get(short, b[raw])]
    ints, d = blocks.assembled(head, _BLOCKS), head["decimals"]
    masked = ints["A"] == MASKED_CODE
    view["numbers"] = {"S": ints["S"] / 10.0 ** d["score"], "A": np.where(masked, np.nan, ints["A"] / 10.0 ** d["weight"]),
                       "scaled": np.where(masked, np.nan, ints["scaled"] / 10.0 ** d["scaled"]),
                       "Z": ints["Z"] / 10.0 ** d["z"], "masked": masked}
    return view


def head_views(at: AppTest) -> list[dict]:
    """Every head view on the page: its payload, with the decoded numbers under "numbers"."""
    found = []
    for el in at.get("bidi_component"):
        if el.proto.component_name.endswith("attention_headview"):
            payload = json.loads(json.loads(el.proto.json))["payload"]
            found.append({**payload, "numbers": decoded(payload)})
    for message, _ in _carriers(at):
        found.append(_from_blocks(message, at.session_state[Keys.HV_SENT + message["channel"]]))
    return found


def _carriers(at: AppTest) -> list[tuple[dict, tuple[int, int]]]:
    """The hidden carriers of blocks views (head_component.carrier), parsed as the browser's observer does."""
    out = []
    for el in at.get("html"):
        tag = re.fullmatch(r'<div hidden class="hv-msg" data-sel="([^"]*)" data-msg="([^"]*)"></div>', el.proto.body)
        if tag:
            out.append((json.loads(html.unescape(tag[2])), tuple(json.loads(tag[1]))))
    return out


def selections(at: AppTest) -> list[tuple[int, int]]:
    """The selection each head view is told to show, (query, key), -1 for none."""
    return [*(tuple(json.loads(el.proto.json)["selection"]) for el in at.get("bidi_component")
              if el.proto.component_name.endswith("attention_headview_selection")),
            *(sel for _, sel in _carriers(at))]


def panel_parts(at: AppTest) -> dict[str, list[dict]]:
    """The blocks the head view's fragment sends its panels (ui/head_view/panel_view.py): "detail", and with q·k open
    "explain", "dot-0", "dot-1"; {} without a head view."""
    found = [json.loads(el.proto.json) for el in at.get("bidi_component")
             if el.proto.component_name.endswith("attention_panel_carrier")]
    assert len(found) <= 1, "one head view with panels a page"
    return found[0]["parts"] if found else {}


def panel_texts(at: AppTest, part: str = "detail") -> list[str]:
    """The text of a part's markdown, caption and info blocks, in order, as written (markdown)."""
    return [b["text"] for b in panel_parts(at).get(part, []) if b["kind"] in ("md", "caption", "info")]


def panel_metrics(at: AppTest) -> dict[str, str]:
    """The detail panel's metrics, label -> value as shown."""
    return {label: value for b in panel_parts(at).get("detail", []) if b["kind"] == "metrics"
            for label, value, _ in b["items"]}


def panel_table(at: AppTest) -> tuple[list[str], list[list]]:
    """The detail panel's table of the query word's strongest keys: (columns, rows as shown)."""
    tables = [b for b in panel_parts(at).get("detail", []) if b["kind"] == "table"]
    assert len(tables) == 1, tables
    return tables[0]["columns"], tables[0]["rows"]


def panel_button(at: AppTest) -> str | None:
    """The label of the detail panel's Find heads button, None without one."""
    labels = [b["label"] for b in panel_parts(at).get("detail", []) if b["kind"] == "button"]
    return labels[0] if labels else None
