"""Text made safe for a plotly label: plotly reads some HTML in text (<b>, <br>, <a href>), so every
token and every name shown on a chart passes through here first. Kept on its own so mutation testing
(qa/mutation.py) can aim at exactly this."""

from __future__ import annotations

import html

from attention.analysis.token_text import byte_of_char, candidate_labels, readable, readable_tokens

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


def candidate_token_labels(candidates: tuple[str, ...] | list[str], context: tuple[str, ...] | list[str]) -> list[str]:
    """Next-token candidates as a chart shows them, each read after `context` (the text's raw tokens): a
    byte piece completing a character the text left unfinished is that character ("…国"), escaped."""
    return [escape(t) if t else EMPTY for t in candidate_labels(candidates, context)]


def hover(token: str, shown: str) -> str:
    """A bar's hover text: the label (already escaped), with the tokenizer's own form beside it when that
    says something ("·cat (Ġcat)"); never the raw form of byte pieces, which reads as mojibake ("äºº")."""
    table = byte_of_char()
    if token == "" or escape(token) == shown or any(table.get(c, 0) >= 0x80 for c in token):  # a byte of UTF-8
        return shown
    return f"{shown} ({escape(token)})"
