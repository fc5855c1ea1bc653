"""Overview → On real text read as a learner reads it (issue 52), in both languages: the probe is said to be
below (where it is); each role has a plain sentence; the shares chart draws only the roles and says they
overlap, with what lies outside the largest role said in words, not as a bar; the q/k map says first whether
it can be trusted and is folded away when it cannot; the Chinese grid caption names the characters it shows."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from attention import i18n
from attention.analysis import claims
from attention.analysis.atlas import ROLES
from attention.analysis.atlas_map import joint_map
from attention.ui.state import Keys

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")
OWN = "The cat sat on the mat. The cat sat on the mat again. A dog ran home and the dog ran back."


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_atlas_says_what_a_learner_needs_to_read_it_right(lang, smollm2):
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page("views/overview.py")
    at.query_params["lang"] = lang
    at.run()
    subheaders = [h.value for h in at.subheader]
    assert subheaders.index(i18n.t("atlas.title", lang)) < subheaders.index(i18n.t("roles.title", lang))
    assert ("below" if lang == "en" else "下面") in i18n.t("atlas.intro", lang)  # the probe's section is below
    assert any(c.value == i18n.t("atlas.intro", lang) for c in at.caption)
    at.radio(key=Keys.OV_ATLAS_CORPUS).set_value("own")
    at.toggle(key=Keys.OV_ATLAS).set_value(True).run()
    at.text_area(key=Keys.OV_ATLAS_TEXT).set_value(OWN).run()
    assert not at.exception and not at.error
    shares = json.loads(next(c for c in at.get("plotly_chart") if c.key == "overview_atlas_shares").proto.spec)
    drawn = set(shares["data"][0]["x"])
    assert i18n.t("atlas.role.rest", lang) not in drawn and len(drawn) == len(ROLES)  # roles only, no remainder
    captions = [c.value for c in at.caption]
    overlap = i18n.t("atlas.overlap", lang).split("{")[0]
    assert any(c.startswith(overlap) for c in captions)
    assert i18n.t("atlas.definitions", lang).count("\n- ") == len(ROLES)  # one line, a sentence, per role
    at_ = at.session_state  # the map: trusted or said untrusted first and folded
    layer, head = at_[Keys.OV_ATLAS_LAYER], at_[Keys.OV_ATLAS_HEAD]
    from attention.ui.hosting import cache
    from attention.lm.atlas_corpus import Corpus, pieces

    atlas = cache.atlas("smollm2", Corpus("own", tuple(pieces(OWN)), (False,) * len(pieces(OWN))), lambda *_: None)
    m = joint_map(atlas, layer, head)
    untrusted = i18n.t("atlas.map_untrusted", lang, layer=layer, head=head)
    if claims.map_trusted(m.agreement):
        assert untrusted not in [w.value for w in at.warning] and not at.expander
    else:
        assert untrusted in [w.value for w in at.warning]
        assert any(e.label == i18n.t("atlas.map_folded", lang) for e in at.expander)


def test_the_chinese_grid_caption_names_characters_not_letters():
    zh = i18n.t("atlas.grid_caption", "zh")
    assert "字母" not in zh and "首" in zh and "局" in zh
