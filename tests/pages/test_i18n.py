"""Every UI string exists in English and Chinese, and every key the code asks for exists."""

import string

import pytest

from attention import i18n


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(i18n.STRINGS))
def test_every_string_has_every_language_with_the_same_placeholders(key):
    entry = i18n.STRINGS[key]
    assert set(entry) == set(i18n.LANGUAGES), f"{key} is missing {set(i18n.LANGUAGES) - set(entry)}"
    assert all(entry[lang].strip() for lang in i18n.LANGUAGES)
    assert fields(entry["zh"]) == fields(entry["en"])


def test_chinese_uses_the_usual_terms():
    zh = " ".join(e["zh"] for e in i18n.STRINGS.values())
    for term in ("查询", "键", "值", "因子矩阵", "注意力权重", "加权和"):
        assert term in zh
    lesson = " ".join(e["zh"] for k, e in i18n.STRINGS.items() if k.startswith("lesson."))
    for term in ("因子矩阵", "查询", "键", "值", "掩码"):  # the article's own terms, in the lesson too
        assert term in lesson


def test_unknown_language_falls_back_to_english():
    assert i18n.t("explore.title", "xx") == "Explore attention"


def test_every_capture_path_has_words():
    from attention.trace import CAPTURE_PATHS

    for code in CAPTURE_PATHS:
        assert f"capture.{code}" in i18n.STRINGS


def test_trace_notes_say_every_typed_field_in_the_chosen_language():
    from attention.trace import Trace
    from attention.ui.lang import trace_notes

    tr = Trace("t", "m", ("a", "<unk>"), (), dropped_tokens=3, unknown_words=("zorblax",),
               unknown_target_words=("blorp",), decoding_capped=True, teacher_forced=True, capture_path="recorder")
    en, zh = trace_notes(tr, language="en"), trace_notes(tr, language="zh")
    assert len(en) == len(zh) == 6 and not set(en) & set(zh)
    assert en == [i18n.t("explore.truncated", "en", max=2, dropped=3),
                  i18n.t("translate.unknown", "en", words="zorblax"),
                  i18n.t("notes.unknown_target", "en", words="blorp"),
                  i18n.t("notes.decoding_capped", "en"), i18n.t("notes.teacher_forced", "en"),
                  i18n.t("capture.recorder", "en")]
    assert "zorblax" in zh[1] and "blorp" in zh[2]
    assert trace_notes(tr, skip=("unknown_words", "capture_path"), language="zh") == zh[:1] + zh[2:5]
    assert trace_notes(Trace("t", "m", (), ()), language="en") == []  # nothing to say
    with pytest.raises(ValueError):
        trace_notes(tr, skip=("unknown",), language="en")  # a typo would silently show the note twice
