"""Texts the language model writes itself for the atlas's built-in corpus: every prompt in one batch,
sampled (temperature 0.8, top-p 0.9) with torch's generator seeded once. Written once and kept beside
this file (written_corpus.json), so every page and test reads the same texts without writing them again:

    python -m attention.lm.corpus_writer      # rewrite the file (SmolLM2, a minute or more on 2 cores)

No attention is recorded: these are only texts to read afterwards."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from attention.lm.atlas_corpus import WRITING_PROMPTS, WRITTEN_TOKENS
from attention.capture.loaded import LoadedModel

SEED = 0
TEMPERATURE, TOP_P = 0.8, 0.9
FILE = Path(__file__).with_name("written_corpus.json")


def write(lm: LoadedModel, prompts: list[str] | tuple[str, ...], tokens: int, seed: int = SEED) -> list[str]:
    """Each prompt and what the model wrote after it, as text."""
    tok = lm.tokenizer
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    side, tok.padding_side = tok.padding_side, "left"  # a batch is continued from its right edge
    try:
        enc = tok(list(prompts), return_tensors="pt", padding=True)
    finally:
        tok.padding_side = side
    torch.manual_seed(seed)
    with torch.inference_mode():
        out = lm.model.generate(**enc, do_sample=True, temperature=TEMPERATURE, top_p=TOP_P,
                                max_new_tokens=tokens, pad_token_id=tok.pad_token_id)  # (B, prompt + tokens)
    return [" ".join(t.split()) for t in tok.batch_decode(out, skip_special_tokens=True)]


def read() -> dict:
    """The kept file: {"model", "seed", "temperature", "top_p", "tokens", "texts"}."""
    return json.loads(FILE.read_text(encoding="utf-8"))


def main() -> None:
    from attention.lm import models, smollm2

    texts = write(models.read(smollm2.folder(), label=smollm2.LABEL), WRITING_PROMPTS, WRITTEN_TOKENS)
    FILE.write_text(json.dumps({"model": smollm2.LABEL, "seed": SEED, "temperature": TEMPERATURE, "top_p": TOP_P,
                                "tokens": WRITTEN_TOKENS, "texts": texts}, ensure_ascii=False, indent=1) + "\n",
                    encoding="utf-8")
    print(f"{len(texts)} texts written to {FILE.name}")


if __name__ == "__main__":
    main()
