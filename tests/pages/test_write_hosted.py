"""A hosted replica never expands the language model itself (1.6 GB at its peak): it says so in words."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from attention import i18n

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def test_a_hosted_replica_without_the_expanded_model_says_so(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_HOSTED", "1")
    monkeypatch.setenv("ATTENTION_MODEL_CACHE", str(tmp_path))  # nothing expanded here
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("views/write.py")
    at.query_params["lang"] = "zh"
    at.run()
    assert not at.exception
    assert at.error[0].value == i18n.t("write.not_expanded", "zh", folder=str(tmp_path / "smollm2-135m-instruct-f32"))
    assert not list(tmp_path.iterdir())  # nothing was written


def test_the_first_expansion_is_shown_as_a_progress_bar(monkeypatch, tmp_path):
    """The expansion's stages reach the page as a progress bar (the expansion itself is faked: it reports
    its first stages, then fails, which the page says in words)."""
    from attention.lm import smollm2

    def fake_expand(report):
        report("tokenizer", 0.0)
        report("read", 0.2)
        raise RuntimeError("stopped by the test")

    from attention.ui.hosting import cache

    monkeypatch.setenv("ATTENTION_MODEL_CACHE", str(tmp_path))
    monkeypatch.setattr(smollm2, "_expand", fake_expand)
    monkeypatch.setattr(cache, "shelf", cache.Shelf(2**30))  # an empty shelf: the model is not loaded yet
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("views/write.py")
    at.run()
    assert not at.exception
    bars = at.get("progress")
    assert bars and bars[0].proto.value == 20
    assert i18n.t("write.stage_read") in bars[0].proto.text
    assert "stopped by the test" in at.error[0].value
