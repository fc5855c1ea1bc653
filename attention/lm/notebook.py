"""The notebook functions behind attention.next_token(), generate() and evict(), on a loaded model (the
package asks the source registry for it). max_tokens None: the model's whole context (LOCAL, cut to the
model's own positions by the writer)."""

from __future__ import annotations

from attention.lm import evict as evict_
from attention.lm import writer
from attention.lm.writer import LoadedModel


def _limits(max_tokens: int | None) -> writer.Limits:
    """Prompt and written tokens together: the model's whole context when None."""
    return writer.LOCAL if max_tokens is None else writer.Limits(max_tokens, max_tokens)


def next_token(prompt: str, lm: LoadedModel, temperature: object = 1.0, top_k: object = None,
               top_p: object = None, max_tokens: int | None = None) -> writer.NextToken:
    limits = writer.LOCAL if max_tokens is None else writer.Limits(max_tokens, max_tokens + 1)
    w = writer.start(lm, prompt, limits, temperature, top_k, top_p)
    return w.next


def generate(prompt: str, lm: LoadedModel, steps: int = 10, temperature: object = 1.0,
             top_k: object = None, top_p: object = None, seed: int | None = None,
             max_tokens: int | None = None) -> writer.Writing:
    w = writer.start(lm, prompt, _limits(max_tokens), temperature, top_k, top_p)
    for _ in range(max(0, int(steps))):
        if w.step(seed=seed) is None:
            break
    return w


def evict(prompt: str, lm: LoadedModel, policy: str = "streaming", budget: int = 64, sinks: int = 4, steps: int = 10,
          temperature: object = 1.0, top_k: object = None, top_p: object = None, seed: int | None = None,
          max_tokens: int | None = None) -> evict_.Eviction:
    e = evict_.start(lm, prompt, policy, budget, sinks, temperature, top_k, top_p, _limits(max_tokens))
    for _ in range(max(0, int(steps))):
        if e.step(seed=seed) is None:
            break
    return e
