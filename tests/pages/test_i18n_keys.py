"""Every key the UI can ask for is in the tables, however the key is built; and what the tables hold
that nothing asks for is reported.

Two independent finders: the source read statically (tests/pages/i18n_scan.py: literals, f-string
families expanded over their source tables, key-shaped constants held in variables), and the keys
t() is really called with while AppTest runs every page of state.PAGES in both languages. The run
also checks the static finder: every key a page asked for must be one the scan can see.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.analysis import atlas, claims, effects, head_roles, head_stats, role_kinds, why_word
from attention.analysis.learning_curves import Effect
from attention.lm import evict_policies, smollm2
from attention.ui.pages import atlas_section
from attention.headview.payload import LABELS
from attention.trace import CAPTURE_PATHS, FALLBACKS, KINDS, MISSING_QKV
from attention.trace_count import SITE_PROBLEMS
from attention.ui.head_view import explanations, long_component
from attention.ui import state
from tests.pages import i18n_scan

APP = str(Path(__file__).resolve().parents[2] / "app.py")
FILE_SUFFIXES = {"js", "css", "py", "json", "html", "csv", "npz", "png", "svg", "md", "txt", "pt"}
RUNTIME = None  # a family whose values are a page's literal widget options: the page run below sees them all


def _weights_grid() -> Iterable[Effect]:
    values = (0.0, 0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.9)
    return (Effect((a, b), (c, d), n) for a, b, c, d in itertools.product(values, repeat=4) for n in (2, 10))


# Each f-string family the source builds, and where its values come from: the table the code reads, or
# every word the function can return over a grid of inputs. A family missing here fails the test below.
FAMILIES: dict[str, Callable[[], Iterable[str]] | None] = {
    "kind.{}": lambda: KINDS,
    "compare.kind_short.{}": lambda: KINDS,
    "capture.{}": lambda: CAPTURE_PATHS,
    "fallback.{}": lambda: FALLBACKS,
    "missing_qkv.{}": lambda: MISSING_QKV,
    "problem.{}": lambda: SITE_PROBLEMS,
    "page.{}": lambda: state.PAGES,
    "tab.{}": lambda: explanations.TABS,
    "headview.{}": lambda: LABELS,
    "long.js.{}": lambda: long_component.LABELS,
    "overview.stat.{}": lambda: head_stats.STAT_COLUMNS,
    "ablation.mode_{}": lambda: effects.MODES,
    "why.ref_{}": lambda: why_word.REFERENCES,
    "why.strength_{}": lambda: why_word.STRENGTHS,
    "learning.lead.{}": lambda: {e.lead_key.removeprefix("learning.lead.") for e in _weights_grid()},
    "learning.trend.{}": lambda: {e.trend for e in _weights_grid()},
    "ablation.agree.{}": lambda: {effects.agreement(r) for r in [math.nan, *(x / 20 for x in range(-20, 21))]},
    "ablation.level.{}": lambda: {effects.agreement(r) for r in [math.nan, *(x / 20 for x in range(-20, 21))]},
    "ablation.source_{}": RUNTIME,
    "ablation.m.{}": RUNTIME,
    "relevance.by_{}": RUNTIME,
    "fg.policy_{}": lambda: evict_policies.POLICIES,
    "fg.kl_means.{}": lambda: [band for _, band in claims.KL_BANDS] + ["lost"],
    "atlas.stage.{}": lambda: atlas_section.STAGES,
    "write.stage_{}": lambda: [stage for stage, _ in smollm2.STAGES],
    "roles.name.{}": lambda: head_roles.ROLES,
    "atlas.role.{}": lambda: (*atlas.ROLES, "rest"),
    "roles.formula.{}": lambda: head_roles.ROLES,
    "roles.na.{}": lambda: head_roles.NOT_APPLICABLE,
    "roles.na.cross.{}": lambda: role_kinds.CROSS_NOT_APPLICABLE,
}
GENERIC = {"{}{}"}  # lang.formatter's own f"{prefix}{value}": its prefixes are found at each formatter() call


def static_keys(found: i18n_scan.Found) -> tuple[set[str], list[str]]:
    """Every key the source can ask for, and what is wrong (missing keys, families with no domain)."""
    problems = []
    namespaces = i18n_scan.namespaces(i18n.STRINGS)
    prefixes = {p[:-2] for p in found.families}
    wanted = dict(found.literals)
    for key, where in found.key_shaped.items():
        if key.split(".")[0] in namespaces and key.rsplit(".", 1)[1] not in FILE_SUFFIXES and key not in prefixes:
            wanted.setdefault(key, where)
    for family, where in found.families.items():
        if family in GENERIC:
            continue
        if family not in FAMILIES:
            problems.append(f"{where}: the key family {family!r} has no declared values: add it to FAMILIES")
            continue
        domain = FAMILIES[family]
        if domain is RUNTIME:
            if not any(i18n_scan.family_regex(family).fullmatch(k) for k in i18n.STRINGS):
                problems.append(f"{where}: no key at all in the family {family!r}")
            continue
        for value in domain():
            wanted.setdefault(family.replace("{}", str(value)), where)
    problems += [f"{where}: {key!r} is not in the tables" for key, where in wanted.items() if key not in i18n.STRINGS]
    return set(wanted), problems


@pytest.fixture(scope="module")
def scanned() -> i18n_scan.Found:
    """The source read once for this file: the scan reads the code, never the tables the tests change."""
    return i18n_scan.scan()


def test_every_key_the_source_can_ask_for_is_in_the_tables(scanned):
    found = scanned
    assert len(found.literals) > 100 and len(found.families) >= len(FAMILIES)  # the scan reads the real code
    keys, problems = static_keys(found)
    assert not problems, "\n".join(problems)
    assert not set(FAMILIES) - set(found.families), "FAMILIES names a family the code no longer builds"


@pytest.mark.parametrize("key", ["learning.trend.narrowed", "title.S", "ablation.level.weak", "page.overview",
                                 "learning.score", "app.tracing", "overview.export_caption_words"])
def test_deleting_any_kind_of_key_is_caught(monkeypatch, scanned, key):
    """Each shape of key the old regex scan missed: a family value reached only by some data
    (narrowed), a capital letter, a nested family, a key built in another module, keys held in a tuple,
    passed as a spinner argument, or chosen by an if-expression."""
    assert key in i18n.STRINGS
    monkeypatch.delitem(i18n.STRINGS, key)
    _, problems = static_keys(scanned)
    assert any(repr(key) in p for p in problems), problems


def test_an_undeclared_family_is_refused(tmp_path, monkeypatch):
    page = tmp_path / "page.py"
    page.write_text('from attention.ui.lang import t\nt(f"lesson.step.{n}")\n')
    monkeypatch.setattr(i18n_scan, "ROOT", tmp_path)
    _, problems = static_keys(i18n_scan.scan([page]))
    assert problems == ["page.py:2: the key family 'lesson.step.{}' has no declared values: add it to FAMILIES"]


@pytest.fixture
def asked(monkeypatch) -> set[str]:
    """The keys i18n.t is called with (lang.t, formatter and the notes all go through it)."""
    keys: set[str] = set()
    original = i18n.t

    def recording(key: str, lang: str = i18n.DEFAULT_LANGUAGE, **values: object) -> str:
        keys.add(key)
        return original(key, lang, **values)

    monkeypatch.setattr(i18n, "t", recording)
    return keys


@pytest.mark.model
def test_every_page_in_both_languages_asks_only_for_keys_in_the_tables(asked, capsys):
    for lang in i18n.LANGUAGES:
        at = AppTest.from_file(APP, default_timeout=180)
        at.query_params["lang"] = lang
        at.run()
        for name, spec in state.PAGES.items():  # a page added later is covered without editing this test
            at.switch_page(spec.path).run()
            assert not at.exception, (lang, name, [e.value for e in at.exception])
            assert at.session_state["lang"] == lang
    assert len(asked) > 150
    assert not asked - set(i18n.STRINGS)
    found = i18n_scan.scan()
    seen, _ = static_keys(found)
    runtime_families = [i18n_scan.family_regex(f) for f, d in FAMILIES.items() if d is RUNTIME]
    unseen = sorted(k for k in asked if k not in seen and not any(r.fullmatch(k) for r in runtime_families))
    assert not unseen, f"keys the pages ask for that the static scan cannot see: {unseen}"
    never = sorted(set(i18n.STRINGS) - seen - asked)
    with capsys.disabled():  # a report, not a failure: a key may wait for a page that shows it later
        print(f"\n{len(never)} i18n keys nothing was seen asking for: {', '.join(never) or '-'}")
