"""The matrix figures send the browser exactly the bytes they sent before they were made faster.

Each case of figure_spec_cases.py is built now and serialised as st.plotly_chart does; the result must
equal, byte for byte, the spec frozen in tests/plots/figure_specs/ from the builders as they were (one
update_* call after another, add_trace and add_shape one by one). Streamlit also hashes this string into
the chart's element id, so a changed byte (even a key's order) would give a chart a new identity.
"""

from __future__ import annotations

import json

import pytest

from tests.plots.figure_spec_cases import BAND_CASES, CASES, SHOWN, SPEC_DIR, frozen, shown_spec_json, spec_json


def first_difference(new: str, old: str) -> str:
    """Where two specs part, with some context, for the failure message."""
    at = next((i for i, (a, b) in enumerate(zip(new, old, strict=False)) if a != b), min(len(new), len(old)))
    return (f"at character {at}: now …{new[max(0, at - 80):at + 80]}… was …{old[max(0, at - 80):at + 80]}… "
            "(a change meant to show: write the specs anew, PYTHONPATH=. python -m tests.plots.figure_spec_cases)")


def read_frozen(name: str) -> str:
    return frozen(name).read_text(encoding="utf-8").rstrip("\n")


@pytest.mark.parametrize("name", sorted(CASES))
def test_spec_is_byte_identical_to_the_frozen_one(name):
    old, new = read_frozen(name), spec_json(CASES[name]())
    assert new == old, first_difference(new, old)


@pytest.mark.parametrize("name", SHOWN)
def test_spec_through_charts_show_is_byte_identical(name):
    """charts.show moves every figure down for the toolbar (update_layout on the built figure): it must
    find the figure it always found."""
    old, new = read_frozen(f"{name}.shown"), shown_spec_json(CASES[name]())
    assert new == old, first_difference(new, old)


@pytest.mark.parametrize("name", sorted(BAND_CASES))
def test_charts_show_band_is_byte_identical_on_every_kind_of_layout(name):
    """charts.toolbar_band sets its few values one by one (not update_layout's batch): the same keys in the
    same order, on titles with or without their own place, no title, plotly's default height or margin."""
    old, new = read_frozen(f"band.{name}"), shown_spec_json(BAND_CASES[name]())
    assert new == old, first_difference(new, old)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_figure_object_says_what_its_spec_says(name):
    """A figure is also read as objects (fig.layout.shapes, fig.data[i].customdata, by tests and pages):
    the objects must hold what is sent, shapes included (a figure keeps them as objects of their own)."""
    fig = CASES[name]()
    spec = json.loads(spec_json(fig))
    assert [s.to_plotly_json() for s in fig.layout.shapes] == spec["layout"].get("shapes", [])
    assert fig.layout.title.text == spec["layout"]["title"]["text"]
    assert fig.layout.margin.r == spec["layout"]["margin"]["r"]
    assert list(fig.layout.xaxis.ticktext or []) == spec["layout"]["xaxis"].get("ticktext", [])
    assert [t.name for t in fig.data] == [t.get("name") for t in spec["data"]]


def test_every_frozen_spec_has_its_case():
    """A case renamed or dropped would leave its frozen spec unchecked."""
    assert sorted(p.name.removesuffix(".json") for p in SPEC_DIR.glob("*.json")) == sorted(
        [*CASES, *(f"{name}.shown" for name in SHOWN), *(f"band.{name}" for name in BAND_CASES)])


def test_the_cases_reach_every_branch():
    """The frozen specs cover what the builders decide: overlay or heatmap hover, row words as text or
    ticks, the masked layer, no, one or three highlight rectangles, Chinese words."""
    specs = {name: json.loads(read_frozen(name)) for name in CASES}
    names = {name: [t.get("name") for t in s["data"]] for name, s in specs.items()}
    assert "cells" in names["small_plain"] and "cells" not in names["over_cell_click_max"]
    assert "masked" in names["masked_selection"] and "masked" not in names["small_plain"]
    assert "key words" not in names["columns_are_dimensions"]
    assert specs["over_row_text_max"]["layout"]["yaxis"]["showticklabels"] is True
    assert {len(s["layout"].get("shapes", [])) for s in specs.values()} == {0, 1, 3}
    assert "猫" in json.dumps(specs["chinese_labels"], ensure_ascii=False)
