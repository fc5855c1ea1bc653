"""The test lanes: which tests need a model, a real browser or a deployment.

    python -m pytest                                             everything (CI)
    python -m pytest -m "not model and not browser and not deploy"   the fast lane

The markers are registered in pytest.ini and given by tests/conftest.py, as far as possible without
anyone remembering them:
- browser: every test under tests/e2e (real Chromium, a running app);
- deploy: every test under tests/deploy (nginx, replicas, the deployment's files);
- model: every test that uses a fixture decorated with @loads_model (directly or through another
  fixture), and tests marked by hand (`pytestmark = pytest.mark.model` for a whole file).
A file or folder every test of which a `-m` expression leaves out is not even imported (the same tests
run; the fast lane just skips importing torch, transformers and Playwright for tests it would drop).
A test without the model marker that reads model weights anyway (a checkpoint, a Hugging Face model
folder: MiniLM, the translator, a tiny model saved to a folder; an AppTest page that traces) fails,
saying so: the fast lane stays free of models because nothing can slip into it.
"""

from __future__ import annotations

import ast
import itertools
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from _pytest.mark.expression import Expression  # what -m itself compiles

F = TypeVar("F", bound=Callable)

# what each folder's tests need, whatever their fixtures
BY_FOLDER = {"e2e": "browser", "deploy": "deploy"}
SLOW_MARKS = ("model", "browser", "deploy")
WEIGHT_SUFFIXES = (".pt", ".pth", ".bin", ".safetensors", ".gguf")


def folder_mark(parts: tuple[str, ...]) -> str | None:
    """The mark every test under this path (relative to tests/) gets: ("e2e", "test_x.py") -> "browser"."""
    return BY_FOLDER.get(parts[0]) if len(parts) > 1 else None


def module_marks(source: str) -> set[str]:
    """The marks a test file gives all its tests: `pytestmark = pytest.mark.model` (or a list of such)."""
    if "pytestmark" not in source:
        return set()
    marks = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            values = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
            marks |= {v.attr for v in values if isinstance(v, ast.Attribute) and ast.unparse(v.value) == "pytest.mark"}
    return marks


def never_selected(markexpr: str, marks: set[str]) -> bool:
    """Whether `-m markexpr` deselects every test carrying `marks`, whatever other marks it has: the
    expression is false for every choice of the other names it mentions."""
    if not markexpr:
        return False
    expression = Expression.compile(markexpr)
    others = sorted(set(re.findall(r"[\w:+\-.\[\]\\/]+", markexpr)) - {"and", "or", "not"} - marks)
    if len(others) > 8:
        return False
    for chosen in itertools.product((False, True), repeat=len(others)):
        on = marks | {name for name, yes in zip(others, chosen, strict=True) if yes}
        if expression.evaluate(lambda name, **kwargs: name in on and (not kwargs or name not in marks)):
            return False
    return True


def uses_model_fixture(fixture_functions: Iterable[Callable]) -> bool:
    """Whether any fixture a test uses, directly or through another fixture, was marked @loads_model."""
    return any(getattr(f, "loads_model", False) for f in fixture_functions)


def loads_model(fixture: F) -> F:
    """Put under @pytest.fixture: every test that uses this fixture is marked `model`."""
    fixture.loads_model = True  # type: ignore[attr-defined]
    return fixture


def opens_to_read(mode: str | None, flags: int) -> bool:
    """open()'s audit event: a file opened for reading only (training writes its weights first: not a read)."""
    if isinstance(mode, str):
        return not any(c in mode for c in "wax+")
    return flags & os.O_ACCMODE == os.O_RDONLY


def reads_weights(path: str) -> bool:
    """An open() that means a model is being read: a weights file itself (torch.load of the translator's
    checkpoints), or a model folder's config.json (Hugging Face reads .safetensors outside Python's open;
    reading the tokenizer alone reads it too, which is a model's folder all the same)."""
    p = Path(path)
    if p.suffix in WEIGHT_SUFFIXES:
        return True
    return p.name == "config.json" and any(p.with_name(n).exists() for n in ("model.safetensors", "pytorch_model.bin"))
