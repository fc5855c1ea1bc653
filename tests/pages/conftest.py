"""Fixtures of the page tests: one tiny random model folder per kind of source, built once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import tiny_families


class TinyFolders:
    """kind -> the folder of its tiny model (harness.tiny_families.SOURCE_KINDS), built on first use."""

    def __init__(self, root: Path) -> None:
        self.root, self.built, self._tok = root, {}, None

    def __call__(self, kind: str) -> str:
        if kind not in self.built:
            family = tiny_families.SOURCE_KINDS[kind]
            self._tok = self._tok or tiny_families.tokenizer()
            folder = self.root / f"tiny-{family}"  # its name is the name the pages show
            tiny_families.build(family, self._tok, folder)
            self.built[kind] = str(folder)
        return self.built[kind]


@pytest.fixture(scope="session")
def tiny_folders(tmp_path_factory) -> TinyFolders:
    return TinyFolders(tmp_path_factory.mktemp("model-kinds"))
