"""Every i18n key the code can ask for, found by reading the source (tests/pages/test_i18n.py uses it).

A key reaches t() in three shapes, and each is found here however it is spelled:
- a literal, or a choice of literals (`t("a" if x else "b")`), in a call to t() or i18n.t();
- a family built at run time: an f-string such as `f"kind.{kind}"` (inside t() or not: `PageSpec.title_key`
  returns `f"page.{self.name}"`), or a prefix handed to `formatter("kind.")`; the test expands each family
  over the values its source table allows;
- a key held in a variable or a table (`LABELS`, `PAGES`, `to.page_name`): every string constant in the
  source shaped like a key of a known namespace ("page.explore") must be a key.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEY_SHAPE = re.compile(r"[a-z][a-z_]*(\.[A-Za-z0-9_]+)+")
T_NAMES = {"t"}  # attention.ui.lang.t and attention.i18n.t (called as i18n.t)
PREFIX_NAMES = {"formatter"}  # formatter(prefix): format_func giving t(prefix + option)


def sources() -> list[Path]:
    """The code that shows words: the pages, the router and the package outside i18n/ itself."""
    files = [ROOT / "app.py", *sorted((ROOT / "views").glob("*.py")), *sorted((ROOT / "attention").rglob("*.py"))]
    return [f for f in files if "i18n" not in f.relative_to(ROOT).parts[:2]]


@dataclass(frozen=True)
class Found:
    literals: dict[str, str]  # key -> where it was first seen ("views/x.py:12")
    families: dict[str, str]  # "kind.{}" -> where
    key_shaped: dict[str, str]  # string constants shaped like a key, anywhere in the source
    dynamic: dict[str, str]  # t(<expression>) whose key is not written at the call: where -> source text


def _pattern(node: ast.JoinedStr) -> str:
    parts = []
    for value in node.values:
        parts.append(value.value if isinstance(value, ast.Constant) else "{}")
    return "".join(parts)


def _callee(node: ast.Call) -> str | None:
    if isinstance(node.func, ast.Name):
        return node.func.id
    if isinstance(node.func, ast.Attribute):
        return node.func.attr
    return None


def scan(files: list[Path] | None = None) -> Found:
    literals: dict[str, str] = {}
    families: dict[str, str] = {}
    key_shaped: dict[str, str] = {}
    dynamic: dict[str, str] = {}

    def key_expr(node: ast.expr, where: str, as_prefix: bool = False) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if as_prefix:
                families.setdefault(node.value + "{}", where)
            else:
                literals.setdefault(node.value, where)
        elif isinstance(node, ast.IfExp):
            key_expr(node.body, where, as_prefix)
            key_expr(node.orelse, where, as_prefix)
        elif isinstance(node, ast.JoinedStr):
            families.setdefault(_pattern(node) + ("{}" if as_prefix else ""), where)
        else:
            dynamic[where] = ast.unparse(node)

    for path in files or sources():
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(), filename=rel)
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Call) and node.args:
                name = _callee(node)
                if name in T_NAMES:
                    key_expr(node.args[0], where)
                elif name in PREFIX_NAMES:
                    key_expr(node.args[0], where, as_prefix=True)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY_SHAPE.fullmatch(node.value):
                key_shaped.setdefault(node.value, where)
            elif isinstance(node, ast.JoinedStr):
                pattern = _pattern(node)
                if re.fullmatch(r"[a-z][a-z_]*\.[A-Za-z0-9_.]*\{\}", pattern):  # "page.{}", "ablation.m.{}"
                    families.setdefault(pattern, where)
    # the f-string inside t()/formatter() walks past the call too: keep the one family, not a second copy
    return Found(literals, families, key_shaped, dynamic)


def namespaces(keys) -> set[str]:
    return {k.split(".")[0] for k in keys if "." in k}


def family_regex(pattern: str) -> re.Pattern[str]:
    return re.compile("".join(re.escape(p) if p != "{}" else r"[^.]+" for p in re.split(r"(\{\})", pattern)))
