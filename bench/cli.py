"""What every benchmark shares: its command line (its docstring as --help, --json for its results), and how
`python -m bench` finds it and runs it.

A benchmark is a module bench/NAME.py, or a package bench/NAME/ (its __init__.py), with a top-level
`def main(argv: list[str] | None = None) -> int`: NAME is its name on the command line, the first line of its
docstring its summary in `--list`. They are found by reading the files (ast), never by importing them: the
list is instant and each benchmark's heavy imports (torch, Playwright) wait until it runs. The QA tools in
qa/ are found and run the same way (`python -m qa NAME`).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import sys
from pathlib import Path
from typing import NamedTuple


def bench_parser(doc: str | None, results: bool = True) -> argparse.ArgumentParser:
    """The parser every benchmark starts from: `doc` shown as written (it holds the usage lines) and, where
    the benchmark has results to keep (`results`), --json (all.py passes it to collect them).

    Args:
        doc: the module's docstring.
        results: whether to offer --json.

    Returns:
        The parser, for the benchmark's own options.
    """
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    if results:
        ap.add_argument("--json", metavar="PATH", help="also write the results to this file")
    return ap


def write_json(path: str | None, results: object) -> None:
    """Write the results where --json asked (all.py collects them from there); nothing without it."""
    if path:
        with open(path, "w") as f:
            json.dump(results, f, indent=2, ensure_ascii=False, default=str)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(-(-p * len(s) // 100)) - 1))
    return s[k]


class Tool(NamedTuple):
    """One runnable module of a package: its name, its module path and its docstring's first line."""

    name: str
    module: str
    summary: str


def _tool(package: str, name: str, path: Path) -> Tool | None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if not any(isinstance(n, ast.FunctionDef) and n.name == "main" for n in tree.body):
        return None
    doc = (ast.get_docstring(tree) or "").strip()
    module = f"{package}.{name}"
    return Tool(name, module, doc.splitlines()[0] if doc else "(no docstring)")


def tools(package: str = "bench") -> dict[str, Tool]:
    """Every module (or sub-package) of `package` with a top-level main, by name, sorted.

    Args:
        package: "bench" or "qa".

    Returns:
        name -> Tool.
    """
    folder = Path(importlib.import_module(package).__path__[0])
    found = {}
    for path in sorted(folder.glob("*.py")) + sorted(folder.glob("*/__init__.py")):
        name = path.stem if path.name != "__init__.py" else path.parent.name
        if not name.startswith("_") and (tool := _tool(package, name, path)):
            found[name] = tool
    return dict(sorted(found.items()))


def listing(package: str = "bench") -> str:
    """`--list`: one line a tool, its name and its summary."""
    found = tools(package)
    width = max(map(len, found), default=0)
    return "\n".join(f"{t.name:<{width}}  {t.summary}" for t in found.values())


# short names the issues and notes use for a tool whose module says more
ALIASES = {"class": "class_browsers"}


def dispatch(package: str, argv: list[str]) -> int:
    """`python -m bench NAME [options]`: run NAME's main with the options; `--list` (or nothing) lists them.

    Args:
        package: "bench" or "qa".
        argv: the command line after `python -m package`.

    Returns:
        The exit status: the tool's own, 2 for an unknown name.
    """
    usage = (f"usage: python -m {package} NAME [options]    run one (NAME --help: its options)\n"
             f"       python -m {package} --list              every one, with what it measures")
    if not argv or argv[0] in ("-h", "--help", "--list"):
        print(listing(package) if argv[:1] == ["--list"] else f"{usage}\n\n{listing(package)}")
        return 0 if argv else 2
    found = tools(package)
    name = argv[0].replace("-", "_")
    name = ALIASES.get(name, name) if package == "bench" else name
    if name not in found:
        print(f"{package}: no {name!r} here (python -m {package} --list)", file=sys.stderr)
        return 2
    sys.argv[0] = f"python -m {package} {name}"  # argparse's name for the tool in its usage line
    status = importlib.import_module(found[name].module).main(argv[1:])
    return int(status or 0)
