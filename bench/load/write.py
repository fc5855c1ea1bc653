"""What --write adds to the load benchmark (bench/load/): every session, after Explore, opens the Write page with its
own sentence as the prompt and presses "Next word" N times; at most --wave sessions write at once (the
others wait their wave, as a class would take turns). The warm-up loads all three models first (MiniLM,
the translator, SmolLM2), so the memory figures are those of a replica with everything loaded."""

from __future__ import annotations

import functools
import time
from urllib.parse import parse_qs, urlencode, urlparse

from bench.load.replicas import page_url

WRITE_WARM_PAGES = (("translate", {}), ("write", {}))  # the two models Explore does not load
LONG_FILL = " Then the class read the sentence again, word by word, and wrote what came next."


@functools.cache
def _tokenizer():
    """SmolLM2's tokenizer, loaded once (a class of 30 prompts loaded it 30 times: a minute on a busy box)."""
    from attention.lm import smollm2
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smollm2.folder_path())


def long_prompt(text: str, tokens: int) -> str:
    """The session's own sentence (its marker first) followed by filler to about `tokens` SmolLM2 tokens:
    a class's ~250-token prompts, each still its own (0: the sentence alone)."""
    if not tokens:
        return text
    tok = _tokenizer()
    out = text
    while len(tok(out)["input_ids"]) < tokens:
        out += LONG_FILL
    return out


async def warm_models(page, url: str, wait_idle, timeout_ms: int) -> None:
    """Open the pages that load the translator and SmolLM2 (the first may expand nothing: hosted needs it done)."""
    for name, extra in WRITE_WARM_PAGES:
        await page.goto(page_url(url, name, "The black cat drank the milk", extra), timeout=timeout_ms)
        await wait_idle(page, timeout_ms)


async def write_words(page, url: str, text: str, marker: str, words: int, wait_idle, timeout_ms: int,
                      written: list[int] | None = None) -> list[float]:
    """Open Write with `text` as the prompt, press Next word `words` times; ms from each click to the page idle.
    Raises when the page shows an error, the prompt is not its own, or the link does not hold the words."""
    await page.goto(f"{url}/write?{urlencode({'prompt': text})}", timeout=timeout_ms)
    await wait_idle(page, timeout_ms)
    box = page.get_by_label("Prompt")
    if marker not in await box.input_value():
        raise RuntimeError(f"WRONG: the Write page's prompt is not its own ({marker!r} missing)")
    times = []
    for _ in range(words):
        t0 = time.monotonic()
        await page.get_by_role("button", name="Next word").click()
        await wait_idle(page, timeout_ms)
        times.append((time.monotonic() - t0) * 1000)
        if await page.locator('[data-testid="stException"]').count():
            raise RuntimeError("the Write page showed an error box")
    ids = [int(i) for i in parse_qs(urlparse(page.url).query).get("ids", [""])[0].split(",") if i]
    if written is not None:
        written[:] = ids
    if len(ids) != words:
        raise RuntimeError(f"WRONG: the link holds {len(ids)} written words, not {words}")
    if marker not in await box.input_value():
        raise RuntimeError(f"MIXED: after writing, the prompt is not its own ({marker!r} missing)")
    return times

