"""What a page shows under AppTest, as one text: for tests that look for a word wherever it is drawn."""

from streamlit.testing.v1 import AppTest

PARTS = ("title", "header", "subheader", "markdown", "caption", "info", "warning", "error", "success")


def page_text(at: AppTest) -> str:
    """Every word the page shows: headings, text, notices and the labels of its text boxes."""
    shown = [e.value for part in PARTS for e in at.get(part)]
    return "\n".join(map(str, shown + [w.label for w in (*at.text_input, *at.text_area)]))
