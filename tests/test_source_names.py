"""Only the registry (attention/sources/) turns a model's name into behaviour: anywhere else, a
comparison with a source's name is a second registry growing in a page. Pure: parses the code."""

from __future__ import annotations

import ast
from pathlib import Path

from attention import sources

ROOT = Path(__file__).resolve().parents[1]
NAMES = {*sources.names(), "model", "translator", "smollm2", "minilm"}  # built-in names, and the pages' choice
CONSTANTS = {"MODEL", "TRANSLATOR", "SMOLLM2", "DEFAULT"}  # module-level names that hold them


def _names_a_source(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.lower() in NAMES
    if isinstance(node, ast.Name):
        return node.id in CONSTANTS
    if isinstance(node, ast.Attribute):
        return node.attr in CONSTANTS or (node.attr == "name" and isinstance(node.value, ast.Name)
                                         and node.value.id in ("src", "source"))
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_source(e) for e in node.elts)
    return False


def comparisons(code: str, where: str) -> list[str]:
    lines = sorted(node.lineno for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Compare)
                   and any(_names_a_source(x) for x in (node.left, *node.comparators)))
    return [f"{where}:{line} compares a source's name" for line in lines]


def outside_the_registry() -> list[Path]:
    files = [*ROOT.glob("attention/**/*.py"), *ROOT.glob("views/*.py"), ROOT / "app.py"]
    return [p for p in files if "sources" not in p.relative_to(ROOT).parts[:2]]


def test_no_module_outside_the_registry_compares_a_source_name():
    found = [f for p in outside_the_registry() for f in comparisons(p.read_text(), str(p.relative_to(ROOT)))]
    assert found == []


def test_the_check_sees_each_way_of_comparing():
    code = ("if source == TRANSLATOR: pass\n"
            "if kind == 'cross' and choice != 'translator': pass\n"
            "x = 1 if src.name in ('minilm', 'x') else 2\n"
            "if sentence.MODEL == s: pass\n"
            "ok = src.home == 'translate'\n")  # a page's name is not a source's
    assert [f.split(":")[1].split()[0] for f in comparisons(code, "f")] == ["1", "2", "3", "4"]


def test_the_registry_reads_back_every_name_it_gives():
    for name in sources.names():
        assert sources.get(name).name == name
    assert sources.get(None) == sources.get("") == sources.get(sources.DEFAULT)
    folder = sources.get("some/folder")
    assert folder.name == "some/folder" and folder.home == "explore"
    assert sources.get(sources.TRANSLATOR).predicts == "translation"
