"""#46 item 7: every chart of a language model's tokens reads a Chinese character's byte pieces as that
character, parts marked "…", through one function (analysis/token_text.py): Why this word's attribution
bars, the lesson's deciding-heads figure and Change one word's next-token bars. Never Latin-1 mojibake
("äºº"), never "\ufffd", and "·" only for a leading space (these texts have none). Pure."""

from __future__ import annotations

import numpy as np

from attention.analysis.token_text import byte_of_char, candidate_labels, readable_tokens
from attention.plots.deciding_figure import deciding_figure
from attention.plots.labels import hover
from attention.plots.next_word import top_figure
from attention.plots.why_bars import attribution_figure

_CHAR_OF = {b: c for c, b in byte_of_char().items()}
MOJIBAKE = set(map(chr, range(0x80, 0x100))) | {"\ufffd"}


def bpe(raw: bytes) -> str:
    return "".join(_CHAR_OF[b] for b in raw)


def split(text: str, cuts: list[int]) -> list[str]:
    """text's UTF-8 bytes cut at `cuts` into byte-level tokens (SmolLM2 splits 我 as e6 88 | 91)."""
    raw, edges = text.encode(), [0, *cuts, len(text.encode())]
    return [bpe(raw[a:b]) for a, b in zip(edges, edges[1:], strict=False)]


PROMPT = split("我们是人类", [2, 3, 5, 6, 9, 12])  # 我 and 们 split, 是 人 类 whole: "æĪ" "ĳ" "ä»" "¬" "æĺ¯" "äºº" "ç±»"
WORDS = ["我…", "…我", "们…", "…们", "是", "人", "类"]
UNFINISHED = split("我们是人", [2, 3, 5, 6, 9, 11])[:-1]  # ends with 人's first two bytes
CANDIDATES = [bpe("人".encode()[2:]), bpe("。".encode()), "Ċ"]  # completes 人; a whole 。; a newline


def clean(labels: list[str]) -> bool:
    return not any(c in MOJIBAKE or c == "·" for x in labels for c in x)


def test_the_attribution_bars_read_the_prompt_together():
    fig = attribution_figure(PROMPT, {"IG": [0.1] * 7}, "t", "x")
    ticks = [x.strip() for x in fig.layout.yaxis.ticktext]
    assert ticks == WORDS and clean(ticks)
    assert list(fig.data[0].customdata) == WORDS  # the hover says the same, not "äºº"


def test_the_deciding_figure_reads_the_prompt_together_and_candidates_after_it():
    fig = deciding_figure(CANDIDATES, [0.5, 0.3, 0.1], UNFINISHED, ["h"], np.full((1, len(UNFINISHED)), 0.1),
                          ("a", "b"), ("p", "k"))
    bars = [x.strip() for x in fig.layout.yaxis.ticktext]
    assert bars == ["…人", "。", "⏎"] == candidate_labels(CANDIDATES, UNFINISHED)
    assert list(fig.layout.xaxis2.ticktext) == readable_tokens(UNFINISHED) == [*WORDS[:5], "⟨e4⟩⟨ba⟩"]
    assert fig.layout.xaxis2.ticktext[-1] == "⟨e4⟩⟨ba⟩"  # 人's first two bytes: no character yet, named as bytes


def test_the_next_token_bars_read_each_candidate_after_its_runs_text():
    fig = top_figure(CANDIDATES, [0.5, 0.3, 0.1], "t", "x", context=UNFINISHED)
    assert [x.strip() for x in fig.layout.yaxis.ticktext] == ["…人", "。", "⏎"]
    alone = top_figure(CANDIDATES, [0.5, 0.3, 0.1], "t", "x")  # no text before: a lone byte, named as one
    assert alone.layout.yaxis.ticktext[0].strip() == "⟨ba⟩"


def test_a_hover_shows_the_tokenizers_form_only_when_it_is_not_mojibake():
    assert hover("Ġcat", "·cat") == "·cat (Ġcat)"
    assert hover("äºº", "人") == "人"
    assert hover("cat", "cat") == "cat"
