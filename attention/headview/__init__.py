"""The head view: one head's S, A, Z and lines drawn and highlighted in the browser (no Streamlit here)."""

from attention.headview import payload
from attention.headview.page import HeadView, render_html, save_html, show
from attention.headview.payload import Decimals, head_payload, trace_payload

__all__ = ["Decimals", "HeadView", "head_payload", "payload", "render_html", "save_html", "show", "trace_payload"]
