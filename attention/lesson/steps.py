"""The lesson's steps on the pretrained model: each reads its numbers from the learner's trace and says
them in the chosen language. No Streamlit here: a step is data (text, a figure, a hint, a link, maybe a
prediction), drawn by ui/pages/lesson_page.py and printed by printout.py alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import plotly.graph_objects as go

from attention import i18n
from attention.analysis import anatomy, claims
from attention.lesson import numbers as lesson
from attention.analysis.learning_curves import SnapshotTraces
from attention.params.markdown import code as word
from attention.analysis.qkv_origin import Origin
from attention.params.selection import Selection
from attention.plots import explain_figures, heatmaps
from attention.keys import Keys
from attention.trace import Kind, Site, Trace

# Which sentence a step reads (which box the lesson shows): the one the chosen model reads, or the
# one the translator translates.
READS_SENTENCE, READS_TRANSLATION = "sentence", "translation"


@dataclass(frozen=True)
class Prediction:
    id: str
    question: str
    options: tuple[str, ...]
    labels: dict[str, str]
    answer: str
    explain: str  # said after the reveal, with the model's numbers
    context: str  # what the answer depends on: an answer given on another sentence or head is another answer

    @property
    def record_key(self) -> str:
        return f"{self.id}|{self.context}"


@dataclass(frozen=True)
class Step:
    id: str
    source: str  # READS_SENTENCE or READS_TRANSLATION
    title: str
    text: tuple[str, ...]  # paragraphs in markdown, shown at once
    hint: str
    link: tuple[str, dict[str, Any]]  # (page, view by session key) of the full page on the same view
    figure: go.Figure | None = None
    clickable: bool = False  # the figure is a matrix whose cells select the lesson's pair
    prediction: Prediction | None = None
    notes: tuple[str, ...] = ()  # said after the text whatever the prediction (e.g. unknown words)
    offer: tuple[int, int] | None = None  # (layer, head) where the article's pattern holds, to switch to
    extra: dict[str, Any] = field(default_factory=dict)  # what the page needs to draw more (the temperature row)
    more: tuple[Prediction, ...] = ()  # further questions, each asked once the one before it is revealed


class Unavailable(Exception):
    """A step cannot be shown on this input (the translator cannot read it, no model that writes): its
    message says why, in the chosen language."""


@dataclass
class Context:
    """What the steps read. The translator's outputs are asked for only by the steps that need them."""

    lang: str
    text: str
    tr: Trace
    layer: int
    head: int
    sel: Selection  # the lesson's pair (query, key) on the model's sentence
    other: int  # the third word, to compare with
    origin: Callable[[Site, int, int], Origin | None]
    tr_text: str = ""
    translation: Callable[[], Any] | None = None  # -> attention.translator.api.Translation
    snapshots: Callable[[], SnapshotTraces] | None = None
    temperature: float = 1.0
    model_path: str | None = None
    kind: Kind = "encoder"  # the model's self-attention the steps follow (the decoder's when it has no encoder)
    deciding: Callable[[str], Any] | None = None  # prompt -> attention.lm.deciding.Deciding (the model that writes)
    writer: str = ""  # that model's name in a link (Explore on its leading head)

    def t(self, key: str, **values: object) -> str:
        return i18n.t(key, self.lang, **values)

    @property
    def site(self) -> Site:
        return self.tr.site(self.layer, self.kind)

    @property
    def query(self) -> int:
        return self.sel.query if self.sel.query is not None else 0

    @property
    def key(self) -> int:
        return self.sel.key if self.sel.key is not None else 0


def n(value: float, digits: int = 3) -> str:
    return f"{value:.{digits}f}"


def explore_link(c: Context, tab: str, layer: int | None = None, key: bool = True) -> tuple[str, dict[str, Any]]:
    """Explore on the lesson's sentence, head and pair, with the explanation `tab` open."""
    return "explore", {Keys.TEXT: c.text, Keys.KIND: c.kind, Keys.LAYER: c.layer if layer is None else layer,
                       Keys.HEAD: c.head, Keys.SEL_Q: c.query, Keys.SEL_K: c.key if key else None,
                       Keys.EXPLAIN_TAB: tab}


def _names(c: Context) -> dict[str, str]:
    toks = c.site.key_tokens
    return {"q": word(c.site.query_tokens[c.query]), "k": word(toks[c.key]), "o": word(toks[c.other])}


def vectors(c: Context) -> Step:
    first = c.tr.site(c.tr.layers(c.kind)[0], c.kind)
    found = c.origin(first, c.head, c.query)
    names = _names(c)
    shown = " · ".join(word(w) for w in c.tr.tokens)
    d_model = None if found is None else found.x.shape[0]
    text = [c.t("lesson.vectors.body", n=len(c.tr.tokens), tokens=shown, d=d_model or "—", **names)]
    fig = None
    if found is not None and found.embedding is not None:
        e = found.embedding
        parts = {c.t("origin.token"): e.token, c.t("origin.position"): e.position}
        if e.segment is not None:
            parts[c.t("origin.segment")] = e.segment
        fig = explain_figures.input_figure(found.x, c.t("origin.input", w=heatmaps.token_labels(c.tr.tokens)[c.query],
                                                        layer=0), parts, c.t("origin.parts"), c.t("origin.sum"))
        text.append(c.t("lesson.vectors.numbers", norm_t=n(float(np.linalg.norm(e.token))),
                        norm_p=n(float(np.linalg.norm(e.position))), **names))
        if e.segment is not None:  # BERT-like models add a third vector: the chart draws it, so the text says it
            text.append(c.t("lesson.vectors.segment", norm_s=n(float(np.linalg.norm(e.segment))), **names))
    else:
        text.append(c.t("lesson.vectors.unavailable"))
    return Step("vectors", READS_SENTENCE, c.t("lesson.vectors.title"), tuple(text), c.t("lesson.vectors.try"),
                explore_link(c, "origin", layer=0, key=False), fig)


def qkv(c: Context) -> Step:
    found = c.origin(c.site, c.head, c.query)
    names = _names(c)
    text = [c.t("lesson.qkv.body", d=c.site.d_head, layer=c.layer, head=c.head, **names)]
    fig = None
    if found is not None:
        fig = explain_figures.projection_figure(found.recomputed, found.from_model, c.t("origin.recomputed"),
                                                c.t("origin.from_model"), c.t("origin.projected"))
        text.append(c.t("lesson.qkv.check", diff=f"{found.max_diff:.1e}", **names))
    else:
        text.append(c.t("lesson.qkv.unavailable"))
    return Step("qkv", READS_SENTENCE, c.t("lesson.qkv.title"), tuple(text), c.t("lesson.qkv.try"),
                explore_link(c, "origin", key=False), fig)


def _axis(c: Context) -> dict[str, Any]:
    return {"masked_text": c.t("masked"), "axis_names": (c.t("chart.query"), c.t("chart.key"))}


def factor(c: Context) -> Step:
    """S on the learner's sentence; its numbers name any pair but the two step 4 asks about (predict, then
    reveal: the answer is never printed before the question)."""
    s = c.site.scores[c.head, c.query]
    names = _names(c)
    rest = [j for j in range(len(s)) if j not in (c.key, c.other)] or [c.query]
    top, low = max(rest, key=lambda j: float(s[j])), min(rest, key=lambda j: float(s[j]))
    body = c.t("lesson.factor.body", layer=c.layer, head=c.head, n_keys=len(s), top=word(c.site.key_tokens[top]),
               s_top=n(float(s[top])), low=word(c.site.key_tokens[low]), s_low=n(float(s[low])), **names)
    fig = heatmaps.scores_figure(c.site, c.head, c.sel, title=c.t("title.S"), **_axis(c))
    return Step("factor", READS_SENTENCE, c.t("lesson.factor.title"), (c.t("lesson.factor.intro"), body),
                c.t("lesson.factor.try"), explore_link(c, "dot"), fig, clickable=True)


def dot(c: Context) -> Step:
    names = _names(c)
    a, b = (anatomy.dot_anatomy(c.site, c.head, c.query, j) for j in (c.key, c.other))
    winner = lesson.larger_dot(c.site, c.head, c.query, c.key, c.other)
    toks = c.site.key_tokens
    pred = Prediction(
        "dot", c.t("lesson.dot.ask", **names), (str(c.key), str(c.other)),
        {str(c.key): toks[c.key], str(c.other): toks[c.other]}, str(winner),
        c.t("lesson.dot.explain", d=c.site.d_head, agree_k=a.agreeing, agree_o=b.agreeing, s_k=n(a.total),
            s_o=n(b.total), win=word(toks[winner]), **names),
        f"{c.text}|{c.layer}|{c.head}|{c.query}|{c.key}|{c.other}")
    y_range = explain_figures.terms_range(a, b)
    fig = explain_figures.dot_figure(a, True, heatmaps.token_labels(c.site.query_tokens)[c.query], heatmaps.token_labels(toks)[c.key],
                                     sum_text=c.t("dot.sum", total=n(a.total), qi=c.query, ki=c.key),
                                     vectors_title=c.t("dot.vectors"), terms_title=c.t("dot.terms"),
                                     dimension_word=c.t("dot.dimension"), terms_range=y_range)
    return Step("dot", READS_SENTENCE, c.t("lesson.dot.title"), (c.t("lesson.dot.intro"),), c.t("lesson.dot.try"),
                explore_link(c, "dot"), fig, prediction=pred)


def softmax(c: Context) -> Step:
    site, names = c.site, _names(c)
    top = lesson.top_word(site, c.head, c.query)
    row = site.weights[c.head, c.query]
    words = lesson.content_positions(site.key_tokens) or list(range(len(site.key_tokens)))
    said = [c.t("lesson.softmax.top", top=word(site.key_tokens[top]), w_top=n(float(row[top])),
                markers=n(lesson.markers_share(site, c.head, c.query)), **names)]
    offer = None
    if top == c.key and claims.above_even(float(row[c.key]), len(row)):
        said.append(c.t("lesson.softmax.holds", w_k=n(float(row[c.key])), even=n(claims.even(len(row))),
                        n_keys=len(row), **names))
    elif top == c.key:
        said.append(c.t("lesson.softmax.faint", w_k=n(float(row[c.key])), even=n(claims.even(len(row))),
                        n_keys=len(row), **names))
    else:
        said.append(c.t("lesson.softmax.fails", w_k=n(float(row[c.key])), top=word(site.key_tokens[top]), **names))
        best = lesson.best_head(c.tr, c.kind, c.query, c.key)
        if (best.layer, best.head) != (c.layer, c.head):
            offer = (best.layer, best.head)
            said.append(c.t("lesson.softmax.offer", layer=best.layer, head=best.head, w=n(best.weight), **names))
    sink = claims.sink_over(row, site.key_tokens, c.key)
    if sink is not None:  # said after the verdict among the words: the whole row, markers included
        said.append(c.t("lesson.softmax.sink", sink=word(site.key_tokens[sink]), w_sink=n(float(row[sink])),
                        w_k=n(float(row[c.key])), **names))
    pred = Prediction("top", c.t("lesson.softmax.ask", **names), tuple(str(j) for j in words),
                      {str(j): f"{site.key_tokens[j]} ({j})" for j in words}, str(top), " ".join(said),
                      f"{c.text}|{c.layer}|{c.head}|{c.query}")
    fig = heatmaps.weights_figure(site, c.head, c.sel, title=c.t("title.A"), **_axis(c))
    intro = c.t("lesson.softmax.intro", sqrt=n(float(np.sqrt(site.d_head)), 2), d=site.d_head)
    return Step("softmax", READS_SENTENCE, c.t("lesson.softmax.title"), (intro,), c.t("lesson.softmax.try"),
                explore_link(c, "steps"), fig, clickable=True, prediction=pred, offer=offer)


def temperature(c: Context) -> Step:
    site, names = c.site, _names(c)
    change = lesson.temperature_change(site, c.head, c.query, c.key)
    labels = {"up": c.t("lesson.temperature.up"), "down": c.t("lesson.temperature.down")}
    pred = Prediction(
        "temperature", c.t("lesson.temperature.ask", t=change.temperature, w=n(change.before), **names),
        ("up", "down"), labels, change.direction,
        c.t("lesson.temperature.went_up" if change.direction == "up" else "lesson.temperature.went_down",
            t=change.temperature, before=n(change.before),
            after=n(change.after), **names),
        f"{c.text}|{c.layer}|{c.head}|{c.query}|{c.key}")
    temp = c.temperature
    row, model_row = (anatomy.row_pipeline(site, c.head, c.query, x) for x in (temp, 1.0))
    fig = explain_figures.temperature_figure(row, model_row, heatmaps.token_labels(site.key_tokens),
                                             c.t("steps.at_t", t=temp), c.t("steps.model"), c.t("steps.weights_chart"))
    return Step("temperature", READS_SENTENCE, c.t("lesson.temperature.title"), (c.t("lesson.temperature.intro"),),
                c.t("lesson.temperature.try"), explore_link(c, "steps"), fig, prediction=pred)


def weighted_sum(c: Context) -> Step:
    site, names = c.site, _names(c)
    shares = lesson.sum_shares(site, c.head, c.query)
    parts = [c.t("lesson.sum.part", w=word(site.key_tokens[j]), share=f"{s:.0%}",
                 weight=n(float(site.weights[c.head, c.query, j])))
             for j, s in zip(shares.keys, shares.shares, strict=True)]
    an = anatomy.sum_anatomy(site, c.head, c.query)
    fig = explain_figures.sum_figure(an, heatmaps.token_labels(site.key_tokens), c.t("sum.total"),
                                     c.t("sum.others"), c.t("sum.title", q=heatmaps.token_labels(site.query_tokens)[c.query]),
                                     dimension_word=c.t("dot.dimension"))
    return Step("sum", READS_SENTENCE, c.t("lesson.sum.title"),
                (c.t("lesson.sum.body", d=site.d_head, parts=c.t("lesson.and").join(parts), **names),),
                c.t("lesson.sum.try"), explore_link(c, "sum"), fig)
