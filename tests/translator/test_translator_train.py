"""A short training run, well under a minute, into a temporary folder."""

import numpy as np
import pytest
import torch

from attention.translator import load_model, load_snapshots, loss_history, translate
from attention.translator.train import main, snapshot_steps, train

# One thread: small matrices gain little from two, and a busy machine slows two threads far more.
QUICK = {"steps": 40, "n_pairs": 3000, "n_test": 100, "warmup": 5, "batch_size": 64, "n_snapshots": 5,
         "evaluate": False, "threads": 1, "log": lambda *a: None}


@pytest.mark.model
def test_short_run_lowers_the_loss_and_saves_a_loadable_checkpoint(tmp_path):
    summary = train(out=tmp_path, **QUICK)
    assert summary["steps"] == 40
    assert (tmp_path / "model.pt").exists() and (tmp_path / "snapshots.pt").exists()
    loss = loss_history(tmp_path)
    assert len(loss) == 40
    assert np.mean(loss[-5:]) < np.mean(loss[:5]) - 1.0
    model = load_model(tmp_path)
    t = translate("The ball is blue.", model=model, max_new_words=8)
    assert t.trace.faithful and len(t.trace.sites) == 6
    steps = [s for s, _ in load_snapshots(tmp_path)]
    assert steps == snapshot_steps(40, 5) and steps[0] == 0 and steps[-1] == 40


@pytest.mark.model
def test_same_seed_same_weights(tmp_path):
    train(out=tmp_path / "a", **{**QUICK, "steps": 10})
    train(out=tmp_path / "b", **{**QUICK, "steps": 10})
    a, b = load_model(tmp_path / "a"), load_model(tmp_path / "b")
    for (name, x), (_, y) in zip(a.state_dict().items(), b.state_dict().items()):
        assert torch.equal(x, y), name


@pytest.mark.model
def test_command_line_runs(tmp_path, capsys):
    summary = main(["--steps", "3", "--out", str(tmp_path), "--snapshots", "3", "--no-eval", "--d-model", "32",
                    "--d-ff", "64", "--heads", "2", "--layers", "1", "--threads", "1", "--pairs", "2000"])
    assert summary["steps"] == 3
    assert "step 3/3" in capsys.readouterr().out
    assert load_model(tmp_path).cfg.d_model == 32


def test_snapshot_steps_start_at_zero_and_end_at_the_last_step():
    s = snapshot_steps(9000, 14)
    assert s[0] == 0 and s[-1] == 9000 and len(s) == 14 and s == sorted(set(s))


@pytest.mark.model
def test_training_stores_the_alignment_curve_with_the_weights(tmp_path):
    """What the Learning page's alignment curve needs is written at training time, measured on the
    snapshots as they load (so the page never builds the corpus)."""
    import json

    from attention.translator import snapshots

    summary = train(out=tmp_path, **{**QUICK, "steps": 10, "evaluate": True})
    stored = json.loads((tmp_path / snapshots.ALIGNMENT_FILE).read_text())
    snaps = load_snapshots(tmp_path)
    assert stored["steps"] == [s for s, _ in snaps] and stored["corpus"] == summary["corpus"]
    _, fresh = snapshots.measure_alignment(snaps, corpus=summary["corpus"])
    np.testing.assert_allclose(np.array(stored["shares"]), fresh, atol=1e-6)
