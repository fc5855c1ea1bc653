"""The small tables the browser draws itself (plots/bar_table.py): text escaped, numbers exact, shares
as clipped bars, and read back to what was put in."""

import re

from attention.plots.bar_table import Column, read_table, table_html

COLUMNS = [Column("Head"), Column("Weight", "share"), Column("‖v‖", "number", decimals=2)]


def test_cells_read_back_with_exact_numbers_and_markup_shown_as_text():
    out = table_html(COLUMNS, [("<b>0</b>", 0.25, 1.5), (1, 0.8125, 12.345)])
    head, rows = read_table(out)
    assert head == ["Head", "Weight", "‖v‖"]
    assert rows == [["<b>0</b>", "0.250", "1.50"], ["1", "0.812", "12.35"]]  # Python's rounding of 0.8125
    assert "&lt;b&gt;" in out and "<b>0" not in out  # markup is shown, never applied


def test_a_share_is_a_bar_of_its_size_clipped_to_the_cell_and_hidden_from_screen_readers():
    out = table_html(COLUMNS, [(0, 0.25, 1.0), (1, 1.7, 1.0), (2, -0.5, 1.0)])
    assert re.findall(r"--share:([0-9.]+)%", out) == ["25.0", "100.0", "0.0"]
    assert out.count('aria-hidden="true"') == 3
    assert read_table(out)[1][1][1] == "1.700"  # the number is printed as it is
