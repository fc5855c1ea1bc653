"""The notebook functions behind attention.next_token() and attention.generate()."""

from __future__ import annotations

from attention.lm import models, writer


def next_token(prompt: str, model: str | None = None, temperature: object = 1.0, top_k: object = None,
               top_p: object = None, max_tokens: int = writer.LOCAL.prompt) -> writer.NextToken:
    w = writer.start(models.load(model), prompt, writer.Limits(max_tokens, max_tokens + 1), temperature, top_k,
                     top_p)
    return w.next


def generate(prompt: str, steps: int = 10, model: str | None = None, temperature: object = 1.0,
             top_k: object = None, top_p: object = None, seed: int | None = None,
             max_tokens: int = writer.LOCAL.total) -> writer.Writing:
    w = writer.start(models.load(model), prompt, writer.Limits(max_tokens, max_tokens), temperature, top_k, top_p)
    for _ in range(max(0, int(steps))):
        if w.step(seed=seed) is None:
            break
    return w
