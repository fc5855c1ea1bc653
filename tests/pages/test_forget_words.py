"""The Forget page's words at a phone's width (issue 52): the policy names fit their box and read plainly in
Chinese, the budget's label is no longer than the policy's row allows, the newest row's title stays short."""

from attention import i18n


def test_h2o_reads_plainly_in_chinese():
    assert "重击者" not in i18n.t("fg.policy_h2o", "zh") and "重击者" not in i18n.t("fg.policy_help", "zh")


def test_the_budget_and_sinks_labels_are_short_enough_to_sit_side_by_side_at_390_px():
    for lang in ("en", "zh"):
        assert len(i18n.t("fg.budget", lang)) <= 24 and len(i18n.t("fg.sinks", lang)) <= 24


def test_the_newest_rows_title_fits_a_narrow_chart():
    for lang in ("en", "zh"):
        assert len(i18n.t("fg.row_title", lang).format(layer=29)) <= 24
