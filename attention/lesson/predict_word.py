"""The lesson's last step, where the article leads: a model that writes predicts the next word, and the
heads that decide it read some earlier words. It runs on the model that writes (SmolLM2) whatever model
the other steps read, on the lesson's sentence cut before its last word (that word is what the learner
wrote next; the model's choice is compared with it). Two predictions: which word comes next, then which
earlier word decides it. No Streamlit; the numbers are attention.lm.deciding's, the words they earn
attention.analysis.deciding_heads's (claims.py's rule).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from attention.analysis import claims
from attention.analysis import deciding_heads as dh
from attention.analysis.token_text import candidate_labels, readable_tokens
from attention.keys import Keys
from attention.lesson.steps import READS_SENTENCE, Context, Prediction, Step, Unavailable, n, word
from attention.plots.deciding_figure import deciding_figure

MAX_WORDS = 64  # a longer sentence is continued from its last MAX_WORDS words before the cut (said)
NONE = "none"  # the second question's answer when no earlier word is singled out


@dataclass(frozen=True)
class Prompt:
    text: str  # what the model continues
    held: str  # the sentence's own last word, left out ("" when the sentence is one word)
    cut: int  # words left out at the front of a long sentence
    by_character: bool = False  # written without spaces (Chinese, Japanese): the last character is held


# Han, kana and the CJK compatibility ideographs: scripts written without spaces between words
_NO_SPACES = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


def prompt_of(sentence: str, max_words: int = MAX_WORDS) -> Prompt:
    """The sentence cut before its last word (a one-word sentence is continued whole). A sentence that ends
    in a script written without spaces is cut before its last character (with what punctuation follows it):
    no word boundary can be read there without a dictionary, and a character is that script's unit."""
    words = sentence.split()
    last = words[-1] if words else ""
    chars = [m.start() for m in _NO_SPACES.finditer(last)]
    if len(chars) > 1 or (chars and chars[-1] > 0):  # the last word has something before its last character
        words = [*words[:-1], last[: chars[-1]], last[chars[-1]:]]
        by_character = True
    else:
        by_character = False
    if len(words) < 2:
        return Prompt(" ".join(words), "", 0)
    before = words[:-1]
    cut = max(0, len(before) - max_words)
    return Prompt(" ".join(before[cut:]), words[-1], cut, by_character)


def head_name(c: Context, head: tuple[str, int, int]) -> str:
    return c.t("lesson.predict_word.head", layer=head[1], head=head[2])


def deciding_word(d: Any) -> int | None:
    """The earlier word that decides the next one: the one the leading measured head reads most clearly,
    only when that head decides the word (dh.decides) and reads some word clearly above 1/n."""
    if not d.shown or not dh.decides(d.drops):
        return None
    found = dh.reads(d.rows[d.shown[0][0]]).words
    return found[0] if found else None


def _held_note(c: Context, p: Prompt, shown: list[str], probs: np.ndarray) -> str:
    """Where the sentence's own next word stands among the ten likeliest tokens (said only when it is one)."""
    if not p.held:
        return ""
    bare = p.held.strip(".,;:!?\"'()，。！？；：")
    for rank, tok in enumerate(shown):
        if bare and tok.lstrip("·") == bare:
            return c.t("lesson.predict_word.held_ranked", held=word(p.held), rank=rank + 1, p=n(float(probs[rank])))
    return c.t("lesson.predict_word.held_absent", held=word(p.held))


def _heads_said(c: Context, d: Any, top: str) -> list[str]:
    """The measured drops, the claim they earn (or the refusal), each leading head's reading, and the
    estimate's agreement where claims.correlation allows one."""
    said = [c.t("lesson.predict_word.drops", k=len(d.picked), w=top, heads=c.t("lesson.list_sep").join(
        c.t("lesson.predict_word.drop", name=head_name(c, h), drop=n(drop), before=n(float(np.exp(d.log_p))),
            after=n(dh.probability_after(d.log_p, drop))) for h, drop in d.shown))]
    most = float(np.max(d.drops)) if d.drops.size else 0.0
    if dh.decides(d.drops):
        deciders = [head_name(c, h) for h, drop in d.shown if drop >= dh.DECIDES]
        said.append(c.t("lesson.predict_word.decides", heads=c.t("lesson.and").join(deciders), floor=dh.DECIDES))
    elif most < dh.DECIDES:  # no head takes a tenth of the word's probability: "decides" is not said
        said.append(c.t("lesson.predict_word.no_decider", most=n(most), floor=dh.DECIDES))
    else:  # large but all alike (claims.heads_matter): no head is singled out
        said.append(c.t("lesson.predict_word.tied", most=n(most)))
    tokens = readable_tokens(d.tokens)
    for h, _ in d.shown:
        row = d.rows[h]
        r = dh.reads(row)
        even = n(claims.even(row.size))
        if r.words:
            words = c.t("lesson.comma").join(f"{word(tokens[j])} ({n(float(row[j]), 2)})" for j in r.words)
            text = c.t("lesson.predict_word.reads", name=head_name(c, h), words=words, n_keys=row.size, even=even)
        else:
            text = c.t("lesson.predict_word.reads_none", name=head_name(c, h), n_keys=row.size, even=even)
        if r.sink is not None:
            text += " " + c.t("lesson.predict_word.sink", first=word(tokens[0]), w=n(float(row[0]), 2))
        said.append(text)
    agree = dh.estimate_agreement(d.estimates[d.picked], d.drops)
    said.append(c.t("lesson.predict_word.agree", rho=f"{agree.rho:+.2f}", n=agree.n) if agree is not None
                else c.t("lesson.predict_word.no_agree"))
    return said


def predict_word(c: Context) -> Step:
    p = prompt_of(c.text)
    if not p.text or c.deciding is None:
        raise Unavailable(c.t("lesson.predict_word.empty"))
    d = c.deciding(p.text)
    # the candidates are alternatives, each read after the prompt (a piece completing a character begun there)
    tokens, shown = readable_tokens(d.tokens), candidate_labels(d.top_tokens, d.tokens)
    top = word(shown[0])
    intro = c.t("lesson.predict_word.intro")
    body = c.t("lesson.predict_word.body_character" if p.by_character else "lesson.predict_word.body",
               prompt=word(p.text), n_tokens=len(tokens))
    notes = (c.t("lesson.predict_word.cut", cut=p.cut, max=MAX_WORDS),) if p.cut else ()
    if not p.text.isascii():  # read as UTF-8 bytes by a model trained on English: say what the pieces are
        notes += (c.t("write.bytes_note"),)
    context = f"{p.text}|{'|'.join(d.top_tokens)}"
    # the ten likeliest as choices, in the order of their text: the order would give the answer away
    order = sorted(range(len(shown)), key=lambda i: (shown[i].lstrip("·").lower(), i))
    # the chart is drawn once every question is answered: with a second one to come, it is not there yet
    explain = "lesson.predict_word.next_explain" if len(tokens) < 3 else "lesson.predict_word.next_explain_later"
    first = Prediction(
        "next_word", c.t("lesson.predict_word.ask_next", prompt=word(p.text)), tuple(str(i) for i in order),
        {str(i): shown[i] for i in order}, "0",
        " ".join(x for x in (c.t(explain, w=top, p=n(float(d.top_probs[0]))),
                             _held_note(c, p, shown, d.top_probs)) if x),
        context)
    more: tuple[Prediction, ...] = ()
    if len(tokens) > 2:
        answer = deciding_word(d)
        positions = list(range(1, len(tokens) - 1))  # earlier tokens: not the first (a sink), not the query's own
        labels = {str(j): f"{tokens[j]} ({j})" for j in positions} | {NONE: c.t("lesson.predict_word.none")}
        said = _heads_said(c, d, top)
        said.append(c.t("lesson.predict_word.answer", w=word(tokens[answer])) if answer is not None
                    else c.t("lesson.predict_word.answer_none"))
        more = (Prediction("decider", c.t("lesson.predict_word.ask_decider", w=top, first=word(tokens[0]),
                                          last=word(tokens[-1])),
                           (*(str(j) for j in positions), NONE), labels, NONE if answer is None else str(answer),
                           "\n\n".join(said), context),)
    else:
        notes += (c.t("lesson.predict_word.one_token" if len(tokens) < 2 else "lesson.predict_word.two_tokens",
                      first=word(tokens[0])),)
    heads = [h for h, _ in d.shown]
    fig = deciding_figure(d.top_tokens, d.top_probs, d.tokens,
                          [c.t("lesson.predict_word.head_short", layer=h[1], head=h[2]) + f" (−{n(drop, 2)})"
                           for h, drop in d.shown],
                          np.array([d.rows[h] for h in heads]).reshape(len(heads), len(tokens)),
                          (c.t("lesson.predict_word.chart_next"), c.t("lesson.predict_word.chart_rows")),
                          (c.t("lesson.predict_word.chart_p"), c.t("lesson.predict_word.chart_tokens")))
    lead = heads[0] if heads else None
    write = {Keys.WR_PROMPT: p.text, Keys.WR_IDS: "", Keys.WR_STEP: 0}
    extra: dict[str, Any] = {"prompt": p.text}
    if lead is not None:
        write |= {Keys.WR_LAYER: lead[1], Keys.WR_HEAD: lead[2]}
        key = dh.reads(d.rows[lead]).words
        extra["head"] = (lead[1], lead[2])
        extra["head_link"] = ("explore", {Keys.TEXT: p.text, Keys.MODEL_PATH: c.writer, Keys.KIND: lead[0],
                                          Keys.LAYER: lead[1], Keys.HEAD: lead[2], Keys.SEL_Q: len(tokens) - 1,
                                          Keys.SEL_K: key[0] if key else None})
    return Step("predict_word", READS_SENTENCE, c.t("lesson.predict_word.title"), (intro, body),
                c.t("lesson.predict_word.try"), ("write", write), fig, prediction=first, notes=notes,
                extra=extra, more=more)
