"""The lesson as one self-contained page to save or print: every step's text, its prediction with the
model's answer, and its chart (plotly.js inlined once, from the plotly package: no network needed).
Pure: steps in, HTML out."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

import plotly.io as pio

from attention.lesson.steps import Step

_CODE = re.compile(r"``\s(.+?)\s``|`([^`]+)`")
STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; }
section { border-top: 1px solid #ccc; padding-top: 1rem; margin-top: 1.5rem; page-break-inside: avoid; }
code { background: #f2f2f2; padding: 0 .2em; border-radius: 3px; }
.answer { background: #f4f8fb; border-left: 3px solid #4393c3; padding: .4rem .8rem; }
@media print { .noprint { display: none; } }
"""


def inline(markdown: str) -> str:
    """A paragraph of the lesson's markdown (only `code` spans and **bold** are used) as safe HTML."""
    out, last = [], 0
    for m in _CODE.finditer(markdown):
        out.append(_bold(html.escape(markdown[last:m.start()])))
        out.append(f"<code>{html.escape(m.group(1) or m.group(2))}</code>")
        last = m.end()
    out.append(_bold(html.escape(markdown[last:])))
    return "".join(out)


def _bold(escaped: str) -> str:
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", escaped)


def summary_html(title: str, lang: str, lines: Sequence[str], steps: Sequence[Step],
                 answers: Mapping[str, tuple[str, bool]], words: Mapping[str, str]) -> str:
    """One HTML page. `words`: the labels it needs in the chosen language (predict, answer_was, print). The
    steps' "Try it" hints are left out: they ask for clicks and typing a saved file cannot answer."""
    parts = [f"<!DOCTYPE html><html lang=\"{html.escape(lang)}\"><head><meta charset=\"utf-8\">",
             f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>",
             f"<p class=\"noprint\"><button onclick=\"window.print()\">{html.escape(words['print'])}</button></p>"]
    parts += [f"<p>{inline(line)}</p>" for line in lines]
    plotly_js: bool | str = True  # the first chart carries plotly.js; the others use it
    for step in steps:
        parts.append(f"<section id=\"{html.escape(step.id)}\"><h2>{html.escape(step.title)}</h2>")
        parts += [f"<p>{inline(p)}</p>" for p in step.text]
        for pred in (() if step.prediction is None else (step.prediction, *step.more)):
            parts.append(f"<p><b>{html.escape(words['predict'])}</b> {inline(pred.question)}</p>")
            given = answers.get(pred.record_key)
            if given is not None:
                parts.append(f"<p>{inline(words['answer_was'].format(chosen=pred.labels.get(given[0], given[0]), answer=pred.labels[pred.answer]))}</p>")
            parts.append(f"<p class=\"answer\">{inline(pred.explain)}</p>")
        parts += [f"<p>{inline(note)}</p>" for note in step.notes]
        if step.figure is not None:
            parts.append(pio.to_html(step.figure, full_html=False, include_plotlyjs=plotly_js,
                                     config={"displaylogo": False}))
            plotly_js = False
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)
