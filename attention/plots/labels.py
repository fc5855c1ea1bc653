"""Text made safe for a plotly label: plotly reads some HTML in text (<b>, <br>, <a href>), so every
token and every name shown on a chart passes through here first. Kept on its own so mutation testing
(bench/mutation.py) can aim at exactly this."""

from __future__ import annotations

import html

EMPTY = "∅"  # an empty token still needs a visible, clickable label


def escape(text: str) -> str:
    """`text` with &, < and > written as entities (quotes are harmless in plotly text)."""
    return html.escape(text, quote=False)


def label(token: str) -> str:
    """A token as a chart shows it: escaped, and never blank."""
    return escape(token) if token else EMPTY
