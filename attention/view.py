"""A page's view as one frozen value, and its link: pure (no Streamlit).

PARAMS names, per page, each link parameter and the session key its value lives under (the one place
widget keys are named: `params_of(page)[param]` reads it). A View holds one page's
values by parameter; `to_params()` is its link and `View.from_params()` reads a link back, typed by
the key (INTS, BOOLS, FLOATS) and with values that do not parse left out.

Adding a page's parameters: one entry in PARAMS (param -> Keys.*), its typed keys added to INTS /
BOOLS / FLOATS, its name to tests/test_view.py's EVERY; ui/state.py's PAGES then names the page.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from attention.keys import Keys

# page -> link parameter -> session key: the view each page's link carries
PARAMS: dict[str, dict[str, str]] = {
    "explore": {
        "text": Keys.TEXT, "model": Keys.MODEL_PATH, "kind": Keys.KIND, "layer": Keys.LAYER, "head": Keys.HEAD,
        "q": Keys.SEL_Q, "k": Keys.SEL_K, "words": Keys.MERGE_WORDS},
    "lesson": {
        "text": Keys.LESSON_TEXT, "tr_text": Keys.LESSON_TR_TEXT, "model": Keys.MODEL_PATH, "step": Keys.LESSON_STEP,
        "layer": Keys.LESSON_LAYER, "head": Keys.LESSON_HEAD, "q": Keys.LESSON_SEL_Q, "k": Keys.LESSON_SEL_K},
    "translate": {
        "text": Keys.TR_TEXT, "kind": Keys.TR_KIND, "layer": Keys.TR_LAYER, "head": Keys.TR_HEAD,
        "q": Keys.TR_SEL_Q, "k": Keys.TR_SEL_K, "writes": Keys.TR_WRITES, "wpos": Keys.TR_WRITES_POS},
    "learning": {
        "text": Keys.LEARN_TEXT, "kind": Keys.LEARN_KIND, "layer": Keys.LEARN_LAYER, "head": Keys.LEARN_HEAD,
        "step": Keys.LEARN_STEP, "roles": Keys.LEARN_ROLES},
    "find_heads": {
        "text": Keys.TEXT, "model": Keys.MODEL_PATH, "kind": Keys.KIND, "q": Keys.REL_QUERY, "k": Keys.REL_KEY,
        "by": Keys.REL_BY, "words": Keys.MERGE_WORDS},
    "overview": {
        "source": Keys.OV_SOURCE, "text": Keys.TEXT, "tr_text": Keys.TR_TEXT, "model": Keys.MODEL_PATH,
        "kind": Keys.OV_KIND, "words": Keys.MERGE_WORDS, "order": Keys.OV_ORDER, "asc": Keys.OV_ASCENDING},
    "does_it_matter": {
        "source": Keys.ABL_SOURCE, "text": Keys.TEXT, "tr_text": Keys.TR_TEXT, "model": Keys.MODEL_PATH,
        "heads": Keys.ABL_HEADS, "mode": Keys.ABL_MODE, "word": Keys.ABL_WORD,
        "kind": Keys.KIND, "q": Keys.SEL_Q, "k": Keys.SEL_K,
        "tr_kind": Keys.TR_KIND, "tr_q": Keys.TR_SEL_Q, "tr_k": Keys.TR_SEL_K},
    "write": {
        "prompt": Keys.WR_PROMPT, "t": Keys.WR_TEMPERATURE, "top_k": Keys.WR_TOP_K, "top_p": Keys.WR_TOP_P,
        "sampled": Keys.WR_SAMPLED, "seed": Keys.WR_SEED, "ids": Keys.WR_IDS, "step": Keys.WR_STEP,
        "layer": Keys.WR_LAYER, "head": Keys.WR_HEAD, "writes": Keys.WR_WRITES, "word": Keys.WR_WRITES_TOKEN,
        "vs": Keys.WR_WRITES_VS},
    "forget": {
        "prompt": Keys.FG_PROMPT, "policy": Keys.FG_POLICY, "budget": Keys.FG_BUDGET, "sinks": Keys.FG_SINKS,
        "words": Keys.FG_WORDS, "layer": Keys.FG_LAYER},
    "find_needle": {
        "needle": Keys.ND_NEEDLE, "question": Keys.ND_QUESTION, "answer": Keys.ND_ANSWER, "length": Keys.ND_LENGTH,
        "depth": Keys.ND_DEPTH, "head": Keys.ND_HEAD, "budget": Keys.ND_BUDGET, "go": Keys.ND_GO},
    "compare": {
        "a": Keys.CMP_A, "b": Keys.CMP_B, "model": Keys.CMP_MODEL, "measure": Keys.CMP_MEASURE, "kind": Keys.CMP_KIND,
        "layer": Keys.CMP_LAYER, "head": Keys.CMP_HEAD, "patch": Keys.CMP_PATCH},
}
GLOBAL: dict[str, str] = {"lang": Keys.LANG, "cvd": Keys.CVD_COLOURS}  # carried by every page's link
EXPLORE_TEXT = "The black cat drank the milk"  # Explore's first sentence (app.py), traced before a replica is ready
ONLY_WHEN_ON = frozenset({Keys.CVD_COLOURS})  # named in the link only when switched on

# the type each session key holds (a link's text is parsed into it); the rest are text
BOOLS = frozenset({Keys.MERGE_WORDS, Keys.OV_ASCENDING, Keys.VALUE_WEIGHTED, Keys.CVD_COLOURS, Keys.WR_SAMPLED,
                   Keys.WR_WRITES, Keys.CMP_PATCH, Keys.LEARN_ROLES, Keys.ND_GO, Keys.TR_WRITES})
INTS = frozenset({
    Keys.LAYER, Keys.HEAD, Keys.SEL_Q, Keys.SEL_K, Keys.TR_LAYER, Keys.TR_HEAD, Keys.TR_SEL_Q, Keys.TR_SEL_K,
    Keys.LEARN_LAYER, Keys.LEARN_HEAD, Keys.LEARN_STEP, Keys.REL_QUERY, Keys.REL_KEY, Keys.ABL_WORD,
    Keys.LESSON_STEP, Keys.LESSON_LAYER, Keys.LESSON_HEAD, Keys.LESSON_SEL_Q, Keys.LESSON_SEL_K,
    Keys.WR_TOP_K, Keys.WR_SEED, Keys.WR_STEP, Keys.WR_LAYER, Keys.WR_HEAD, Keys.WR_WRITES_TOKEN, Keys.WR_WRITES_VS,
    Keys.CMP_LAYER, Keys.CMP_HEAD, Keys.FG_BUDGET, Keys.FG_SINKS, Keys.FG_WORDS, Keys.FG_LAYER, Keys.ND_LENGTH,
    Keys.ND_BUDGET, Keys.TR_WRITES_POS})
# A selection a link does not name is none: Back to an address without one clears it. The Write page's
# written words too: a link leaves out none written, and Back to the prompt alone must drop them
SELECTIONS = frozenset({Keys.SEL_Q, Keys.SEL_K, Keys.TR_SEL_Q, Keys.TR_SEL_K, Keys.LESSON_SEL_Q, Keys.LESSON_SEL_K,
                        Keys.WR_IDS})
FLOATS = frozenset({Keys.WR_TEMPERATURE, Keys.WR_TOP_P, Keys.ND_DEPTH})
_TRUE = ("1", "true", "yes", "on")


def params_of(page: str) -> dict[str, str]:
    """Every parameter the page's link may carry (the page's own and the global ones) -> session key."""
    return {**GLOBAL, **PARAMS[page]}


def shared() -> frozenset[str]:
    """Session keys more than one page shows (the sentence, the model…): a change on one page is seen
    on the others."""
    seen: dict[str, int] = {}
    for spec in PARAMS.values():
        for key in set(spec.values()):
            seen[key] = seen.get(key, 0) + 1
    return frozenset(k for k, n in seen.items() if n > 1)


def split_keys(page: str) -> tuple[dict[str, str], dict[str, str]]:
    """The page's parameters in two: those whose key other pages share, and its own."""
    common = shared()
    spec = PARAMS[page]
    return ({p: k for p, k in spec.items() if k in common}, {p: k for p, k in spec.items() if k not in common})


def parse(key: str, raw: str) -> object:
    """A link's text as the type the key holds; None when it does not parse (a negative position, NaN)."""
    if key in BOOLS:
        return raw.strip().lower() in _TRUE
    if key in INTS:
        try:
            value = int(raw.strip())
        except ValueError:
            return None
        return value if value >= 0 else None  # layers, heads, positions, steps, seeds count from 0
    if key in FLOATS:
        try:
            number = float(raw)
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return raw


def show(value: object) -> str:
    """A value as the link writes it."""
    return ("1" if value else "0") if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class View:
    """What one page shows: its values by link parameter (None: not set). Frozen: a change is a new View."""

    page: str
    values: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.page not in PARAMS:
            raise KeyError(f"no page {self.page!r}")
        known = params_of(self.page)
        unknown = set(self.values) - set(known)
        if unknown:
            raise KeyError(f"{self.page} has no parameter {sorted(unknown)}")
        object.__setattr__(self, "values", dict(self.values))  # a copy: the caller's dict may change

    def get(self, param: str, default: object = None) -> object:
        value = self.values.get(param)
        return default if value is None else value

    def but(self, **changes: object) -> View:
        """The same view with some parameters changed."""
        return View(self.page, {**self.values, **changes})

    def keys(self) -> dict[str, str]:
        """parameter -> session key for this page."""
        return params_of(self.page)

    def by_key(self) -> dict[str, object]:
        """The set values by session key (what state.store writes)."""
        keys = self.keys()
        return {keys[p]: v for p, v in self.values.items() if v is not None}

    def to_params(self) -> dict[str, str]:
        """The link's parameters: every value that is set, switches named only when on."""
        keys = self.keys()
        return {p: show(v) for p, v in self.values.items()
                if v is not None and v != "" and (keys[p] not in ONLY_WHEN_ON or v)}

    @classmethod
    def from_params(cls, page: str, params: Mapping[str, str]) -> View:
        """The view a link names: unknown parameters and values that do not parse are left out."""
        keys = params_of(page)
        values = {}
        for param, raw in params.items():
            if param in keys:
                value = parse(keys[param], raw if isinstance(raw, str) else str(raw))
                if value is not None:
                    values[param] = value
        return cls(page, values)
