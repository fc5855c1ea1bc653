"""The long head view's legend under the strips (attention/headview/assets/long_paint.js, run in node): with only a
query selected it speaks of the row alone, never of an empty key «»; with both, of both. Uses the page's own
strings (attention/i18n/long_text.py) in both languages. The node is Playwright's own (requirements-dev.txt installs
it), so the test runs wherever the suite does, never skipped."""

import json
import subprocess
from pathlib import Path

import pytest

from attention import i18n
from attention.ui.head_view.long_component import LABELS

ASSETS = Path(__file__).resolve().parents[1] / "attention" / "headview" / "assets"


def node() -> str:
    """Playwright's bundled node (its driver runs on it)."""
    from playwright._impl._driver import compute_driver_executable

    return str(compute_driver_executable()[0])


def legend(lang: str, q: int, k: int) -> str:
    labels = {name: i18n.t(f"long.js.{name}", lang) for name in LABELS}
    script = "\n".join([
        "function LvView() {}",
        (ASSETS / "long_draw.js").read_text(), (ASSETS / "long_paint.js").read_text(),
        "const v = Object.create(LvView.prototype);",
        f"Object.assign(v, {{h: {{head: 0}}, L: {json.dumps(labels)}, qLabels: ['⏎', 'green'], kLabels: ['<s>', 'soup'],",
        "  root: {setAttribute() {}}, legend: {}, setSelection() {}, say() {}, render() {}});",
        f"v.setLines({{header: {{head: 0, selection: [{q}, {k}]}}, body: null}});",
        "process.stdout.write(v.legend.textContent);"])
    return subprocess.run([node(), "-e", script], capture_output=True, text=True, check=True, timeout=30).stdout


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_row_alone_names_no_empty_key(lang):
    said = legend(lang, 1, -1)
    assert said == i18n.t("long.js.strips_row", lang, q=1, qt="green")
    assert "«»" not in said and "「」" not in said and "—" not in said
    assert legend(lang, -1, 1) == i18n.t("long.js.strips_col", lang, k=1, kt="soup")
    assert legend(lang, 0, 1) == i18n.t("long.js.strips", lang, q=0, qt="⏎", k=1, kt="soup")
