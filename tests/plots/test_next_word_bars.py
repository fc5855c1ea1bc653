"""The Write page's next-word bars (plots/next_word_bars.py): text, not markup; exact numbers; the
written token marked in colour and in words; bars scaled to the likeliest."""

import re

from attention.plots.next_word_bars import bars_html


def _rows(html: str) -> list[str]:
    return re.findall(r"<tr[^>]*>.*?</tr>", html.split("<tbody>")[1])


def test_every_token_is_a_row_with_its_probability_and_a_bar_scaled_to_the_likeliest():
    out = bars_html(["Ġcat", "Ġdog", "<b>"], [0.5, 0.25, 0.125], "Top", "token", "p", "written")
    rows = _rows(out)
    assert len(rows) == 3
    assert ">·cat<" in rows[0] and "0.500</td>" in rows[0] and 'title="Ġcat"' in rows[0]
    widths = [float(w) for w in re.findall(r"width:([0-9.]+)%", out)]
    assert widths[0] > widths[1] > widths[2] and abs(widths[0] / widths[1] - 2) < 0.02
    assert "&lt;b&gt;" in rows[2] and "<b>" not in out.split("<tbody>")[1]  # markup is shown, never applied
    assert "written" not in "".join(rows) and "chosen" not in "".join(rows)  # nothing written yet


def test_the_written_token_is_marked_in_colour_and_in_words():
    out = bars_html(["a", "b"], [0.6, 0.4], "Top", "token", "p", "written", chosen=1)
    first, second = _rows(out)
    assert "class=chosen" in second and "(written)" in second
    assert "chosen" not in first and "written" not in first


def test_with_a_cut_a_removed_token_is_struck_and_named_and_each_shows_its_probability_before():
    out = bars_html(["a", "b", "c"], [0.6, 0.4, 0.0], "Top", "token", "now", "written", before=[0.5, 0.3, 0.2],
                    before_title="before the cut", removed_word="removed")
    assert "<th scope=\"col\">before the cut</th>" in out
    first, _, third = _rows(out)
    assert "0.600</td><td>0.500</td>" in first and "removed" not in first
    assert "class=removed" in third and ">removed</td><td>0.200</td>" in third and "0.000" not in third
