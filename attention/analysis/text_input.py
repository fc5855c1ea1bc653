"""What we accept as text, and the plain-language message when we cannot use it."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

MAX_CHARS = 20_000  # far beyond any model's token limit; keeps tokenising cheap for pasted books


@dataclass(frozen=True)
class CheckedText:
    text: str  # what goes to the model ("" when nothing usable was given)
    message: str | None = None  # a prompt or notice for the person, if any
    cut_chars: int = 0


def check_text(raw: str | None, max_chars: int = MAX_CHARS) -> CheckedText:
    """Drop control characters (keeping ordinary white space), cap the length, refuse blank text."""
    raw = raw or ""
    cleaned = "".join(
        ch for ch in raw if ch in "\n\t " or unicodedata.category(ch) not in ("Cc", "Cs")
    )
    if not cleaned.strip():
        return CheckedText("", "Type a sentence above to see how its words attend to each other.")
    cut = max(0, len(cleaned) - max_chars)
    if cut:
        return CheckedText(cleaned[:max_chars], f"The text was cut to its first {max_chars:,} characters.", cut)
    return CheckedText(cleaned)
