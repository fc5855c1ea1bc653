"""A needle in a haystack, as a prompt: filler cut to a length in tokens, the needle placed at a sentence
boundary at a depth, the question asked at the end, in the model's chat template when it has one.

The built-in haystack is the corpus SmolLM2 wrote itself (attention/lm/written_corpus.json, 24 short texts
written from fixed prompts with a fixed seed), each cut at its last full stop and repeated as often as the
length needs: a repetitive filler, as in the measurements the issue started from. A person's own text is
used as given (repeated too when it is shorter than the length).

    p = build(tokenizer, NEEDLES[0].needle, NEEDLES[0].question, None, length=2048, depth=0.5)
    p.ids[p.span[0]: p.span[1]]      # the needle's tokens
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from attention.lm import corpus_writer

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")  # Chinese full stops need no space after them
MIN_LENGTH = 64  # tokens: shorter than this there is no haystack to hide a needle in


class Refused(ValueError):
    """A needle, question, haystack or grid that cannot be asked: the English message for a notebook, and its
    text key and fields (attention/i18n/needle_text.py, "nd.err.*") for a page in either language."""

    def __init__(self, key: str, message: str, **fields: object) -> None:
        super().__init__(message)
        self.key, self.fields = key, fields


@dataclass(frozen=True)
class Needle:
    """A fact stated once, the question that asks for it, and the words a right answer contains."""

    needle: str
    question: str
    answer: str


NEEDLES = (
    Needle("The secret ingredient of Anna's soup is a spoon of green honey.",
           "What is the secret ingredient of Anna's soup?", "green honey"),
    Needle("The blue key to the old lighthouse is hidden under the third stone.",
           "Where is the blue key to the old lighthouse hidden?", "third stone"),
    Needle("Professor Lin's favourite number is forty-seven.",
           "What is Professor Lin's favourite number?", "forty-seven|47"),
)


@dataclass(frozen=True)
class Prompt:
    """The prompt as read: its text, token ids, the needle's token span [start, end) and where it landed."""

    text: str
    ids: tuple[int, ...]
    span: tuple[int, int]
    depth: float  # the needle's start as a share of the filler tokens before it + after it
    builtin: bool  # the haystack was the built-in one
    kept_sentences: int = 0  # the haystack's sentences used (once each; more when it was repeated)
    sentences: int = 0  # the haystack's sentences given
    kept_tokens: int = 0  # the filler's tokens in the prompt
    given_tokens: int = 0  # the haystack's tokens given (each sentence counted once)
    last_kept: str = ""  # the last sentence used: a person's haystack is cut after it

    @property
    def cut(self) -> bool:
        """A person's haystack was longer than the length allows: only its first `kept_sentences` were read."""
        return not self.builtin and self.kept_sentences < self.sentences


def builtin_sentences() -> list[str]:
    """The built-in filler: the model-written corpus, each text cut at its last sentence end, as sentences."""
    out: list[str] = []
    for text in corpus_writer.read()["texts"]:
        end = max(text.rfind(c) for c in ".!?")
        if end > 0:
            out.extend(s.strip() for s in _SENTENCE_END.split(text[: end + 1]) if s.strip())
    return out


def sentences(haystack: str | None) -> list[str]:
    """The haystack's sentences (the built-in one when None or blank). Raises ValueError when there are none."""
    if haystack is None or not haystack.strip():
        return builtin_sentences()
    out = [s.strip() for s in _SENTENCE_END.split(" ".join(haystack.split())) if s.strip()]
    if not out:
        raise Refused("nd.err.haystack", "The haystack has no words: give a text, or none for the built-in one.")
    return out


def _content(before: list[str], needle: str, after: list[str], question: str) -> str:
    return " ".join([*before, needle, *after]) + f"\n\nQuestion: {question} Answer briefly."


def _render(tokenizer, content: str) -> str:
    if getattr(tokenizer, "chat_template", None):
        return tokenizer.apply_chat_template([{"role": "user", "content": content}], tokenize=False,
                                             add_generation_prompt=True)
    return content + "\nAnswer:"


def _count(tokenizer, text: str) -> int:
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def build(tokenizer, needle: str, question: str, haystack: str | None = None, length: int = 2048,
          depth: float = 0.5) -> Prompt:
    """The prompt of about `length` tokens (never more) with the needle at a sentence boundary near `depth`.

    Args:
        tokenizer: the model's tokenizer (a fast one: the needle is found by character offsets).
        needle, question: the fact and the question (neither blank).
        haystack: the filler text; None or blank: the built-in one (the model-written corpus).
        length: the prompt's tokens, template and question included (at least MIN_LENGTH).
        depth: where the needle goes, 0 (first) … 1 (last), as a share of the filler.

    Returns:
        Prompt: `.ids`, `.span` (start, end) of the needle's tokens, `.depth` where it landed.

    Raises:
        Refused (a ValueError): blank needle or question, a length below MIN_LENGTH or one the needle and question
            alone fill, a depth outside 0..1.
    """
    needle, question = " ".join((needle or "").split()), " ".join((question or "").split())
    if not needle or not question:
        raise Refused("nd.err.blank", "Give a needle (the fact) and a question that asks for it.")
    if int(length) < MIN_LENGTH:
        raise Refused("nd.err.short", f"The length must be at least {MIN_LENGTH} tokens.", least=MIN_LENGTH)
    if not 0.0 <= float(depth) <= 1.0:
        raise Refused("nd.err.depth", "The depth must be between 0 (the start) and 1 (the end).")
    pool = sentences(haystack)
    room = int(length) - _count(tokenizer, _render(tokenizer, _content([], needle, [], question)))
    if room < 8:
        raise Refused("nd.err.no_room", f"The needle and the question alone take about {length - room} tokens: give a "
                      "longer length.", tokens=length - room)
    sizes = [_count(tokenizer, " " + s) for s in pool]
    filler, used, i = [], 0, 0
    while used + sizes[i % len(pool)] <= room:  # whole sentences, repeated as needed
        filler.append(pool[i % len(pool)])
        used += sizes[i % len(pool)]
        i += 1
        if i > 100_000:
            break
    while True:
        text, start_char, cut = _placed(tokenizer, filler, sizes, pool, needle, question, depth)
        enc = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
        if len(enc["input_ids"]) <= length or not filler:
            break
        filler = filler[:-1]  # the boundaries tokenised a little longer than counted: one sentence less
    ids, offsets = enc["input_ids"], enc["offset_mapping"]
    end_char = start_char + len(needle)
    span_ids = [j for j, (a, b) in enumerate(offsets) if b > start_char and a < end_char]
    span = (span_ids[0], span_ids[-1] + 1)
    counts = [sizes[j % len(pool)] for j in range(len(filler))]
    landed = sum(counts[:cut]) / max(1, sum(counts))  # the filler's tokens before the needle, as a share
    return Prompt(text, tuple(int(t) for t in ids), span, landed, haystack is None or not haystack.strip(),
                  kept_sentences=len(filler), sentences=len(pool), kept_tokens=sum(counts), given_tokens=sum(sizes),
                  last_kept=filler[-1] if filler else "")


def _placed(tokenizer, filler: list[str], sizes: list[int], pool: list[str], needle: str, question: str,
            depth: float) -> tuple[str, int, int]:
    """The rendered prompt, the needle's first character in it, and how many filler sentences precede it (the
    boundary whose token count before it is nearest to depth × the filler's)."""
    counts = [sizes[j % len(pool)] for j in range(len(filler))]
    total, target, acc, cut = sum(counts), depth * sum(counts), 0, 0
    best = abs(target)
    for j, c in enumerate(counts):
        acc += c
        if abs(acc - target) < best:
            best, cut = abs(acc - target), j + 1
    del total
    content = _content(filler[:cut], needle, filler[cut:], question)
    text = _render(tokenizer, content)
    prefix = " ".join(filler[:cut]) + (" " if cut else "")
    start_char = text.index(content) + len(prefix)
    return text, start_char, cut
