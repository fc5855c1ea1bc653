"""One "Why this word" per (prompt, word) for a test file: the page's Why (270 heads switched off, then the
integrated gradients) is made once with `ig_steps` and read again by every later test that asks for the same
word, whatever the language (the numbers do not depend on it; tests/lm/test_why.py checks them)."""

from __future__ import annotations

from attention.lm import why


def why_once(monkeypatch, memo: dict, ig_steps: int) -> None:
    """Replace why.at_step, for this test, by one that keeps each result in `memo` (the file's own dict)."""
    real = why.at_step

    def at_step(w, step, steps=why.IG_STEPS, top=why.TOP_HEADS, **more):  # more: the page's progress callback
        key = why.target(w, step)
        if key not in memo:
            memo[key] = real(w, step, ig_steps, top, **more)
        return memo[key]

    monkeypatch.setattr(why, "at_step", at_step)
