"""README's notebook examples run as written (issue 51: the API's names may change, its examples must keep
working): every ```python block of "From a notebook", in order, in one namespace, on the real models
(MiniLM, the translator, SmolLM2). The two placeholder folders are tiny random GPT-2 and T5 folders made here.
A block that raises fails with the block's number and the line it was on."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from harness import tiny_families

pytestmark = pytest.mark.model

README = Path(__file__).resolve().parents[1] / "README.md"


def notebook_blocks() -> list[str]:
    text = README.read_text()
    section = text[text.index("## From a notebook"):text.index("## Layout")]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_the_readme_has_its_notebook_examples():
    blocks = notebook_blocks()
    assert len(blocks) >= 9 and "attention.trace(" in blocks[0] and "attention.compare(" in blocks[-1]


def test_every_notebook_example_runs_as_written(tmp_path, monkeypatch, smollm2):
    tok = tiny_families.tokenizer()
    folders = {}
    for name in ("gpt2", "t5"):
        folders[name] = tmp_path / name
        tiny_families.build(name, tok, folders[name])
    monkeypatch.chdir(tmp_path)  # save_html writes trace.html here
    namespace: dict = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the examples use no deprecated name
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"(?!attention)")  # libraries'
        for i, block in enumerate(notebook_blocks()):
            code = (block.replace('"path/to/any/hf/model/folder"', repr(str(folders["gpt2"])))
                    .replace('"path/to/t5"', repr(str(folders["t5"]))))
            try:
                exec(compile(code, f"README block {i + 1}", "exec"), namespace)  # noqa: S102 - our own README
            except Exception as e:  # noqa: BLE001 - say which block and line
                pytest.fail(f"README's notebook block {i + 1} failed: {type(e).__name__}: {e}")
    assert (tmp_path / "trace.html").stat().st_size > 10_000
    assert namespace["tr"].site(3).kind == "encoder" and namespace["long"].is_long
    assert namespace["r"].top("induction", 1)[0].head == ("decoder", 18, 6)  # the README's own figure
