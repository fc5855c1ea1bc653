"""The language the person chose (sidebar, remembered in the URL), the translated strings, and what a
trace says about how it was made (its typed fields) put into words."""

from __future__ import annotations

import dataclasses

import streamlit as st

from attention import i18n
from attention.trace import CAPTURE_PATHS, FALLBACKS, Site, Trace
from attention.ui.state import Keys


def lang() -> str:
    value = st.session_state.get(Keys.LANG, i18n.DEFAULT_LANGUAGE)
    return value if value in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE


def t(key: str, **values: object) -> str:
    return i18n.t(key, lang(), **values)


def kind_title(kind: str) -> str:
    return t(f"kind.{kind}")


def formatter(prefix: str):
    """A widget format_func for option values named `prefix + value`, bound to the language now in
    force (so it gives the same labels when called outside the script run, as AppTest does)."""
    current = lang()
    return lambda value: i18n.t(f"{prefix}{value}", current)


def trace_notes(tr: Trace, skip: tuple[str, ...] = (), language: str | None = None) -> list[str]:
    """What a person should know about how the trace was made, one sentence per typed field of the
    Trace that has something to say, in the chosen language (or `language`). `skip` names the fields
    a page already shows in its own way, e.g. ("unknown_words",) where unknown words get a warning."""
    not_fields = set(skip) - {f.name for f in dataclasses.fields(Trace)}
    if not_fields:
        raise ValueError(f"not fields of Trace: {sorted(not_fields)}")
    language = lang() if language is None else language
    notes: dict[str, str] = {}
    if tr.dropped_tokens:
        notes["dropped_tokens"] = i18n.t("explore.truncated", language, max=len(tr.tokens), dropped=tr.dropped_tokens)
    if tr.unknown_words:
        notes["unknown_words"] = i18n.t("translate.unknown", language, words=", ".join(tr.unknown_words))
    if tr.unknown_target_words:
        notes["unknown_target_words"] = i18n.t("notes.unknown_target", language,
                                               words=", ".join(tr.unknown_target_words))
    if tr.decoding_capped:
        notes["decoding_capped"] = i18n.t("notes.decoding_capped", language)
    if tr.teacher_forced:
        notes["teacher_forced"] = i18n.t("notes.teacher_forced", language)
    if tr.capture_path in CAPTURE_PATHS:
        notes["capture_path"] = i18n.t(f"capture.{tr.capture_path}", language)
    if tr.fallback in FALLBACKS:
        notes["fallback"] = i18n.t(f"fallback.{tr.fallback}", language)
    return [text for name, text in notes.items() if name not in skip]


def trace_problems(tr: Trace, language: str | None = None) -> list[str]:
    """What counting the sites found wrong (Trace.site_problems), one sentence each: the page shows
    them as errors, since the trace then does not show the whole model."""
    language = lang() if language is None else language
    return [i18n.t(f"problem.{p.reason}", language, kind=i18n.t(f"kind.{p.kind}", language),
                   layers=", ".join(str(x) for x in p.layers)) for p in tr.site_problems]


def site_notes(site: Site, head: int, language: str | None = None) -> list[str]:
    """What a person should know about one site: that S and Z are not available and why, and the
    share of weight a sink takes."""
    language = lang() if language is None else language
    notes = []
    if site.missing_qkv:
        notes += [i18n.t("missing_qkv.title", language), i18n.t(f"missing_qkv.{site.missing_qkv}", language)]
    share = site.sink_share
    if share is not None:
        notes.append(i18n.t("sink.note", language, share=f"{float(share[head].mean()):.1%}",
                            most=f"{float(share[head].max()):.1%}"))
    return notes
