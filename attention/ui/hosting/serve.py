"""One replica's process: warm before ready. The start command (deploy/serve.sh) runs

    python -m attention.ui.hosting.serve run app.py --server.port=8501 ...      (Streamlit's own arguments)

which starts, beside Streamlit's server in this same process, (1) a thread that loads the models into
the app's one cache (MiniLM, the translator, SmolLM2 when expanded) and computes the home page's trace
once, and (2) a small HTTP server on ATTENTION_READY_PORT (default 8502) answering

    /ready     200 "ready" once warm, else 503: the readiness probe, so no visitor waits for a model load
    /metrics   Prometheus text: queue length, turns running, RSS, sessions' Writings, warm or not, and every
               cache's bytes held beside its budget (settings.budgets())

Streamlit's /_stcore/health answers as soon as its server is up, which is the liveness probe's question.
The script runs share these modules (one interpreter), so what the thread loads is what they find.
ATTENTION_WARM=0 skips the warming (ready at once).
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log = logging.getLogger("attention.serve")
warm_done = threading.Event()
warm_seconds: list[float] = []


def warm() -> None:
    """Load what a first visitor would otherwise wait for; ready even if a model cannot be loaded (the
    pages say so in words), never stuck unready."""
    t0 = time.monotonic()
    try:
        from attention.lm import smollm2
        from attention.ui.hosting import cache, settings
        from attention.view import EXPLORE_TEXT

        cache.trace(None, EXPLORE_TEXT)  # MiniLM, and the first page's own trace
        cache.translator()
        if smollm2.available() and (smollm2.is_expanded() or not settings.hosted()):
            cache.language_model()
        modules = import_pages()
        log.warning("warm: %s loaded, %d modules imported, in %.1f s", cache.models_loaded(), modules,
                    time.monotonic() - t0)
    except Exception:  # noqa: BLE001 - a model that fails is said by its page; the replica still serves
        log.exception("warming failed; serving anyway")
    finally:
        warm_seconds.append(time.monotonic() - t0)
        warm_done.set()


def import_pages() -> int:
    """Import what the pages' first run would (every attention.ui module with theirs: pandas, Plotly's
    validators through one figure written out), so a first visitor waits for none of it: a first run of the
    home page took 3.4 s after the models were loaded, later runs 0.6 s. How many modules were imported."""
    import importlib
    import pkgutil
    import sys

    import attention.ui
    import plotly.graph_objects as go

    before = len(sys.modules)
    for info in pkgutil.walk_packages(attention.ui.__path__, "attention.ui."):
        if info.name != __name__:
            importlib.import_module(info.name)
    go.Figure(go.Heatmap(z=[[0.0, 1.0]]), layout={"title": {"text": "warm"}}).to_json()
    for name in ("threadpoolctl", "streamlit.emojis", "streamlit.material_icon_names"):  # the pages' icons, blas
        try:
            importlib.import_module(name)
        except ImportError:  # a newer Streamlit may have moved them: only a first visit's wait is at stake
            pass
    return len(sys.modules) - before


def metrics() -> str:
    from attention import head_cache
    from attention.ui.hosting import admission, cache, held, memory, settings, view_cache

    models = len(cache.models_loaded())
    lines = [
        ("attention_ready", int(warm_done.is_set())),
        ("attention_models_loaded", models),
        ("attention_queue_waiting", admission.gate.queued),
        ("attention_turn_mean_seconds", round(admission.gate.mean_s, 3)),
        ("attention_rss_bytes", memory.rss_bytes()),
        ("attention_sessions_bytes", held.SESSIONS.nbytes()),
        ("attention_memory_waits_total", admission.gate.memory_waits),
        ("attention_cache_bytes", cache.shelf.usage()[0]),
        ("attention_head_cache_bytes", head_cache.held()),
        ("attention_view_cache_bytes", view_cache.views.held),
        *((f"attention_{name}_budget_bytes", value) for name, value in settings.budgets().items()),
    ]
    return "".join(f"{name} {value}\n" for name, value in lines)


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path == "/ready":
            ok = warm_done.is_set()
            self._send(200 if ok else 503, "ready\n" if ok else "warming\n")
        elif self.path == "/metrics":
            self._send(200, metrics())
        else:
            self._send(404, "not found\n")

    def _send(self, status: int, body: str) -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:  # probes every few seconds: not in the replica's log
        pass


def main() -> None:
    port = int(os.environ.get("ATTENTION_READY_PORT", "8502"))
    address = os.environ.get("ADDRESS", "127.0.0.1")
    server = ThreadingHTTPServer((address, port), Handler)
    threading.Thread(target=server.serve_forever, name="ready-probe", daemon=True).start()
    if os.environ.get("ATTENTION_WARM", "1") == "0":
        warm_done.set()
    else:  # a daemon: a replica stopped while warming stops at once
        threading.Thread(target=warm, name="warm", daemon=True).start()
    from streamlit.web import cli

    from attention.ui.hosting import fragment_rescue

    fragment_rescue.install()  # before the first session (app.py installs it too, for `streamlit run app.py`)
    sys.argv = ["streamlit", *sys.argv[1:]]
    sys.exit(cli.main())


if __name__ == "__main__":
    main()
