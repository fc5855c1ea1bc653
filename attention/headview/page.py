"""The head view outside Streamlit: an HTML fragment (Jupyter), a saved self-contained file.

Both carry the same front end (assets/*.js, inlined: no CDN, no build step) and the payload as JSON
in a <script type="application/json"> with "<", ">" and "&" escaped, so no token can close it.

A saved file holds a whole trace. Its numbers go in one packed byte store instead of base64: the
file is declared windows-1252, where every byte is a character, so compressed bytes are written as
they are, and only NUL, CR, "<" and the escape "=" itself are escaped (about 1.6 % growth against
base64's 33 %). That is what keeps all-MiniLM-L6-v2's 72 heads at 128 tokens within 2.65 MB.
"""

from __future__ import annotations

import base64
import html
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from attention.headview.payload import SINGLE_HEAD, WHOLE_TRACE, Decimals, head_payload, trace_payload
from attention.trace import Kind, Site, Trace

ASSETS = Path(__file__).parent / "assets"
CORE_JS = ("decode.js", "draw.js", "marks.js", "lines.js", "a11y.js", "view.js", "input.js", "export.js")
NO_SELECTION = (-1, -1)
_BOOT = """hvBoot((function (s) {
  // the element this script sits in; Jupyter's classic notebook runs scripts detached (currentScript
  // elsewhere), then it is the last head view not yet started
  return (s && s.closest && s.closest(".hv-embed")) ||
    Array.from(document.querySelectorAll(".hv-embed:not([data-booted])")).pop();
})(document.currentScript));"""


@cache
def asset(name: str) -> str:
    return (ASSETS / name).read_text(encoding="utf-8")


def core_js() -> str:
    """The drawing and interaction code every host shares (plain functions and classes)."""
    return "\n".join(asset(n) for n in CORE_JS)


def standalone_js() -> str:
    """A classic script: the core and the bootstrap inside one function, so that several head views
    in one notebook do not collide."""
    return "(function () {\n" + core_js() + "\n" + asset("page.js") + "\n" + _BOOT + "\n})();"


def script_json(obj: Any) -> str:
    """JSON safe inside <script>: ASCII only, and no "<", ">" or "&" outside escapes."""
    text = json.dumps(obj, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _fragment(doc: dict[str, Any], store: str | None = None, url_state: bool = False) -> str:
    attrs = ' data-url-state=""' if url_state else ""
    store_el = f'<script type="application/octet-stream" class="hv-store">{store}</script>\n' if store else ""
    return (f'<div class="hv-embed"{attrs}>\n<style>{asset("headview.css")}</style>\n'
            f'<script type="application/json" class="hv-data">{script_json(doc)}</script>\n'
            f'{store_el}<div class="hv-mount"></div>\n<script>{standalone_js()}</script>\n</div>')


def _with_selection(payload: dict[str, Any], selection: tuple[int, int]) -> dict[str, Any]:
    return {**payload, "selection": [int(selection[0]), int(selection[1])]}


def render_html(obj: Trace | Site | dict[str, Any], *, head: int = 0, selection: tuple[int, int] = NO_SELECTION,
                labels: dict[str, str] | None = None, decimals: Decimals | None = None) -> str:
    """An HTML fragment showing `obj`: a head payload or a trace payload (dicts from payload.py), a
    Site (its head `head`), or a Trace (every head, with pickers). Self-contained, base64 numbers."""
    if isinstance(obj, Trace):
        obj = trace_payload(obj, labels, decimals or WHOLE_TRACE)
    elif isinstance(obj, Site):
        obj = head_payload(obj, head, labels, decimals or SINGLE_HEAD)
    doc = obj if "sites" in obj else _with_selection(obj, selection)
    return _fragment(doc)


def _pack(doc: dict[str, Any]) -> bytes:
    """Move every base64 "data" of `doc` into one byte store (in place: each becomes [offset, length])."""
    store = bytearray()

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("data"), str) and "dtype" in node:
                raw = base64.b64decode(node["data"])
                node["data"] = [len(store), len(raw)]
                store.extend(raw)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(doc)
    return bytes(store)


def escape_store(raw: bytes) -> bytes:
    """NUL (the parser turns it into U+FFFD), CR (turned into LF), "<" (could close the script) and
    "=" (the escape) become "=" followed by the byte + 64; decode.js undoes it."""
    return re.sub(rb"[\x00\r<=]", lambda m: b"=" + bytes([(m[0][0] + 64) & 255]), raw)


def document_bytes(trace: Trace, labels: dict[str, str] | None = None, decimals: Decimals = WHOLE_TRACE) -> bytes:
    """The saved file's bytes: a windows-1252 HTML document, everything but the store ASCII."""
    doc = trace_payload(trace, labels, decimals)
    store = escape_store(_pack(doc))
    marker = "\x00STORE\x00"
    heading = f"{trace.model_name} \N{MIDDLE DOT} {trace.text}"
    lang = html.escape(str(doc["labels"].get("lang", "en")))  # a screen reader's voice for the whole file
    page = (f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="windows-1252">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(trace.model_name)}</title>\n"
            '<style>body { margin: 16px; font: 14px system-ui, sans-serif; } '
            '.hv-heading { margin: 0 0 8px; opacity: 0.8; }</style>\n</head><body>\n'
            f'<p class="hv-heading">{html.escape(heading)}</p>\n'
            f"{_fragment(doc, store=marker, url_state=True)}\n</body></html>\n")
    before, after = page.split(marker)
    return _ascii(before) + store + _ascii(after)


def _ascii(text: str) -> bytes:
    """The page around the store: JSON is ASCII already (\\u escapes); any other non-ASCII character
    (the heading) becomes an HTML character reference, which means the same in any charset."""
    return text.encode("ascii", "xmlcharrefreplace")


def save_html(trace: Trace, path: str | Path, labels: dict[str, str] | None = None,
              decimals: Decimals = WHOLE_TRACE) -> Path:
    """Write every head of `trace` to one self-contained HTML file that opens offline (file://),
    with pickers for kind, layer and head. Returns the path."""
    path = Path(path)
    path.write_bytes(document_bytes(trace, labels, decimals))
    return path


@dataclass(frozen=True)
class HeadView:
    """What show() returns: Jupyter displays it through _repr_html_."""

    html: str

    def _repr_html_(self) -> str:
        return self.html


def _site_of(trace: Trace, kind: Kind | None, layer: int | None) -> Site:
    kind = kind or trace.kinds[0]
    return trace.site(trace.layers(kind)[0] if layer is None else layer, kind)


def show(trace_or_site: Trace | Site, kind: Kind | None = None, layer: int | None = None, head: int = 0,
         selection: tuple[int, int] = NO_SELECTION, labels: dict[str, str] | None = None) -> HeadView:
    """One head in a notebook: `show(trace, kind="encoder", layer=0, head=3)` or `show(site, head=3)`."""
    site = trace_or_site if isinstance(trace_or_site, Site) else _site_of(trace_or_site, kind, layer)
    return HeadView(render_html(site, head=head, selection=selection, labels=labels))
