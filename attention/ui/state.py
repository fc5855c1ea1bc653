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

from attention import view as view_
from attention.params.selection import Selection
from attention.view import View

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
    shows: str = ""  # the built-in source a page shows whatever folder is named (attention/sources); "": the folder

    @property
    def params(self) -> dict[str, str]:
        """URL parameter -> session key: the view the link carries (declared in attention/view.py)."""
        return view_.PARAMS[self.name]

    @property
    def title_key(self) -> str:
        return f"page.{self.name}"


PAGES: dict[str, PageSpec] = {p.name: p for p in (
    PageSpec("explore", "views/explore.py", ":material/search:"),
    PageSpec("lesson", "views/lesson.py", ":material/school:"),
    PageSpec("translate", "views/translate.py", ":material/translate:", shows=sources.TRANSLATOR),
    PageSpec("learning", "views/learning.py", ":material/trending_up:", shows=sources.TRANSLATOR),
    PageSpec("find_heads", "views/find_heads.py", ":material/manage_search:"),
    PageSpec("overview", "views/overview.py", ":material/grid_view:"),
    PageSpec("does_it_matter", "views/does_it_matter.py", ":material/science:"),
    PageSpec("write", "views/write.py", ":material/edit_note:", shows=sources.SMOLLM2),
    PageSpec("compare", "views/compare.py", ":material/compare_arrows:"),
    PageSpec("forget", "views/forget.py", ":material/memory:", shows=sources.SMOLLM2),
    PageSpec("find_needle", "views/find_needle.py", ":material/search_insights:", shows=sources.SMOLLM2),
)}
DEFAULT_PAGE = "explore"
GLOBAL_PARAMS = view_.GLOBAL  # carried by every page's link
_DECLARED = {v for k, v in vars(Keys).items() if k.isupper()}
_EVENTS = {Keys.OV_GRID, Keys.OV_ROLLOUT, Keys.CMP_GRID, Keys.OV_ATLAS_GRID, Keys.WR_WRITES_GRID,  # chart events and an uploaded file:
           Keys.OV_ATLAS_FILE}  # Streamlit sets them, nobody may assign them
_OPENED = "_opened"  # set once the landing page has read its view from the link


parse = view_.parse  # a URL value as the type the key holds (None when it does not parse)
show = view_.show


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


def open_from_url(page: str, defaults: Mapping[str, object]) -> bool:
    """Once per session, on the page the person landed on: read its view (and the language) from the
    link; what the link does not say takes the defaults. Later page switches keep the session's view,
    unless the browser moved the address (returned_to()). True on the session's first run."""
    if st.session_state.get(_OPENED):
        returned_to(page)
        return False
    st.session_state[_OPENED] = True
    for key, value in defaults.items():
        st.session_state.setdefault(key, value)
    absorb(page if page in view_.PARAMS else None, st.query_params.to_dict())
    return True


def history_navigation() -> bool:
    """This run is Streamlit's rerun for the browser's Back or Forward. (Comparing addresses is no proof:
    the address a rerun brings can lag a tick behind what a fragment just wrote, as Learning's Play does.)"""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return bool(getattr(ctx, "is_history_navigation", False))


def returned_to(page: str) -> None:
    """After Back or Forward: read the view the address names (so one Back press shows the view before);
    a selection it does not name is none."""
    if not history_navigation():
        return
    now = st.query_params.to_dict()
    absorb(page if page in view_.PARAMS else None, now)
    for param, key in view_.PARAMS.get(page, {}).items():
        if key in view_.SELECTIONS and param not in now:
            st.session_state[key] = None


def absorb(page: str | None, params: Mapping[str, str]) -> None:
    """A link's parameters read into the session (the global ones only when the page is unknown)."""
    if page is None:
        for param, key in GLOBAL_PARAMS.items():
            value = parse(key, params[param]) if param in params else None
            if value is not None:
                st.session_state[key] = value
        return
    store(View.from_params(page, params))


def current(page: str) -> View:
    """The page's view as the session holds it now."""
    return View(page, {p: st.session_state.get(k) for p, k in view_.params_of(page).items()})


def store(v: View) -> None:
    """Write a view's set values into the session, each under its declared key."""
    for key, value in v.by_key().items():
        st.session_state[key] = value


def view(page: str) -> dict[str, str]:
    """The link's parameters for the page's current view (values that are set)."""
    return current(page).to_params()


def link(v: View) -> str:
    """The view's address, relative to the app's root."""
    from urllib.parse import urlencode

    return f"/{v.page}?{urlencode(v.to_params())}"


def write_url(page: str) -> None:
    """Mirror the page's view into the link (only when it changed, to avoid needless history)."""
    wanted = view(page)
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


def _by_key(page: str, values: Mapping[str, object]) -> dict[str, object]:
    """go()'s changes by the page's parameter name or by declared session key."""
    params = view_.params_of(page)
    out = {}
    for name, value in values.items():
        key = params.get(name, name)
        if key not in _DECLARED:
            raise KeyError(f"undeclared session key {name!r}")
        out[key] = value
    return out


def go(target: str | View, **values: object) -> None:
    """Move to another page showing a view: a View, or a page with changes by parameter (or by session
    key); the rest as it was."""
    if isinstance(target, View):
        store(target)
        target = target.page
    for key, value in _by_key(target, values).items():
        st.session_state[key] = value
    st.switch_page(PAGES[target].path, query_params=view(target))


_PENDING = "_go_to"  # a page a callback asked for: callbacks cannot switch pages themselves


def go_later(page: str, **values: object) -> None:
    """go() from a widget callback: the values now, the switch at the start of the next run (follow())."""
    for key, value in _by_key(page, values).items():
        st.session_state[key] = value
    st.session_state[_PENDING] = page


def switching() -> bool:
    """A callback asked for another page (go_later): a fragment reruns the whole app, whose follow() goes."""
    return _PENDING in st.session_state


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
