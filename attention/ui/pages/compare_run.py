"""The Compare page's running: the model chosen, both sentences checked and traced, the comparison and
the patching kept on the cache shelf (keyed by the source's name, A and B), and the ways in and out:
the "Change one word" button other pages show, and the buttons that open one head on its home page.

Drawing is compare_view.py's; the maths is attention/sources/comparison.py's and attention/analysis/'s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st

from attention import ModelLoadError, sources
from attention.analysis.alignment import align, why_refused
from attention.analysis.patch_result import Patching
from attention.analysis.special_tokens import unknown_count
from attention.params.text_input import check_text
from attention.sources import Output, Source
from attention.sources import comparison as comparing
from attention.sources.comparison import Comparison
from attention.ui.hosting import cache, settings
from attention.ui import load_errors, progress, state
from attention.ui.pages import writing
from attention.ui.lang import t, trace_problems
from attention.ui.state import Keys

DEFAULT_A = "The cat drank the milk because it was thirsty"
DEFAULT_B = "The cat drank the milk because it was sour"
CAUSAL_PAIR = ("The capital of France is", "The capital of Italy is")  # the change early, the next token moves
MEASURES = ("js", "max_abs")
_CONTEXT = "_ctx_compare"  # the (model, A, B) the chosen head belongs to: a new pair picks the top head again


def defaults() -> None:
    st.session_state.setdefault(Keys.CMP_A, DEFAULT_A)
    st.session_state.setdefault(Keys.CMP_B, DEFAULT_B)


def unread(c: Comparison) -> tuple[int, int, int, int] | None:
    """(unknown in A, tokens of A, unknown in B, tokens of B) when either sentence holds a token the model
    cannot read (its tokenizer's unknown token); None when every character was read."""
    a, b = c.trace_a.tokens, c.trace_b.tokens
    n_a, n_b = unknown_count(a), unknown_count(b)
    return (n_a, len(a), n_b, len(b)) if n_a or n_b else None


def use_smollm2() -> None:
    """A button's callback: compare the same sentences with the built-in language model (byte-level: it reads
    any character)."""
    st.session_state[Keys.CMP_MODEL] = sources.SMOLLM2


def model_options() -> list[str]:
    """The built-in sources, and (not on a hosted demo) the model folder named in the link or the sidebar."""
    names = list(sources.names())
    if settings.hosted():
        return names
    for extra in (st.session_state.get(Keys.CMP_MODEL), st.session_state.get(Keys.MODEL_PATH)):
        folder = str(extra or "").strip()
        if folder and folder.lower() not in names and folder not in names:
            names.append(folder)
    return names


def model_picker() -> Source:
    options = model_options()
    state.str_choice(Keys.CMP_MODEL, options)
    labels = {name: cache.source(name).label() for name in options}  # bound now: AppTest formats later
    st.selectbox(t("compare.model"), options, key=Keys.CMP_MODEL, format_func=labels.get)
    return cache.source(st.session_state[Keys.CMP_MODEL])


def _checked(key: str, blank: str) -> str | None:
    checked = check_text(st.session_state.get(key), settings.max_chars())
    if not checked.text:
        st.info(t(blank))
        return None
    if checked.cut_chars:
        st.warning(t("text.cut", n=f"{len(checked.text):,}"))
    return checked.text


def texts() -> tuple[str, str] | None:
    """Both sentences, checked (None after saying which one is missing)."""
    a = _checked(Keys.CMP_A, "compare.blank_a")
    b = _checked(Keys.CMP_B, "compare.blank_b")
    return None if a is None or b is None else (a, b)


def _loaded(src: Source, kind: str):
    """The source's model the comparison runs on, from the shelf every page shares (None: said why)."""
    if src.predicts == "next_token":  # the built-in language model: its expansion and availability said
        return writing.load_model()
    try:
        return cache.effects_model(src.name) if kind == "next_token" else cache.model(src.name)
    except ModelLoadError as exc:
        st.error(load_errors.said(str(exc)))
        return None


def _output(src: Source, text: str) -> Output | None:
    try:
        out = cache.output(src.name, text)
    except ModelLoadError as exc:
        st.error(load_errors.said(str(exc)))
        return None
    except ValueError:  # the translator found no words at all
        st.info(t("translate.nothing"))
        return None
    except (OSError, RuntimeError) as exc:
        st.error(t("compare.failed", error=f"{type(exc).__name__}: {exc}"))
        return None
    for problem in trace_problems(out.trace):
        st.error(problem)
    return out if out.trace.sites else None


def comparison(src: Source, a: str, b: str) -> Comparison | None:
    """A against B on the source, from the shelf (None: the page has been told why)."""
    try:
        kind = comparing.output_kind(src)
    except (OSError, ValueError) as exc:  # a folder that is not a model
        st.error(load_errors.said(str(exc)))
        return None
    loaded = _loaded(src, kind)
    if loaded is None:
        return None
    out_a = _output(src, a)
    out_b = None if out_a is None else _output(src, b)
    if out_a is None or out_b is None:
        return None
    for which, out in (("A", out_a), ("B", out_b)):
        if out.trace.dropped_tokens:
            st.warning(t("compare.truncated", which=which, max=len(out.trace.tokens), dropped=out.trace.dropped_tokens))
    al = align(out_a.trace.tokens, out_b.trace.tokens)
    if not al.ok:
        why = why_refused(len(al.tokens_a), len(al.tokens_b), len(al.pairs))
        st.warning(t(REFUSALS.get(why, "compare.refused.shared"), n_a=len(al.tokens_a), n_b=len(al.tokens_b),
                     shared=len(al.pairs)))
        return None
    try:
        return cache.shelf.get(("compare", src.name, a, b),
                               lambda: comparing.compare(a, b, src.name, loaded=loaded, outputs=(out_a, out_b)),
                               "compare.running", queued=True)
    except (ValueError, RuntimeError) as exc:
        st.error(t("compare.failed", error=f"{type(exc).__name__}: {exc}"))
        return None


REFUSALS = {"empty": "compare.refused.empty", "lengths": "compare.refused.lengths", "shared": "compare.refused.shared"}


def pick_head(c: Comparison, measure: str) -> None:
    """A new model, A or B: show the head whose attention changed most (a link's own head is kept), and
    wait for the button before patching again (it can take many seconds)."""
    context = (c.model, c.text_a, c.text_b)
    if _CONTEXT in st.session_state and st.session_state[_CONTEXT] != context:
        for key in (Keys.CMP_KIND, Keys.CMP_LAYER, Keys.CMP_HEAD):
            st.session_state[key] = None
        st.session_state[Keys.CMP_PATCH] = False
    st.session_state[_CONTEXT] = context
    if st.session_state.get(Keys.CMP_LAYER) is None or st.session_state.get(Keys.CMP_HEAD) is None:
        ranked = c.ranked(measure)
        if ranked and np.isfinite(ranked[0][1]):
            (kind, layer, head), _ = ranked[0]
            st.session_state.update({Keys.CMP_KIND: kind, Keys.CMP_LAYER: layer, Keys.CMP_HEAD: head})


def on_grid_click(c: Comparison) -> None:
    """A cell of the grid is (site row, head): that head is shown below."""
    from attention.params.selection import Selection, selection_from_event

    sel = selection_from_event(Selection(), st.session_state.get(Keys.CMP_GRID))
    if sel.query is not None and sel.key is not None and 0 <= sel.query < len(c.sites):
        site = c.sites[sel.query]
        if sel.key < len(site.js):
            st.session_state.update({Keys.CMP_KIND: site.kind, Keys.CMP_LAYER: site.layer, Keys.CMP_HEAD: sel.key})


@dataclass(frozen=True)
class HeadLink:
    """Where one head is shown in full: a page and the view it opens with (sentence A, that head)."""

    page: str
    values: dict


def head_link(src: Source, text: str, kind: str, layer: int, head: int) -> HeadLink:
    if src.home == "translate":
        return HeadLink("translate", {Keys.TR_TEXT: text, Keys.TR_KIND: kind, Keys.TR_LAYER: layer,
                                      Keys.TR_HEAD: head, Keys.TR_SEL_Q: None, Keys.TR_SEL_K: None})
    folder = "" if src == cache.source(None) else src.name  # Explore reads the sidebar's folder
    return HeadLink("explore", {Keys.TEXT: text, Keys.MODEL_PATH: folder, Keys.KIND: kind, Keys.LAYER: layer,
                                Keys.HEAD: head, Keys.SEL_Q: None, Keys.SEL_K: None})


def open_head(src_name: str, text: str, kind: str, layer: int, head: int) -> None:
    link = head_link(cache.source(src_name), text, kind, layer, head)
    state.go_later(link.page, **link.values)


def open_compare(src_name: str, text: str) -> None:
    """Compare with A = the text and B the same text, for the learner to change one word of it."""
    state.go_later("compare", **{Keys.CMP_A: text, Keys.CMP_B: text, Keys.CMP_MODEL: src_name, Keys.CMP_PATCH: False,
                                 Keys.CMP_KIND: None, Keys.CMP_LAYER: None, Keys.CMP_HEAD: None})


def open_button(src_name: str, text: str, key: str) -> None:
    """The "Change one word" button of Explore, Translate and Write."""
    st.button(t("compare.open"), key=key, icon=":material/compare_arrows:", on_click=open_compare,
              args=(src_name, text), help=t("compare.open_help"))


def patching(src: Source, c: Comparison) -> tuple[Patching, Patching]:
    """Every head patched alone, and all at once, from the shelf; a progress bar while it runs."""
    bar = progress.Bar()

    def reported(done: int, total: int) -> None:
        bar(done / max(total, 1), t("compare.patching_progress", done=done, total=total))

    kept = cache.shelf.get(("compare_patch", src.name, c.text_a, c.text_b),
                           lambda: (c.patching(reported), c.patching(together=True)), "compare.patching_spinner", queued=True)
    bar.done()
    return kept


def use_causal_pair() -> None:
    """A pair a causal model can show: the changed word early, so the words after it see the change."""
    a, b = CAUSAL_PAIR
    st.session_state.update({Keys.CMP_A: a, Keys.CMP_B: b, Keys.CMP_PATCH: False, Keys.CMP_KIND: None,
                             Keys.CMP_LAYER: None, Keys.CMP_HEAD: None})


def ask_patching() -> None:
    st.session_state[Keys.CMP_PATCH] = True


MISSING = {"switch": "compare.no_patch.switch", "encoder_decoder": "compare.no_patch.encoder_decoder"}
