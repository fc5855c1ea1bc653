"""Warm before ready imports what the pages' first run would (attention/ui/serve.import_pages): a first run of
the home page took 3.4 s after the models were loaded, a later one 0.6 s, and the difference was imports."""

import subprocess
import sys

from harness.app_server import ROOT

CHECK = """
import sys
from attention.ui.hosting import serve
n = serve.import_pages()
wanted = ["pandas", "attention.ui.pages.writing", "attention.ui.pages.lesson_page", "attention.plots.heatmaps",
          "attention.headview.payload", "threadpoolctl"]
print(n, [m for m in wanted if m not in sys.modules])
"""


def test_warming_imports_the_pages_modules():
    out = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    count, missing = out.stdout.strip().splitlines()[-1].split(" ", 1)
    assert missing == "[]" and int(count) > 100, out.stdout
