"""The lesson's steps on the built-in translator (training snapshots, the three kinds of attention,
cross-attention) and the order of every step. No Streamlit here (see steps.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from attention.analysis import learning_curves
from attention.lesson import numbers as lesson
from attention.analysis.head_links import rank_heads
from attention.plots import heatmaps, training_curves
from attention.keys import Keys
from attention.lesson import steps as ls
from attention.lesson.predict_word import predict_word
from attention.lesson.steps import READS_TRANSLATION, Context, Prediction, Step, n, word


def training(c: Context) -> Step:
    snaps = c.snapshots()
    last = snaps.traces[-1]
    tokens = last.site(0, "encoder").key_tokens
    from attention.translator.grammar import verb_forms  # the translator (torch) only when this step runs

    f = lesson.focus(tokens, verb_forms())
    if len({f.query, f.key, f.other}) < 3:  # too few words the translator knows: no pair to follow, said so
        known = ", ".join(dict.fromkeys(word(tokens[i]) for i in lesson.content_positions(tokens))) or "—"
        view = {Keys.LEARN_TEXT: snaps.text, Keys.LEARN_KIND: "encoder"}
        return Step("training", ls.READS_SENTENCE, c.t("lesson.training.title"),
                    (c.t("lesson.training.intro"), c.t("lesson.training.no_pair", words=known)),
                    c.t("lesson.training.try"), ("learning", view), None,
                    notes=(c.t("lesson.training.unknown"),) if "<unk>" in tokens else ())
    link = rank_heads(last, "encoder", f.query, f.key)[0]  # the head where query→key ends strongest
    a = learning_curves.pair_curve(snaps, "encoder", link.layer, link.head, f.query, f.key)
    b = learning_curves.pair_curve(snaps, "encoder", link.layer, link.head, f.query, f.other)
    eff = learning_curves.effect(a, b)
    q, k, o = (word(tokens[i]) for i in (f.query, f.key, f.other))
    (wa0, wb0), (wa, wb) = eff.first_weights, eff.last_weights
    verdict = " ".join((c.t(eff.lead_key, q=q, a=k, b=o, wa=n(wa), wb=n(wb), ratio=eff.ratio_text,
                            even=n(eff.even), bar=n(eff.bar), n=eff.n_keys),
                        c.t(f"learning.trend.{eff.trend}", wa0=n(wa0), wb0=n(wb0))))
    said = c.t("lesson.training.learned" if eff.learned else "lesson.training.not_learned", q=q, k=k, o=o)
    ql, kl, ol = (heatmaps.label(tokens[i]) for i in (f.query, f.key, f.other))
    fig = training_curves.curves_figure(list(snaps.steps), {f"{ql} → {kl}": a.weight, f"{ql} → {ol}": b.weight},
                                        c.t("learning.weight"), c.t("learning.weight"), x_title=c.t("learning.step"))
    body = c.t("lesson.training.body", n=len(snaps.steps), last=snaps.steps[-1], layer=link.layer, head=link.head,
               q=q, k=k, o=o, sentence=word(" ".join(tokens)))
    view = {Keys.LEARN_TEXT: snaps.text, Keys.LEARN_KIND: "encoder", Keys.LEARN_LAYER: link.layer,
            Keys.LEARN_HEAD: link.head, Keys.LEARN_STEP: snaps.steps[-1]}
    notes = [c.t("lesson.training.unknown")] if "<unk>" in tokens else []
    before = c.site.key_tokens[c.other]  # the word step 4 compared with, in the pretrained model's tokens
    if before.lower() != tokens[f.other].lower():  # the translator's words differ: the change is said
        notes.append(c.t("lesson.training.other_changed", before=word(before), o=o))
    notes = tuple(notes)
    return Step("training", ls.READS_SENTENCE, c.t("lesson.training.title"), (c.t("lesson.training.intro"), body, verdict, said),
                c.t("lesson.training.try"), ("learning", view), fig, notes=notes)


def _notes(c: Context, out) -> tuple[str, ...]:
    from attention.translator.api import LOW_CONFIDENCE  # loaded already: `out` is its translation

    notes = []
    if out.unknown_words:
        notes.append(c.t("translate.unknown", words=", ".join(out.unknown_words)))
    if not out.follows_grammar:
        notes.append(c.t("translate.off_pattern"))
    unsure = [f"{word(out.target_tokens[i])} ({out.word_probs[i]:.2f})" for i in out.low_confidence]
    if unsure:  # the translator's own probabilities: a word it gave little is a guess, and is said to be one
        notes.append(c.t("lesson.guesses", words=", ".join(unsure), floor=LOW_CONFIDENCE))
    return tuple(notes)


def _choice_labels(tokens: tuple[str, ...], positions: list[int], unknown: tuple[str, ...]) -> dict[str, str]:
    """"milk (5)"; an unknown word as "zorblax (<unk>, 1)" when the words read as <unk> are known."""
    unk = [j for j in range(len(tokens)) if tokens[j] == "<unk>"]
    said = dict(zip(unk, unknown, strict=False)) if len(unk) == len(unknown) else {}
    return {str(j): f"{said[j]} ({tokens[j]}, {j})" if j in said else f"{tokens[j]} ({j})" for j in positions}


def _translate_link(c: Context, kind: str, layer: int, head: int, q: int | None = None,
                    k: int | None = None) -> tuple[str, dict]:
    return "translate", {Keys.TR_TEXT: c.tr_text, Keys.TR_KIND: kind, Keys.TR_LAYER: layer, Keys.TR_HEAD: head,
                         Keys.TR_SEL_Q: q, Keys.TR_SEL_K: k}


def three(c: Context) -> Step:
    out = c.translation()
    tr = out.trace
    site = tr.site(tr.layers("decoder")[0], "decoder")
    pair = lesson.mask_pair(site)
    writes, fed = site.query_tokens[pair.query], site.key_tokens[pair.key]
    yes_no = {"yes": c.t("lesson.yes"), "no": c.t("lesson.no")}
    weight = float(site.weights[0, pair.query, pair.key])
    pred = Prediction("mask", c.t("lesson.three.ask", w=word(writes), k=word(fed)), ("yes", "no"), yes_no,
                      "no" if pair.hidden else "yes",
                      c.t("lesson.three.hidden" if pair.hidden else "lesson.three.open", w=word(writes), k=word(fed),
                          weight=n(weight)),
                      f"{c.tr_text}|{pair.query}|{pair.key}")
    body = c.t("lesson.three.body", src=" ".join(word(w) for w in out.source_tokens) or "—",
               out=word(out.text or "∅"), enc=len(tr.layers("encoder")), dec=len(tr.layers("decoder")),
               cross=len(tr.layers("cross")))
    rows = tuple(f"{inp} ▸ {w}" for w, inp in zip(site.query_tokens, site.input_tokens, strict=True)) \
        if site.input_tokens is not None else site.query_tokens
    fig = heatmaps.weights_figure(replace(site, query_tokens=rows), 0, title=c.t("lesson.three.chart"),
                                  **ls._axis(c))
    return Step("three", READS_TRANSLATION, c.t("lesson.three.title"), (c.t("lesson.three.intro"), body),
                c.t("lesson.three.try"), _translate_link(c, "decoder", site.layer, 0, pair.query, pair.key), fig,
                prediction=pred, notes=_notes(c, out))


def cross(c: Context) -> Step:
    out = c.translation()
    tr = out.trace
    layer = tr.layers("cross")[-1]
    site = tr.site(layer, "cross")
    target = lesson.last_content(site.query_tokens)
    source, row = lesson.cross_reads(site, target)
    words = lesson.choice_positions(site.key_tokens) or list(range(len(site.key_tokens)))
    tw = word(site.query_tokens[target])
    pred = Prediction("cross", c.t("lesson.cross.ask", w=tw), tuple(str(j) for j in words),
                      _choice_labels(site.key_tokens, words, out.unknown_words), str(source),
                      c.t("lesson.cross.explain", w=tw, s=word(site.key_tokens[source]), heads=site.n_heads,
                          layer=layer, weight=n(float(row[source]))),
                      f"{c.tr_text}|{target}")
    head = int(np.argmax(site.weights[:, target, source]))
    fig = heatmaps.merged_weights_figure(site.weights.mean(axis=0), list(site.query_tokens), list(site.key_tokens),
                                         c.t("lesson.cross.chart", layer=layer),
                                         (c.t("chart.query"), c.t("chart.key")))
    return Step("cross", READS_TRANSLATION, c.t("lesson.cross.title"), (c.t("lesson.cross.intro", out=word(out.text or "∅")),),
                c.t("lesson.cross.try"), _translate_link(c, "cross", layer, head, target, source), fig,
                prediction=pred, notes=_notes(c, out))


STEPS: tuple[Callable[[Context], Step], ...] = (
    ls.vectors, ls.qkv, ls.factor, ls.dot, ls.softmax, ls.temperature, ls.weighted_sum, training, three, cross,
    predict_word)
# the steps that read q, k, v or S = Q·Kᵀ: a weights-only family (DeBERTa) hands over A alone
NEEDS_QKV = frozenset({ls.qkv, ls.factor, ls.dot, ls.softmax, ls.temperature, ls.weighted_sum})
# which sentence each step reads (the box the page shows); the last continues the model's sentence
SOURCES = (ls.READS_SENTENCE,) * 8 + (READS_TRANSLATION,) * 2 + (ls.READS_SENTENCE,)
N_STEPS = len(STEPS) + 1  # and the last page: the score and the printable summary
