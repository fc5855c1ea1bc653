"""The Forget page's words at a phone's width (issue 52): the policy names fit their box and read plainly in
Chinese, the newest row's title stays short (the boxes' layout: tests/e2e/test_forget_browser.py)."""

from attention import i18n


def test_h2o_reads_plainly_in_chinese():
    assert "重击者" not in i18n.t("fg.policy_h2o", "zh") and "重击者" not in i18n.t("fg.policy_help", "zh")


def test_the_newest_rows_title_fits_a_narrow_chart():
    for lang in ("en", "zh"):
        assert len(i18n.t("fg.row_title", lang).format(layer=29)) <= 24
