"""The package is layered by what each part may import, and the light parts need no torch.

    views/, app.py → attention/ui/pages/ → attention/ui/head_view/ → attention/ui/ (shared glue)
                   → attention/ui/hosting/ → attention/lesson/ → attention/plots/, attention/headview/,
                     attention/analysis/ → attention/trace.py → attention/core.py
    attention/capture/ (Hugging Face) and attention/translator/ build traces with trace, core, analysis
    attention/i18n/ holds words, attention/keys.py the session keys' names and attention/params/ a page's
    pure parameters; none of them imports anything above it

Every `import` in every file is parsed (lazy imports inside functions included) and checked against
the table below; Streamlit may be imported only by ui/, views/ and app.py. Inside ui/, hosting imports no
page part and no head-view adapter, and of the shared glue only the two modules that import nothing of ui/
(lang, state); a head-view adapter imports no page part. No circles: tests/test_import_cycles.py; the light
parts with numpy alone: tests/test_light_core.py.
"""

from __future__ import annotations

import ast
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]

# layer -> the layers of ours it may import (its own always allowed)
MAY_IMPORT: dict[str, set[str]] = {
    "core": {"blas"},
    "blas": set(),
    "i18n": set(),
    "keys": set(),
    "view": {"keys"},  # a page's view as one value, and its link (pure)
    "params": set(),  # a page's parameters: the selection, text as input, its tail, literal markdown (pure)
    "trace": {"core", "blas"},
    "package": {"trace", "api"},  # attention/__init__.py: the functions (api/) and the result types, lazily
    "api": {"trace"},  # the public functions: the rest only inside them (LAZY_ONLY)
    "analysis": {"trace", "core", "blas"},
    "head_mask": {"analysis"},  # one switch for heads off, shared by every back end (torch)
    "capture": {"package", "trace", "core", "blas", "analysis", "head_mask"},
    "translator": {"trace", "core", "blas", "analysis", "head_mask"},
    "lm": {"errors", "trace", "core", "blas", "analysis", "capture", "head_mask"},  # the language model writing word by word
    # one Source per model the app can show, and the registry from a link's name to it
    "sources": {"errors", "trace", "core", "blas", "analysis", "capture", "translator", "lm"},
    "plots": {"analysis", "trace", "core", "params"},
    "headview": {"analysis", "trace", "core", "params"},
    # the lesson is pure: it reads the translator (its grammar, lazily) but never Streamlit
    "lesson": {"trace", "core", "blas", "analysis", "translator", "plots", "i18n", "keys", "params"},
}
BELOW_UI = {"package", "trace", "core", "blas", "analysis", "capture", "translator", "lm", "sources", "plots",
            "headview", "i18n", "keys", "view", "params", "lesson"}
MAY_IMPORT |= {
    # hosting: caches, budgets, admission, serving; of the shared glue only lang and state (HOSTING_USES)
    "ui.hosting": BELOW_UI | {"ui"},
    "ui": BELOW_UI | {"ui.hosting"},  # shared glue: the sentence traced, the language, charts, pickers
    "ui.head_view": BELOW_UI | {"ui", "ui.hosting"},  # the head view's adapters
    "ui.pages": BELOW_UI | {"ui", "ui.hosting", "ui.head_view"},  # per-page glue
    "views": BELOW_UI | {"ui", "ui.hosting", "ui.head_view", "ui.pages"},
}
HOSTING_USES = {"attention.ui.lang", "attention.ui.state"}  # the shared glue that imports nothing else of ui/
# inside functions only: attention/api/'s trace(), translate(), show(), save_html(), head_effects(), next_token(),
# generate(), …, and the result types attention/__init__.py reads when first named
LAZY_ONLY = {(layer, below) for layer in ("package", "api")
             for below in ("capture", "translator", "headview", "sources", "lm", "analysis")}
STREAMLIT_LAYERS = {"ui", "ui.hosting", "ui.head_view", "ui.pages", "views"}
UI_PARTS = ("hosting", "head_view", "pages")


def layer_of_module(module: str) -> str | None:
    """'attention.analysis.anatomy' -> 'analysis'; None for what is not ours."""
    parts = module.split(".")
    if parts[0] == "views":
        return "views"
    if parts[0] != "attention":
        return None
    if len(parts) == 1:
        return "package"
    if parts[1] == "ui" and len(parts) > 2 and parts[2] in UI_PARTS:
        return f"ui.{parts[2]}"
    # trace_count, head_cache, site_rows and errors are parts of the contract: they import nothing above core
    contract = {"core": "core", "trace": "trace", "trace_count": "trace", "head_cache": "trace", "byte_lru": "trace", "site_rows": "trace", "site": "trace", "site_make": "trace", "errors": "trace", "ids": "trace", "blas": "blas",
                "keys": "keys"}
    return contract.get(parts[1], parts[1])


def layer_of_file(path: Path) -> str:
    rel = path.relative_to(ROOT)
    if rel.parts[0] in ("views",) or rel.name == "app.py":
        return "views"
    if rel == Path("attention/__init__.py"):
        return "package"
    return layer_of_module(".".join(rel.with_suffix("").parts)) or "?"


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """(module, line, at top level) for every import in the file; `from attention import x` counts as
    attention.x (x may be a module), and `from attention.ui import x` as attention.ui.x."""
    tree = ast.parse(path.read_text(), str(path))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno, id(node) in top) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "attention" or node.module == "attention.ui":  # x may be a module (a layer)
                found += [(f"{node.module}.{a.name}", node.lineno, id(node) in top) for a in node.names]
            else:
                found.append((node.module, node.lineno, id(node) in top))
    return found


def ours() -> list[Path]:
    files = [*ROOT.glob("attention/**/*.py"), *ROOT.glob("views/*.py"), ROOT / "app.py"]
    return sorted(files)


def violations(files: list[Path], layer_of=layer_of_file) -> list[str]:
    found = []
    for path in files:
        layer = layer_of(path)
        for module, line, at_top in imports(path):
            where = f"{path.name}:{line}"
            if module.split(".")[0] == "streamlit" and layer not in STREAMLIT_LAYERS:
                found.append(f"{where} imports Streamlit outside ui/, views/, app.py")
            target = layer_of_module(module)
            if module in ("attention.KINDS", "attention.Site", "attention.Trace", "attention.ModelLoadError"):
                target = "package" if module.endswith("ModelLoadError") else "trace"
            # `import attention.ui`: the replica's warm-up imports every module by name (serve.import_pages)
            shared_ok = module == "attention.ui" or any(module == m or module.startswith(m + ".") for m in HOSTING_USES)
            if layer == "ui.hosting" and target == "ui" and not shared_ok:
                found.append(f"{where} (ui.hosting) imports {module}: hosting uses only {sorted(HOSTING_USES)}")
                continue
            if target is None or target == layer:
                continue
            if target not in MAY_IMPORT.get(layer, set()) and (layer, target) not in LAZY_ONLY:
                found.append(f"{where} ({layer}) imports {module} ({target}): an arrow back up")
            elif (layer, target) in LAZY_ONLY and at_top:
                found.append(f"{where} imports {module} at the top: the package must stay light")
    return found


def test_every_import_flows_one_way():
    assert violations(ours()) == []


def test_the_rule_catches_an_arrow_back_up(tmp_path):
    """The checker itself: a plot importing Streamlit and a page helper, analysis importing plotting
    lazily, and the package importing torch's side at the top."""
    files = {"plot.py": ("plots", "import streamlit as st\nfrom attention.ui import cache\n"),
             "anat.py": ("analysis", "def f():\n    from attention.plots import heatmaps\n"),
             "init.py": ("package", "from attention.capture import hf_model\n"),
             "host.py": ("ui.hosting", "from attention.ui.pages import writing\nfrom attention.ui import sentence\n"),
             "adapter.py": ("ui.head_view", "from attention.ui.pages.writing import slot\n")}
    for name, (_, code) in files.items():
        (tmp_path / name).write_text(code)
    found = violations([tmp_path / n for n in files], layer_of=lambda p: files[p.name][0])
    assert len(found) == 7, found
    assert any("(ui.hosting) imports attention.ui.pages (ui.pages)" in f for f in found)
    assert any("(ui.hosting) imports attention.ui.sentence" in f for f in found)
    assert any("(ui.head_view) imports attention.ui.pages.writing (ui.pages)" in f for f in found)
    assert any("Streamlit" in f for f in found)
    assert any("(plots) imports attention.ui.cache (ui)" in f for f in found)
    assert any("(analysis) imports attention.plots (plots)" in f for f in found)
    assert any("at the top: the package must stay light" in f for f in found)


def test_no_two_modules_share_a_name_across_layers():
    names: dict[str, list[str]] = {}
    for path in ours():
        if path.name != "__init__.py":
            names.setdefault(path.stem, []).append(str(path.relative_to(ROOT)))
    assert {n: p for n, p in names.items() if len(p) > 1} == {}


def test_every_package_says_what_it_may_import():
    for init in [*ROOT.glob("attention/*/__init__.py"), *ROOT.glob("attention/ui/*/__init__.py")]:
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc, f"{init.relative_to(ROOT)} has no docstring"


# That the light parts import with only numpy installed (every other package blocked) is
# tested in tests/test_light_core.py.
