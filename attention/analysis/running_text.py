"""Tokens laid back into running text for a sentence a person reads (the atlas's examples): each token as
(what goes before it, its body), so words are not split by spaces between their pieces ("nam ed") nor run
together, and a marked token keeps a body that can be seen. Pure."""

from __future__ import annotations

from attention.analysis.token_text import LEADING_SPACE, readable_tokens, scheme_of

SPACE_MARK = "␣"  # a marked token that is a space alone: the thin dot would be nearly invisible


def running_pieces(tokens: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """[(before, body), …] one per token: before is " " or "", body the token as a label shows it without
    its leading-space mark. Byte-level and sentencepiece tokens carry their spaces; WordPiece's "##" pieces
    join the word before, other WordPiece tokens stand one space apart. A token of spaces alone keeps its
    spaces as its body (plain spaces: marked_body makes them visible). tokens: (n,) → n pairs."""
    labels = readable_tokens(tokens)
    if scheme_of(tokens) in ("bpe", "sentencepiece"):
        return [("", " " * len(s)) if not s.strip(LEADING_SPACE) else (" ", s[1:]) if s.startswith(LEADING_SPACE)
                else ("", s) for s in labels]
    return [("", s[2:]) if s.startswith("##") and len(s) > 2 else (" " if i else "", s) for i, s in enumerate(labels)]


def marked_body(body: str) -> str:
    """The body of a highlighted token, visible: a space alone as ␣."""
    return SPACE_MARK * len(body) if body and not body.strip(" " + LEADING_SPACE) else body
