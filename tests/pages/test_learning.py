"""The Learning page's curves come from the real snapshots and end at the shipped model."""

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention.analysis import learning_curves
from attention.translator import load_snapshots, snapshots, translate

pytestmark = pytest.mark.model  # every test here reads a model (tests/lanes.py)

TEXT = "The black cat drank the milk."
APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(scope="module")
def snaps():
    return snapshots.snapshot_traces(TEXT)


def test_every_snapshot_loads_and_traces_faithfully(snaps):
    assert len(snaps.traces) == len(load_snapshots()) >= 10
    assert list(snaps.steps) == sorted(snaps.steps) and snaps.steps[0] == 0
    for tr in snaps.traces:
        assert set(tr.kinds) == {"encoder", "decoder", "cross"}
        assert tr.faithful


def test_last_point_of_a_curve_is_the_shipped_models_value(snaps):
    shipped = translate(TEXT).trace
    src, out = shipped.tokens, shipped.site(1, "cross").query_tokens
    leche, milk, black = out.index("leche"), src.index("milk"), src.index("black")
    for head in range(4):
        curve = learning_curves.pair_curve(snaps, "cross", 1, head, leche, milk)
        site = shipped.site(1, "cross")
        assert curve.score[-1] == pytest.approx(float(site.scores[head, leche, milk]), abs=1e-4)
        assert curve.weight[-1] == pytest.approx(float(site.weights[head, leche, milk]), abs=1e-6)
        assert -1.0 <= curve.cosine.min() and curve.cosine.max() <= 1.0
    related = learning_curves.pair_curve(snaps, "cross", 1, 1, leche, milk)
    unrelated = learning_curves.pair_curve(snaps, "cross", 1, 1, leche, black)
    eff = learning_curves.effect(related, unrelated)  # what the page reports for the default
    assert eff.leader == "related" and eff.learned


def _effect(related_weights, unrelated_weights, n_keys=8):
    def curve(weights):
        n = len(weights)
        return learning_curves.PairCurve(0, 0, np.zeros(n), np.array(weights, float), np.zeros(n), n_keys)

    return learning_curves.effect(curve(related_weights), curve(unrelated_weights))


@pytest.mark.parametrize("related, unrelated, leader, trend, learned", [
    ([0.42, 0.30, 0.223], [0.041, 0.06, 0.085], "related", "narrowed", False),  # still ahead, gap narrowed (L0 H3)
    ([0.10, 0.60], [0.10, 0.05], "related", "grew", True),
    ([0.05, 0.60], [0.30, 0.05], "related", "overtook", True),
    ([0.30, 0.05], [0.05, 0.60], "unrelated", "overtook", False),
    ([0.20, 0.10], [0.10, 0.50], "unrelated", "overtook", False),
    ([0.10, 0.10], [0.30, 0.31], "unrelated", "steady", False),
    ([0.30, 0.31], [0.29, 0.30], "level", "steady", False),
    ([0.30, 0.005], [0.10, 0.001], "neither", "narrowed", False),
    ([0.10, 0.50], [0.10, 0.49], "level", "steady", False),
    # the lesson's step 8 on a 10-token sentence: 0.113 against 0.086, both near the even 0.1: no claim
    ([0.08, 0.113], [0.10, 0.086], "neither", "steady", False),
])
def test_verdicts_on_hand_made_curves(related, unrelated, leader, trend, learned):
    eff = _effect(related, unrelated, n_keys=10 if related[-1] == 0.113 else 8)
    assert (eff.leader, eff.trend, eff.learned) == (leader, trend, learned)
    a, b = related[-1], unrelated[-1]
    assert eff.ratio == pytest.approx(max(a, b) / min(a, b))


def test_the_verdict_says_who_ends_ahead_and_how_the_gap_moved():
    """Encoder layer 0 head 3 (milk: drank vs black): drank ends ahead with ~2.6× black's weight, and
    the page says so — never "did the opposite"."""
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/learning.py")
    at.query_params.update(kind="encoder", layer="0", head="3")
    at.run()
    assert not at.exception
    said = " ".join(x.value for x in [*at.info, *at.success])
    assert "drank ends ahead" in said and "narrowed the gap" in said and "opposite" not in said
    from attention import i18n

    assert i18n.t("learning.finding", "en") in [c.value for c in at.caption]


def test_alignment_over_training_rises_to_a_strong_head():
    steps, shares = snapshots.alignment_over_training()  # the stored curve, read without the corpus
    assert steps == tuple(s for s, _ in load_snapshots()) and shares.shape[0] == len(steps)
    assert shares[-1].max() >= 0.9 and shares[0].max() < shares[-1].max()


def test_the_stored_alignment_curve_is_what_the_snapshots_measure():
    """The shipped alignment.json against a fresh measurement of the first and the last snapshot on
    the same 300 held-out pairs of the seeded corpus."""
    from attention.translator import model_info

    steps, stored = snapshots.alignment_over_training()
    snaps = load_snapshots()
    _, fresh = snapshots.measure_alignment([snaps[0], snaps[-1]], corpus=model_info()["corpus"])
    np.testing.assert_allclose(fresh, stored[[0, -1]], atol=1e-6)


def test_alignment_is_measured_when_the_stored_curve_does_not_match(tmp_path):
    import json as json_

    (tmp_path / snapshots.ALIGNMENT_FILE).write_text(json_.dumps({"steps": [0, 1], "shares": [[[0.0]], [[1.0]]]}))
    snaps = load_snapshots()[-1:]
    steps, shares = snapshots.alignment_over_training(snaps, directory=tmp_path)
    assert steps == (snaps[0][0],) and shares.shape == (1, 2, 4) and shares.max() >= 0.9


def test_page_runs_and_the_slider_changes_the_heatmap():
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/learning.py").run()
    assert not at.exception
    assert at.success  # the default pair's verdict
    last = json.loads(at.get("plotly_chart")[1].proto.spec)["data"][0]["z"]
    at.select_slider[0].set_value(0).run()
    assert not at.exception
    first = json.loads(at.get("plotly_chart")[1].proto.spec)["data"][0]["z"]
    assert first != last
    at.radio(key="learn_kind").set_value("encoder").run()
    assert not at.exception and (at.success or at.info)


def test_every_chart_title_and_axis_title_is_in_the_chosen_language():
    from attention import i18n

    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/learning.py")
    at.query_params["lang"] = "zh"
    at.run()
    assert not at.exception
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    words = []
    for spec in specs:
        layout = spec["layout"]
        words.append(layout.get("title", {}).get("text", ""))
        words += [layout.get(axis, {}).get("title", {}).get("text", "") for axis in ("xaxis", "yaxis")]
        words += [trace.get("name", "") for trace in spec["data"] if trace.get("type") == "scatter"
                  and trace.get("mode") == "lines+markers"]  # the curves' legend
    text = " ".join(words)
    for english in ("step", "loss", "cross-entropy"):
        assert english not in text, english
    step = at.session_state["learn_step"]
    flat = [w.replace("<br>", "").replace(" ", "") for w in words]  # titles are wrapped to the chart's width
    assert (i18n.t('title.A', 'zh') + i18n.t('learning.at_step', 'zh', step=step)).replace(" ", "") in flat
    assert i18n.t("learning.step", "zh") in words and i18n.t("learning.loss_axis", "zh") in words
    assert i18n.t("learning.loss_curve", "zh") in words and i18n.t("chart.head", "zh", layer=1, head=1) in words


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_cross_attention_says_far_ahead_not_a_ten_digit_ratio(lang):
    """The page said "milk ends ahead, with 6919438060.4× black's weight" and "no head gives milk more than
    1.00 of leche's weight"; the trend said "step 0" over a log axis that starts at 1."""
    import re

    from attention import i18n

    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/learning.py")
    at.query_params.update(kind="cross", layer="1", head="1", lang=lang)
    at.run()
    assert not at.exception
    said = " ".join(x.value for x in [*at.info, *at.success, *at.caption])
    assert not re.search(r"\d{4,}(\.\d)?×|\d{4,}(\.\d)? 倍", said), said
    far = i18n.t("learning.lead.related_far", lang, q="leche", a="milk", b="black", wa="0", wb="0")
    assert far.split("：" if lang == "zh" else ": ")[1][:6] in said, said
    assert "1.00 of" not in said and "step 0" not in said and "第 0 步" not in said


def test_a_first_visit_reads_the_snapshots_once_and_traces_them_on_one_torch_thread(monkeypatch):
    """Issue 45, Learning's first visit: the loss curve came through the notebook's cache, which read every
    snapshot and the final model again and kept them; and the translator's small operations ran on two
    torch threads waiting on each other (0.4-5 s for the 13 passes against 0.15 s on one)."""
    import torch

    from attention.translator import api, checkpoint
    from attention.ui.hosting import cache, settings
    from attention.ui.hosting.shelf import Shelf

    reads, threads = [], []
    read, trace = checkpoint.load_snapshot_file, snapshots.snapshot_traces
    monkeypatch.setattr(checkpoint, "load_snapshot_file", lambda path: reads.append(path) or read(path))
    monkeypatch.setattr(snapshots, "snapshot_traces",
                        lambda *args: threads.append(torch.get_num_threads()) or trace(*args))
    monkeypatch.setattr(cache, "shelf", Shelf(settings.cache_bytes()))  # a fresh server's: nothing kept yet
    api._load_snapshots.cache_clear()
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/learning.py")
    at.run()
    assert not at.exception
    assert len(reads) == 1 and api._load_snapshots.cache_info().currsize == 0  # no second copy kept
    assert threads == [1]
    assert cache.loss_history() == api.loss_history()  # read alone, the same numbers
