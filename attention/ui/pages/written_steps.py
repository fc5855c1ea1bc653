"""What the Write page says about a written step, in words: how its token was chosen, which step is shown,
the words a press from an earlier step would replace, when nothing more can be written, and when the text is
read as byte pieces. Pure reading of a Writing (the session's state is in writing.py)."""

from __future__ import annotations

from attention.lm import sampling
from attention.lm.writer import Step, Writing
from attention.params.markdown import code
from attention.ui.lang import t


def how_chosen(taken: Step) -> str:
    """How a written token was chosen, said only as far as it holds: drawn with its seed, the likeliest,
    or (a link's token that was not the likeliest) its place among the next tokens."""
    if taken.seed is not None:  # drawn in this session: that seed chose it
        return t("write.chosen_how_seed", seed=taken.seed)
    place = sampling.rank(taken.chosen_from.logits, taken.token_id)
    return t("write.chosen_how_greedy") if place == 1 else t("write.chosen_how_link", rank=place)


def finished(w: Writing, step: int) -> bool:
    """Nothing can be written from `step`: it is the newest and writing has ended or is full. From an
    earlier step the buttons write again (replacing what came after), as after any other word."""
    return step == len(w.steps) and (w.ended or w.full)


def step_named(w: Writing, step: int) -> str:
    """Which step the page shows, in words: the text up to which word, and which word the bars predict."""
    n = len(w.steps)
    if step == 0:
        return t("write.shown_prompt")
    token = code(w.steps[step - 1].label)
    return t("write.shown_newest" if step == n else "write.shown_step", i=step, n=n, token=token, next=step + 1)


def replaced(w: Writing, step: int) -> str | None:
    """The warning before writing from an earlier step drops the words after it (None at the newest)."""
    later = len(w.steps) - step
    if later <= 0:
        return None
    return t("write.replaces_one" if later == 1 else "write.replaces", n=later, i=step)


def reads_bytes(w) -> bool:
    """The text holds characters the model reads as UTF-8 byte pieces (a byte-level tokenizer and a
    character outside Latin scripts, e.g. Chinese): the page then says what that means."""
    return getattr(w, "scheme", None) == "bpe" and any(ord(c) >= 0x2E80 for c in w.lm.tokenizer.decode(w.ids))
