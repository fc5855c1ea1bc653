"""The command line every benchmark script shares: its docstring as --help, and --json for run_all.py."""

from __future__ import annotations

import argparse
import json


def bench_parser(doc: str | None) -> argparse.ArgumentParser:
    """A parser showing `doc` as written (it holds the usage line) with the --json option run_all.py passes."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--json", help="also write the results to this file")
    return ap


def write_json(path: str | None, results: object) -> None:
    """Write the results where --json asked (run_all.py collects them from there); nothing without it."""
    if path:
        with open(path, "w") as f:
            json.dump(results, f, indent=2)
