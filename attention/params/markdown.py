"""Tokens written into the pages' markdown: as inline code, or as literal text. The one place each is
written (the lesson's printout parses `code()`'s output back, so both must agree)."""

from __future__ import annotations

import string


def code(token: str) -> str:
    """A token as inline code in markdown, whatever backticks it holds: a token holding a backtick is
    fenced by two, padded by one space each side (the padding is not part of the code span)."""
    return f"`` {token} ``" if "`" in token else f"`{token}`"


def literal(text: str) -> str:
    """Text as literal markdown (every markdown mark escaped): for labels and words outside code spans.
    Only ASCII punctuation is escaped: markdown escapes nothing else, so "\\·" would print its backslash."""
    return "".join("\\" + c if c in string.punctuation else c for c in text)
