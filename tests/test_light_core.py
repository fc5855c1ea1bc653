"""The light core imports where only numpy is installed.

pyproject.toml declares what `pip install attention-seen-from-inside` brings (numpy, cachetools);
everything else is an extra (torch, transformers, streamlit, plotly, pandas, threadpoolctl, …). A
fresh interpreter with every package but numpy blocked must import the package, its contract, the head
view and all of analysis/, and recompute a site. Blocking is by allow-list, so a package nobody
thought of is blocked too.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIGHT = ["attention", "attention.core", "attention.trace", "attention.trace_count", "attention.errors",
         "attention.blas", "attention.headview", "attention.analysis", "attention.lm", "attention.lm.smollm2", "attention.keys", "attention.view",
         "attention.sources",
         *sorted(f"attention.analysis.{p.stem}" for p in ROOT.glob("attention/analysis/*.py") if p.stem != "__init__")]

# Only the standard library, what is allowed and our own code (the package, the test harness) get through.
ONLY = """
import importlib, sys
ALLOWED = set(sys.stdlib_module_names) | set({allowed!r})
class OnlyTheCore:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] not in ALLOWED:
            raise ImportError(f'{{name}} is blocked for this test')
sys.meta_path.insert(0, OnlyTheCore())
failed = []
for module in {modules!r}:
    try:
        importlib.import_module(module)
    except Exception as exc:
        failed.append(f'{{module}}: {{type(exc).__name__}}: {{exc}}')
{then}
print('\\n'.join(failed) or 'ok')
"""
# a site recomputed from its q, k, v (core.py under blas.one_thread) and checked against the model's numbers
RECOMPUTE = """
if not failed:
    from harness.random_sites import random_site
    site = random_site(6, kind="decoder", heads=2, d_head=8, seed=3)
    if not (site.faithful and site.weights.shape == (2, 6, 6)):
        failed.append('a random site does not recompute to its own weights')
"""


def core_dependencies() -> set[str]:
    """The import names of pyproject's [project] dependencies ('numpy>=2.0' -> 'numpy')."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return {re.split(r"[<>=!~ \[;]", d, maxsplit=1)[0].strip().lower().replace("-", "_") for d in declared}


def run_blocked(modules: list[str], allowed: set[str], then: str = "") -> subprocess.CompletedProcess:
    code = ONLY.format(allowed=sorted(allowed | {"attention", "harness"}), modules=modules, then=then)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)


LIGHT_NEEDS = {"numpy"}


def test_what_the_light_parts_need_is_declared_as_the_packages_own():
    assert LIGHT_NEEDS <= core_dependencies() == {"numpy", "cachetools"}


def test_the_light_parts_import_and_recompute_with_only_numpy_installed():
    done = run_blocked(LIGHT, LIGHT_NEEDS, then=RECOMPUTE)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stdout + done.stderr


def test_the_allow_list_really_blocks():
    """The same blocker stops numpy when numpy is not allowed, and a package of the app's."""
    done = run_blocked(["attention.core", "attention.ui.hosting.cache"], {"cachetools"})
    failed = done.stdout.splitlines()
    assert failed[0].startswith("attention.core: ImportError: numpy is blocked"), done.stdout + done.stderr
    assert failed[1].startswith("attention.ui.hosting.cache: ImportError:"), done.stdout + done.stderr
