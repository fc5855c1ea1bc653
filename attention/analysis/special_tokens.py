"""Which tokens are a tokenizer's own markers ([CLS], [SEP], <s>, </s>, <pad>, <|endoftext|>, …).

Heads that park their attention on such tokens (or on the first token) are doing "nothing" with
it; head_stats measures that share, and word_merge never glues a marker onto a word.
"""

from __future__ import annotations

import re

KNOWN = frozenset({
    "[CLS]", "[SEP]", "[PAD]", "[MASK]", "[UNK]",
    "<s>", "</s>", "<pad>", "<unk>", "<mask>", "<bos>", "<eos>", "<cls>", "<sep>",
    "<|endoftext|>", "<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>",
})
# [CLS]-style (BERT), <|…|> (GPT-2, Llama 3, Qwen), </?name> for the usual names (Marian, T5, BART)
_PATTERN = re.compile(
    r"^(\[[A-Z_]{2,}\]|<\|[^|<>\s]+\|>|</?(s|pad|unk|mask|bos|eos|cls|sep|start|end)(_of_text)?>)$",
    re.IGNORECASE,
)


def is_special(token: str) -> bool:
    """True for a tokenizer's marker token; ordinary words and punctuation are not special."""
    return token in KNOWN or bool(_PATTERN.match(token))


def special_positions(tokens: tuple[str, ...] | list[str], include_first: bool = True) -> list[bool]:
    """Per position: a marker token, or (include_first) the very first token, which many heads use
    as a resting place even when the model has no [CLS] or <s>."""
    return [is_special(t) or (include_first and i == 0) for i, t in enumerate(tokens)]


UNKNOWN = frozenset({"[UNK]", "<unk>"})  # what a tokenizer writes for a character it has no piece for


def unknown_count(tokens: tuple[str, ...] | list[str]) -> int:
    """How many tokens are the tokenizer's unknown token: characters the model cannot read (all alike to it)."""
    return sum(1 for tok in tokens if tok in UNKNOWN)
