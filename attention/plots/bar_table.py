"""A small table the browser draws itself (st.html): text and number columns, and shares (0..1) shown
as a bar beside their number. For the few-row tables the Write page redraws after every written word:
st.dataframe's grid cost about 30 ms of the browser's time a word (median of ten words, 9 tokens).

Every cell is text a screen reader reads; the bars are decoration (aria-hidden). Text is escaped."""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Literal

from attention.plots.next_word_bars import BAR  # the same bars' colour

_STYLE = f"""<style>
.bar-table {{ margin: 0; font-size: 0.875rem; }}
.bar-table table {{ border-collapse: collapse; width: 100%; }}
.bar-table th, .bar-table td {{ padding: 1px 6px; border-bottom: 1px solid rgba(128, 128, 128, 0.25);
  text-align: left; font-weight: normal; white-space: nowrap; }}
.bar-table thead th {{ font-size: 0.75rem; font-weight: 600; white-space: normal; }}
.bar-table .num {{ text-align: right; font-variant-numeric: tabular-nums; }}
.bar-table .bar {{ display: inline-block; width: 4em; height: 0.8em; margin-right: 6px; vertical-align: middle;
  background: linear-gradient(to right, {BAR} var(--share), transparent var(--share));
  outline: 1px solid rgba(128, 128, 128, 0.35); }}
</style>"""


@dataclass(frozen=True)
class Column:
    title: str
    kind: Literal["text", "number", "share"] = "text"
    decimals: int = 3  # number and share: digits after the point


def _cell(col: Column, value: object) -> str:
    if col.kind == "text":
        return f"<td>{html.escape(str(value))}</td>"
    x = float(value)  # type: ignore[arg-type]
    number = f"{x:.{col.decimals}f}"
    if col.kind == "number":
        return f'<td class="num">{number}</td>'
    share = min(max(x, 0.0), 1.0) * 100
    return f'<td class="num"><span class="bar" aria-hidden="true" style="--share:{share:.1f}%"></span>{number}</td>'


def table_html(columns: list[Column], rows: list[tuple[object, ...]]) -> str:
    """rows: one tuple per row, a value per column (a share outside 0..1 is printed as it is, its bar
    clipped)."""
    head = "".join(f'<th scope="col"{"" if c.kind == "text" else " class=num"}>{html.escape(c.title)}</th>'
                   for c in columns)
    body = "".join("<tr>" + "".join(_cell(c, v) for c, v in zip(columns, row, strict=True)) + "</tr>" for row in rows)
    return f'{_STYLE}<div class="bar-table"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def read_table(text: str) -> tuple[list[str], list[list[str]]]:
    """The header and the rows' cell texts of a table_html (unescaped): the inverse, for tests and tools."""
    from html.parser import HTMLParser

    head: list[str] = []
    rows: list[list[str]] = []
    cell: list[str] | None = None

    class Reader(HTMLParser):
        def handle_starttag(self, tag: str, attrs) -> None:
            nonlocal cell
            if tag == "tr" and head:
                rows.append([])
            if tag in ("th", "td"):
                cell = []

        def handle_endtag(self, tag: str) -> None:
            nonlocal cell
            if tag in ("th", "td") and cell is not None:
                (rows[-1] if rows else head).append("".join(cell))
                cell = None

        def handle_data(self, data: str) -> None:
            if cell is not None:
                cell.append(data)

    Reader(convert_charrefs=True).feed(text)
    return head, rows
