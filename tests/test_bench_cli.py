"""`python -m bench` and `python -m qa`: every module with a main is listed (none forgotten), and each main is the
one shape, `main(argv: list[str] | None = None) -> int` on the shared parser, whose --help shows its docstring."""

from __future__ import annotations

import importlib
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench import cli

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bench", "qa")
HAS_MAIN = re.compile(r"^def main\(", re.M)


def with_main(package: str) -> dict[str, Path]:
    """Every file under the package with a top-level main, by the name it must be listed under (read as text,
    not as the listing reads it): bench/x.py -> x, bench/p/__init__.py -> p, anything deeper -> its path."""
    folder = ROOT / package
    found = {}
    for path in folder.rglob("*.py"):
        if HAS_MAIN.search(path.read_text(encoding="utf-8")):
            rel = path.relative_to(folder)
            if len(rel.parts) == 1:
                name = rel.stem
            elif len(rel.parts) == 2 and rel.name == "__init__.py":
                name = rel.parts[0]
            else:
                name = rel.as_posix()  # a main that no name reaches
            found[name] = path
    return found


def listed(package: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", package, "--list"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, check=True)
    return [line.split()[0] for line in done.stdout.splitlines() if line.strip()]


@pytest.mark.parametrize("package", PACKAGES)
def test_the_list_names_every_module_with_a_main(package):
    names = listed(package)
    assert sorted(names) == sorted(with_main(package)), "a module with main() that `--list` misses, or the reverse"
    assert len(names) == len(set(names))


def test_the_list_has_the_known_ones_and_says_what_each_measures():
    out = subprocess.run([sys.executable, "-m", "bench", "--list"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=True).stdout
    rows = dict(line.split(None, 1) for line in out.splitlines())
    assert {"all", "load", "trace_speed", "browser_latency", "long_context"} <= set(rows)
    assert not {"mutation", "screens", "a11y_audit", "cli"} & set(rows)  # QA tools are apart; cli is no tool
    assert all(len(summary) > 20 and summary != "(no docstring)" for summary in rows.values())


def tools() -> list[tuple[str, str]]:
    return [(package, name) for package in PACKAGES for name in cli.tools(package)]


@pytest.mark.parametrize(("package", "name"), tools())
def test_main_is_the_one_shape_and_its_help_is_its_docstring(package, name, capsys):
    env = dict(os.environ)
    try:
        module = importlib.import_module(cli.tools(package)[name].module)
    finally:  # what a benchmark sets for its own run (offline, quiet transformers) stays out of other tests
        os.environ.clear()
        os.environ.update(env)
    sig = inspect.signature(module.main)
    assert list(sig.parameters) == ["argv"] and sig.parameters["argv"].default is None
    assert sig.return_annotation in (int, "int")
    with pytest.raises(SystemExit) as done:
        module.main(["--help"])
    assert done.value.code == 0
    first = module.__doc__.strip().splitlines()[0]
    assert first[:40] in capsys.readouterr().out


def test_python_m_bench_runs_a_benchmark_by_its_name():
    done = subprocess.run([sys.executable, "-m", "bench", "all", "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m bench all")


def test_an_unknown_name_is_said_and_exits_2():
    done = subprocess.run([sys.executable, "-m", "bench", "no_such_bench"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert "no 'no_such_bench'" in done.stderr and "--list" in done.stderr
