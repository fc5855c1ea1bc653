"""The next-word panel as an HTML table of ten bars: each token as text (its raw form on hover), its
probability as a bar and as a number, the token that was written marked in colour and in words.

Drawn by the browser itself (st.html): a Plotly figure cost 45 ms to build on the server and more to
draw in the browser after every written word, on the page where a person waits for each word."""

from __future__ import annotations

import html

from attention.plots.labels import label

BAR, CHOSEN = "#9ecae1", "#08519c"  # the colours of plots/next_word.py
_STYLE = f"""<style>
.nw-bars {{ margin: 0; font-size: 0.875rem; }}
.nw-bars figcaption {{ font-weight: 600; margin-bottom: 0.25rem; }}
.nw-bars table {{ border-collapse: collapse; width: 100%; table-layout: fixed; }}
.nw-bars th, .nw-bars td {{ padding: 1px 4px; border: 0; text-align: left; font-weight: normal; }}
.nw-bars thead th {{ font-size: 0.75rem; }}
.nw-bars th[scope=row] {{ width: 38%; overflow-wrap: anywhere; font-family: monospace; }}
.nw-bars td {{ white-space: nowrap; }}
.nw-bars .bar {{ display: inline-block; height: 0.9em; vertical-align: middle; background: {BAR};
  margin-right: 4px; }}
.nw-bars tr.chosen .bar {{ background: {CHOSEN}; }}
.nw-bars tr.chosen th {{ font-weight: 700; }}
.nw-bars tr.removed th, .nw-bars tr.removed td {{ opacity: 0.6; }}
.nw-bars tr.removed th {{ text-decoration: line-through; }}
</style>"""


def bars_html(tokens: list[str], probs: list[float], title: str, token_title: str, prob_title: str,
              chosen_word: str, chosen: int | None = None, before: list[float] | None = None,
              before_title: str = "", removed_word: str = "", labels: list[str] | None = None) -> str:
    """tokens: raw tokens, likeliest first; chosen: the index of the token that was written (None: none
    yet), which is also named by `chosen_word` for a screen reader. The bars are scaled to the largest
    probability (1.2 × it fills the cell), the numbers beside them exact to three decimals.
    before: with top-k or top-p on, each token's probability before the cut, in a column of its own;
    a token the cut removed (probability 0 after it) is then struck through and named `removed_word`.
    labels: the tokens as the writer shows them (a Chinese character's pieces read with the text before);
    None: each token read alone."""
    top = max([*probs, 0.01]) * 1.2
    rows = []
    for i, (tok, p) in enumerate(zip(tokens, probs)):
        gone = before is not None and p == 0
        mark = f' <span class="nw-chosen">({html.escape(chosen_word)})</span>' if i == chosen else ""
        cls = " class=chosen" if i == chosen else " class=removed" if gone else ""
        shown = html.escape(removed_word) if gone else f"{p:.3f}"
        extra = "" if before is None else f"<td>{before[i]:.3f}</td>"
        rows.append(f'<tr{cls}><th scope="row" title="{html.escape(tok)}">'
                    f"{label(tok) if labels is None else html.escape(labels[i])}{mark}</th><td><span class=\"bar\" style=\"width:{100 * p / top * 0.75:.1f}%\">"
                    f"</span>{shown}</td>{extra}</tr>")
    extra_head = "" if before is None else f'<th scope="col">{html.escape(before_title)}</th>'
    return (f'{_STYLE}<figure class="nw-bars"><figcaption>{html.escape(title)}</figcaption><table>'
            f'<thead><tr><th scope="col">{html.escape(token_title)}</th><th scope="col">{html.escape(prob_title)}'
            f'</th>{extra_head}</tr></thead><tbody>{"".join(rows)}</tbody></table></figure>')
