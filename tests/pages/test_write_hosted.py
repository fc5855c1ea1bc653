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
