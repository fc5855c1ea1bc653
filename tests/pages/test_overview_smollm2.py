"""The Overview's statistic columns on the built-in language model (issue 23, attention sinks): a link with
model=smollm2 opens SmolLM2's 30 × 9 heads, every column filled, and most heads lean on the first token."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

pytestmark = pytest.mark.model
APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_overview_columns_on_smollm2(smollm2, lang):
    at = AppTest.from_file(APP, default_timeout=600)
    at.switch_page("views/overview.py")
    at.query_params.update({"model": "smollm2", "source": "model", "lang": lang})
    at.run()
    assert not at.exception and not at.error
    table = at.dataframe[0].value
    assert len(table) == 30 * 9 and not table.isna().any().any()
    first = table.iloc[:, 4]  # the share on the special / first token
    assert ((0 <= first) & (first <= 1)).all() and (first > 0.3).mean() > 0.8  # attention sinks
