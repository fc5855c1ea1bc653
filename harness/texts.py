"""Texts of an exact token length for the default model, so figures are comparable across runs."""

from __future__ import annotations

from attention.capture import hf_model

WORDS = """
the black cat drank the milk while a small dog watched from under the old wooden table near
the open window of a quiet house in the green hills
""".split()  # noqa: SIM905 - a word list reads better as text


def text_of_tokens(n_tokens: int) -> str:
    """A sentence that the default tokenizer reads as exactly n_tokens tokens ([CLS] and [SEP] included)."""
    tok = hf_model.load().tokenizer
    words: list[str] = []
    i = 0
    while len(tok(" ".join(words))["input_ids"]) < n_tokens:
        words.append(WORDS[i % len(WORDS)])
        i += 1
    assert len(tok(" ".join(words))["input_ids"]) == n_tokens
    return " ".join(words)
