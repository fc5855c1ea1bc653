"""The Write page's "text so far" under a long prompt: the prompt's end, then every written word. Pure."""

from __future__ import annotations


TAIL_CHARS = 240  # of a long prompt, shown again before the written words (the whole prompt is in its box)


def text_tail(text: str, written: str, chars: int = TAIL_CHARS) -> tuple[str, int]:
    """(what the page shows as the text so far, how many of the prompt's characters it leaves out): a
    prompt longer than `chars` (and a little) shows from a word's start about `chars` before its end,
    after "…"; then the written words. Each word would otherwise send the whole prompt again."""
    head = text[: len(text) - len(written)] if written and text.endswith(written) else text
    tail = text[len(head):]
    if len(head) <= chars + chars // 4:
        return text, 0
    cut = len(head) - chars
    space = head.find(" ", cut, cut + chars // 4)
    cut = space + 1 if space >= 0 else cut
    return "…" + head[cut:] + tail, cut
