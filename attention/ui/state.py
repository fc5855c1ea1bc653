"""Every session key, every page and the view each page shows, declared once; the URL carries the view.

A page's view is its sentence, model, kind, layer, head, selection and its own settings. Each value
lives in st.session_state under one key (declared in Keys) and appears in the link under a short
parameter name (declared per page in PAGES), so a link to any page reopens the same view in a fresh
browser. `go(page, **view)` is the one way to move a person to another page with a view.

Streamlit forgets the value of a widget that a run does not draw (another page's widgets); `keep()`
hands every declared key its value back at the start of each run, the one way values survive a page
switch (no widget here uses persist_state).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import streamlit as st

from attention import sources

from attention.analysis.selection import Selection

from attention.keys import Keys  # noqa: F401  (declared where the pure lesson can name them too)


@dataclass(frozen=True)
class Scope:
    """One group of linked charts: the session keys of its selection."""

    query_key: str
    key_key: str


EXPLORE_SCOPE = Scope(Keys.SEL_Q, Keys.SEL_K)
TRANSLATE_SCOPE = Scope(Keys.TR_SEL_Q, Keys.TR_SEL_K)
LEARN_SCOPE = Scope(Keys.LEARN_SEL_Q, Keys.LEARN_SEL_K)
LESSON_SCOPE = Scope(Keys.LESSON_SEL_Q, Keys.LESSON_SEL_K)


@dataclass(frozen=True)
class PageSpec:
    name: str  # also the page's URL path
    path: str  # the file st.Page runs
    icon: str  # a Material icon: Streamlit ships its font, so it draws where no emoji font is installed
    params: Mapping[str, str]  # URL parameter -> session key: the view the link carries
    shows: str = ""  # the built-in source a page shows whatever folder is named (attention/sources); "": the folder

    @property
    def title_key(self) -> str:
        return f"page.{self.name}"


PAGES: dict[str, PageSpec] = {p.name: p for p in (
    PageSpec("explore", "views/explore.py", ":material/search:", {
        "text": Keys.TEXT, "model": Keys.MODEL_PATH, "kind": Keys.KIND, "layer": Keys.LAYER, "head": Keys.HEAD,
        "q": Keys.SEL_Q, "k": Keys.SEL_K, "words": Keys.MERGE_WORDS}),
    PageSpec("lesson", "views/lesson.py", ":material/school:", {
        "text": Keys.LESSON_TEXT, "tr_text": Keys.LESSON_TR_TEXT, "model": Keys.MODEL_PATH, "step": Keys.LESSON_STEP,
        "layer": Keys.LESSON_LAYER, "head": Keys.LESSON_HEAD, "q": Keys.LESSON_SEL_Q, "k": Keys.LESSON_SEL_K}),
    PageSpec("translate", "views/translate.py", ":material/translate:", {
        "text": Keys.TR_TEXT, "kind": Keys.TR_KIND, "layer": Keys.TR_LAYER, "head": Keys.TR_HEAD,
        "q": Keys.TR_SEL_Q, "k": Keys.TR_SEL_K}, shows=sources.TRANSLATOR),
    PageSpec("learning", "views/learning.py", ":material/trending_up:", {
        "text": Keys.LEARN_TEXT, "kind": Keys.LEARN_KIND, "layer": Keys.LEARN_LAYER, "head": Keys.LEARN_HEAD,
        "step": Keys.LEARN_STEP}, shows=sources.TRANSLATOR),
    PageSpec("find_heads", "views/find_heads.py", ":material/manage_search:", {
        "text": Keys.TEXT, "model": Keys.MODEL_PATH, "kind": Keys.KIND, "q": Keys.REL_QUERY, "k": Keys.REL_KEY,
        "by": Keys.REL_BY, "words": Keys.MERGE_WORDS}),
    PageSpec("overview", "views/overview.py", ":material/grid_view:", {
        "source": Keys.OV_SOURCE, "text": Keys.TEXT, "tr_text": Keys.TR_TEXT, "model": Keys.MODEL_PATH,
        "kind": Keys.OV_KIND, "words": Keys.MERGE_WORDS, "order": Keys.OV_ORDER, "asc": Keys.OV_ASCENDING}),
    PageSpec("does_it_matter", "views/does_it_matter.py", ":material/science:", {
        "source": Keys.ABL_SOURCE, "text": Keys.TEXT, "tr_text": Keys.TR_TEXT, "model": Keys.MODEL_PATH,
        "heads": Keys.ABL_HEADS, "mode": Keys.ABL_MODE, "word": Keys.ABL_WORD,
        "kind": Keys.KIND, "q": Keys.SEL_Q, "k": Keys.SEL_K,
        "tr_kind": Keys.TR_KIND, "tr_q": Keys.TR_SEL_Q, "tr_k": Keys.TR_SEL_K}),
    PageSpec("write", "views/write.py", ":material/edit_note:", {
        "prompt": Keys.WR_PROMPT, "t": Keys.WR_TEMPERATURE, "top_k": Keys.WR_TOP_K, "top_p": Keys.WR_TOP_P,
        "sampled": Keys.WR_SAMPLED, "seed": Keys.WR_SEED, "ids": Keys.WR_IDS, "step": Keys.WR_STEP,
        "layer": Keys.WR_LAYER, "head": Keys.WR_HEAD}, shows=sources.SMOLLM2),
    PageSpec("compare", "views/compare.py", ":material/compare_arrows:", {
        "a": Keys.CMP_A, "b": Keys.CMP_B, "model": Keys.CMP_MODEL, "measure": Keys.CMP_MEASURE, "kind": Keys.CMP_KIND,
        "layer": Keys.CMP_LAYER, "head": Keys.CMP_HEAD, "patch": Keys.CMP_PATCH}),
)}
DEFAULT_PAGE = "explore"
GLOBAL_PARAMS = {"lang": Keys.LANG, "cvd": Keys.CVD_COLOURS}  # carried by every page's link
_ONLY_WHEN_ON = {Keys.CVD_COLOURS}  # settings the link names only when switched on (most links stay as they were)
_DECLARED = {v for k, v in vars(Keys).items() if k.isupper()}
_EVENTS = {Keys.OV_GRID, Keys.OV_ROLLOUT, Keys.CMP_GRID}  # chart events: Streamlit sets them, nobody may assign them
_BOOLS = {Keys.MERGE_WORDS, Keys.OV_ASCENDING, Keys.VALUE_WEIGHTED, Keys.CVD_COLOURS, Keys.WR_SAMPLED,
          Keys.CMP_PATCH}
_INTS = {Keys.LAYER, Keys.HEAD, Keys.SEL_Q, Keys.SEL_K, Keys.TR_LAYER, Keys.TR_HEAD, Keys.TR_SEL_Q, Keys.TR_SEL_K,
         Keys.LEARN_LAYER, Keys.LEARN_HEAD, Keys.LEARN_STEP, Keys.REL_QUERY, Keys.REL_KEY, Keys.ABL_WORD,
         Keys.LESSON_STEP, Keys.LESSON_LAYER, Keys.LESSON_HEAD, Keys.LESSON_SEL_Q, Keys.LESSON_SEL_K,
         Keys.WR_TOP_K, Keys.WR_SEED, Keys.WR_STEP, Keys.WR_LAYER, Keys.WR_HEAD, Keys.CMP_LAYER, Keys.CMP_HEAD}
_FLOATS = {Keys.WR_TEMPERATURE, Keys.WR_TOP_P}
_OPENED = "_opened"  # set once the landing page has read its view from the link


def parse(key: str, raw: str) -> object:
    """A URL value as the type the key holds (None when it does not parse)."""
    if key in _BOOLS:
        return raw.lower() in ("1", "true", "yes", "on")
    if key in _INTS:
        try:
            return int(raw)
        except ValueError:
            return None
    if key in _FLOATS:
        try:
            return float(raw)
        except ValueError:
            return None
    return raw


def show(value: object) -> str:
    return ("1" if value else "0") if isinstance(value, bool) else str(value)


def keep() -> None:
    """Hand every declared key its own value back, so widgets another page draws keep them."""
    for key in _DECLARED - _EVENTS:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def language_from_url() -> None:
    """The navigation names every page before the landing page reads its view (open_from_url): on the
    session's first run the language comes from the link first, so those names are in it too."""
    if not st.session_state.get(_OPENED) and "lang" in st.query_params:
        st.session_state[Keys.LANG] = st.query_params["lang"]  # an unknown one falls back (ui/lang.py)


def open_from_url(page: str, defaults: Mapping[str, object]) -> None:
    """Once per session, on the page the person landed on: read its view (and the language) from the
    link; what the link does not say takes the defaults. Later page switches keep the session's view."""
    if st.session_state.get(_OPENED):
        return
    st.session_state[_OPENED] = True
    params = st.query_params.to_dict()
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    spec = PAGES.get(page)
    wanted = {**GLOBAL_PARAMS, **(spec.params if spec else {})}
    for param, key in wanted.items():
        if param in params:
            value = parse(key, params[param])
            if value is not None:
                st.session_state[key] = value


def view(page: str) -> dict[str, str]:
    """The link's parameters for the page's current view (values that are set)."""
    wanted = {**GLOBAL_PARAMS, **PAGES[page].params}
    values = {param: st.session_state.get(key) for param, key in wanted.items()
              if key not in _ONLY_WHEN_ON or st.session_state.get(key)}
    return {param: show(v) for param, v in values.items() if v is not None and v != ""}


def write_url(page: str) -> None:
    """Mirror the page's view into the link (only when it changed, to avoid needless history)."""
    wanted = view(page)
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


def go(page: str, **values: object) -> None:
    """Move to another page showing the given view: values by session key, the rest as it was."""
    for key, value in values.items():
        if key not in _DECLARED:
            raise KeyError(f"undeclared session key {key!r}")
        st.session_state[key] = value
    spec = PAGES[page]
    st.switch_page(spec.path, query_params=view(page))


_PENDING = "_go_to"  # a page a callback asked for: callbacks cannot switch pages themselves


def go_later(page: str, **values: object) -> None:
    """go() from a widget callback: the values now, the switch at the start of the next run (follow())."""
    for key, value in values.items():
        if key not in _DECLARED:
            raise KeyError(f"undeclared session key {key!r}")
        st.session_state[key] = value
    st.session_state[_PENDING] = page


def follow() -> None:
    """Carry out a go_later() (app.py calls this before the page runs)."""
    page = st.session_state.pop(_PENDING, None)
    if page is not None:
        go(page)


# The selection of one scope belongs to its sentence, model and kind: a change of any clears it
# (a layer or head change keeps it). The context it was made in is kept beside it.
def get_selection(scope: Scope = EXPLORE_SCOPE, context: tuple | None = None) -> Selection:
    if context is not None:
        ctx_key = f"_ctx_{scope.query_key}"
        if ctx_key in st.session_state and st.session_state[ctx_key] != context:
            set_selection(Selection(), scope)
        st.session_state[ctx_key] = context
    return Selection(st.session_state.get(scope.query_key), st.session_state.get(scope.key_key))


def adopt_selection(scope: Scope, context: tuple) -> None:
    """Declare the scope's selection made in `context` (before go() sets it from another page): the
    page then keeps it rather than clearing it as belonging to another sentence."""
    st.session_state[f"_ctx_{scope.query_key}"] = context


def set_selection(sel: Selection, scope: Scope = EXPLORE_SCOPE) -> None:
    st.session_state[scope.query_key] = sel.query
    st.session_state[scope.key_key] = sel.key


def int_choice(key: str, options: list[int]) -> None:
    """Coerce a value (from the link, or another page) into one of the options before the widget is drawn."""
    raw = st.session_state.get(key)
    try:
        value = int(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        value = options[0]
    st.session_state[key] = value if value in options else options[0]


def str_choice(key: str, options: list[str], default: str | None = None) -> None:
    """Keep a choice valid: one of the options, else the default (else the first option)."""
    if st.session_state.get(key) not in options:
        st.session_state[key] = default if default in options else options[0]
