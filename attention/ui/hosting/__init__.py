"""Hosting: what one replica's process keeps and admits, shared by every session — the byte-bounded shelf of
results (models, traces, overviews), what sessions hold between clicks, the admission queue, memory read and
handed back, the deployment's settings, and the replica's start command with /ready and /metrics.

Pages may use hosting; hosting imports no page and no head-view adapter (tests/test_layers.py)."""
