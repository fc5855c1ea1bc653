"""Every word the app shows, in English and Simplified Chinese. tests/pages/test_i18n*.py fail on a gap.

Terms follow the usual Chinese usage: 查询 Query, 键 Key, 值 Value, 因子矩阵 for the factor matrix
Q·Kᵀ, 注意力权重 attention weights, 加权和 weighted sum. The strings live beside this file, one
module per part of the app; they are merged here.
"""

from __future__ import annotations

from attention.i18n import (a11y_text, ablation_text, atlas_text, capture_text, common_text, compare_text, explain_text,
                            find_heads_text, lens_text, lesson_lm_text, long_text, lesson_text, overview_text, pages_text,
                            roles_text, translator_text, why_text, write_text, writes_text, forget_text, needle_text)

LANGUAGES: dict[str, str] = {"en": "English", "zh": "中文"}
DEFAULT_LANGUAGE = "en"

STRINGS: dict[str, dict[str, str]] = {}
for _part in (common_text, capture_text, explain_text, translator_text, find_heads_text, overview_text, pages_text,
              ablation_text, lesson_text, lesson_lm_text, a11y_text, write_text, roles_text, lens_text, why_text,
              compare_text, long_text, forget_text, atlas_text, writes_text, needle_text):
    _clash = set(STRINGS) & set(_part.STRINGS)
    assert not _clash, f"string keys defined twice: {_clash}"
    STRINGS.update(_part.STRINGS)


def t(key: str, lang: str = DEFAULT_LANGUAGE, **values: object) -> str:
    """The string `key` in `lang`, formatted with `values`; English when the language is unknown."""
    entry = STRINGS[key]
    text = entry.get(lang) or entry[DEFAULT_LANGUAGE]
    return text.format(**values) if values else text
