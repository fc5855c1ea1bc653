"""No import circles among the modules of `attention/`.

Every import is an edge, wherever it stands: at the top, inside a function (a lazy import only delays
the circle) or under `if TYPE_CHECKING:` (a type named from a module that imports us back is the same
knot, waiting). `from attention.x import y` is an edge to attention.x.y when y is a module, else to
attention.x. Being inside a package is no edge: importing attention.capture.hf_model runs
attention/__init__.py first, but that is Python's order, not a dependency the code wrote.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path, root: Path = ROOT) -> str:
    """attention/capture/hf_model.py -> 'attention.capture.hf_model'; a package's __init__.py -> the package."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _absolute(node: ast.ImportFrom, here: str, is_package: bool) -> str | None:
    """The module a `from ... import` names, relative imports resolved against `here`."""
    if node.level == 0:
        return node.module
    base = here.split(".") if is_package else here.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def edges(path: Path, known: set[str], root: Path = ROOT) -> set[tuple[str, int]]:
    """(module of ours, line) for every import in the file, wherever it stands."""
    here = module_name(path, root)
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {(a.name, node.lineno) for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, here, path.name == "__init__.py")
            if base is None:
                continue
            for alias in node.names:
                found.add((f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base, node.lineno))
    return {(m, line) for m, line in found if m in known and m != here}


def graph(files: list[Path], root: Path = ROOT) -> dict[str, dict[str, int]]:
    """module -> {module it imports: first line}."""
    known = {module_name(p, root) for p in files}
    out: dict[str, dict[str, int]] = {}
    for path in files:
        targets = out.setdefault(module_name(path, root), {})
        for module, line in sorted(edges(path, known, root)):
            targets.setdefault(module, line)
    return out


def cycles(g: dict[str, dict[str, int]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted: one per circle
    knot, so a failure names each knot once."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in g.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(found)


def described(g: dict[str, dict[str, int]], group: list[str]) -> str:
    """'a -> b (line 3), b -> a (line 9)': the arrows inside one knot, with where they are written."""
    members = set(group)
    return ", ".join(f"{a} -> {b} (line {line})" for a in group for b, line in sorted(g[a].items()) if b in members)


def test_no_module_of_attention_imports_itself_round_a_circle():
    g = graph(sorted(ROOT.glob("attention/**/*.py")))
    assert [described(g, c) for c in cycles(g)] == []


def test_the_checker_finds_a_lazy_circle_a_type_only_circle_and_a_relative_one(tmp_path):
    """The checker itself, on a small tree: a lazy import inside a function, a TYPE_CHECKING import and
    a relative import each close a circle; a chain that only runs one way is no circle."""
    files = {
        "attention/__init__.py": "from attention.trace import Trace\n",
        "attention/trace.py": "def show():\n    from attention.view import draw\n",
        "attention/view.py": "from attention.trace import Trace\n",
        "attention/cap/__init__.py": "",
        "attention/cap/model.py": "from attention.cap.inputs import encode\n",
        "attention/cap/inputs.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                   "    from attention.cap.model import Loaded\n",
        "attention/cap/eager.py": "from . import model\n",
        "attention/cap/relative.py": "from .eager import x\n",
        "attention/core.py": "import numpy\n",
        "attention/analysis.py": "from attention import core\nfrom attention.trace import Trace\n",
    }
    for name, code in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(code)
    g = graph(sorted(tmp_path.glob("attention/**/*.py")), root=tmp_path)
    assert g["attention.cap.eager"] == {"attention.cap.model": 1}
    assert g["attention.cap.relative"] == {"attention.cap.eager": 1}
    assert g["attention.analysis"] == {"attention.core": 1, "attention.trace": 2}
    assert cycles(g) == [["attention.cap.inputs", "attention.cap.model"], ["attention.trace", "attention.view"]]
    assert described(g, ["attention.trace", "attention.view"]) == (
        "attention.trace -> attention.view (line 2), attention.view -> attention.trace (line 1)")
