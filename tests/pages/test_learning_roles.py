"""Learning → Head roles over training through AppTest, in both languages: per kind of attention, the step
each role appears at (or that it never does), from the real snapshots."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.analysis import role_emergence
from attention.translator import read_snapshots, roles
from attention.ui.state import Keys

pytestmark = pytest.mark.model  # the translator's snapshots load
APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture(scope="module")
def emergence() -> dict[str, dict[str, role_emergence.Emergence]]:
    snaps = read_snapshots()
    per = [roles.measure(m) for _, m in snaps]
    steps = [s for s, _ in snaps]
    return {kind: role_emergence.over_training(steps, [p[kind] for p in per]) for kind in roles.KINDS}


def open_learning(lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    at.switch_page("views/learning.py")
    at.query_params["lang"] = lang
    return at.run()


def test_the_section_is_closed_until_asked(emergence):
    at = open_learning("en")
    assert not at.exception
    assert at.subheader[-1].value == i18n.t("learning.roles", "en")
    assert not any(c.value.startswith("Probe in the translator") for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_role_appears_where_the_rule_says_or_never(lang, emergence):
    at = open_learning(lang)
    n_charts = len(at.get("plotly_chart"))
    at.toggle(key=Keys.LEARN_ROLES).set_value(True).run()
    assert not at.exception and not at.error
    text = "\n".join(m.value for m in at.markdown)
    names = {r: i18n.t(f"roles.name.{r}", lang) for r in role_emergence.APPEAR_ROLES}
    dec = emergence["decoder"]
    # what the snapshots show (measured here): the masked decoder learns duplicate, then sink, then induction
    assert dec["duplicate"].appears < dec["sink"].appears < dec["induction"].appears
    assert dec["previous"].appears is None
    for kind, em in emergence.items():
        for e in em.values():
            if e.appears is None:
                said = i18n.t("learning.roles_never", lang, role=names[e.role], last=float(e.best[-1]), bar=e.bar,
                              even=e.even, first=float(e.best[0]))
            else:
                layer, head = e.best_head[-1]
                said = i18n.t("learning.roles_appears", lang, role=names[e.role], step=e.appears, bar=e.bar,
                              even=e.even, layer=layer, head=head, count=int(e.count[-1]), total=8)
            assert said in text, (kind, e.role)
    # the encoder learns none of them; no sentence claims it does
    assert all(e.appears is None for e in emergence["encoder"].values())
    # cross-attention: only the sink is judged, and the page says why the others are not
    assert set(emergence["cross"]) == {"sink"}
    captions = "\n".join(c.value for c in at.caption)
    assert i18n.t("roles.na.cross.induction", lang) in captions and i18n.t("roles.na.induction", lang) in captions
    assert len(at.get("plotly_chart")) == n_charts + 3  # one per kind of attention
