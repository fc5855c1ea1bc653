"""Text made safe for a plotly label: plotly reads some HTML in text (<b>, <br>, <a href>), so every
token and every name shown on a chart passes through here first. Kept on its own so mutation testing
(bench/mutation.py) can aim at exactly this."""

from __future__ import annotations

import html

from attention.analysis.token_text import readable, readable_tokens

EMPTY = "∅"  # an empty token still needs a visible, clickable label


def escape(text: str) -> str:
    """`text` with &, < and > written as entities (quotes are harmless in plotly text)."""
    return html.escape(text, quote=False)


def label(token: str) -> str:
    """A token as a chart shows it: as the text it stands for ("Ġcat" -> "·cat", analysis/token_text.py),
    escaped, and never blank."""
    return escape(readable(token)) if token else EMPTY


def token_labels(tokens: tuple[str, ...] | list[str]) -> list[str]:
    """Every token of one side as a chart shows it, the tokenizer's scheme read from the whole side
    (a Chinese byte-level token alone carries no marker; its neighbours do)."""
    return [escape(t) if t else EMPTY for t in readable_tokens(tokens)]
