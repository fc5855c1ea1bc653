"""A Streamlit session spoken to in Streamlit's own protocol, as its browser speaks it, with no browser: one
WebSocket to /_stcore/stream (subprotocol "streamlit"), BackMsg out, ForwardMsg in (streamlit.proto).

What the browser does that matters to the server is done the same way here: the first message asks for a run
of the page named by the address (its path as page_name, its query string, no widget states); every later
run names the page by the hash the server gave (new_session), sends the address's query string as the
server last set it (page_info_changed), the hashes of the large messages it keeps (the browser's ForwardMsg
cache: cacheable messages, dropped when older than max_cached_message_age runs) so the server sends those
as references, and, for a button, its trigger (and the fragment the button was drawn in, so only that
fragment reruns). Messages arrive in order; each is handed to `on_message` with the time it arrived.

Left out, as the server does not need them for a press: the other widgets' values (the browser resends every
widget's value with each run; the server keeps the values of widgets a run does not name), reconnecting,
and the browser's own rendering.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

EARLY = ForwardMsg.FINISHED_EARLY_FOR_RERUN  # a run stopped for the next one: the session is still running
SETTLE_S = 0.3  # idle twice, this far apart (harness/app_server.wait_idle does the same in the browser)


@dataclass
class Widget:
    """A widget as the page last drew it: its id, the fragment it was drawn in ("" outside any), its label."""

    id: str
    fragment_id: str
    label: str
    disabled: bool = False
    value: str | None = None  # a text box's text (text_area, text_input)


class MessageCache:
    """The browser's ForwardMsg cache: cacheable messages by hash, each with the run count it was last used
    in and its fragment; a run that finishes drops those older than `max_age` runs (a fragment's run: only
    that fragment's)."""

    def __init__(self) -> None:
        self.entries: dict[str, list] = {}  # hash -> [serialized message, run count, fragment id]
        self.runs = 0
        self.max_age = 2
        self.misses = 0  # references to a message this cache did not hold (never expected)

    def resolve(self, msg: ForwardMsg, raw: bytes) -> ForwardMsg | None:
        """The message itself (a reference replaced by what it names, None if not held); kept if cacheable."""
        if msg.WhichOneof("type") == "ref_hash":
            entry = self.entries.get(msg.ref_hash)
            if entry is None:
                self.misses += 1
                return None
            entry[1] = self.runs
            full = ForwardMsg()
            full.ParseFromString(entry[0])
            full.metadata.CopyFrom(msg.metadata)  # where it goes is the reference's
            return full
        if msg.metadata.cacheable and msg.hash and msg.hash not in self.entries:
            self.entries[msg.hash] = [raw, self.runs, msg.delta.fragment_id]
        return msg

    def finished(self, fragment_ids: list[str]) -> None:
        self.runs += 1
        for h, (_, used, fragment) in list(self.entries.items()):
            if fragment_ids and (not fragment or fragment not in fragment_ids):
                continue
            if self.runs - used > self.max_age:
                del self.entries[h]


class Session:
    """One browser tab's session, without the browser: `await open()`, then `press(label)`, `idle()`."""

    def __init__(self, base_url: str, page: str, query: str,
                 on_message: Callable[[float, ForwardMsg], None] | None = None) -> None:
        self.base_url, self.page, self.query = base_url.rstrip("/"), page, query
        self.on_message = on_message
        self.cache = MessageCache()
        self.widgets: dict[str, Widget] = {}  # by label (the buttons and boxes a person finds by their words)
        self.page_hash = ""
        self.session_id = ""
        self.closed: str | None = None  # why the socket ended
        self.received = 0  # messages
        self.received_bytes = 0
        self._idle = asyncio.Event()
        self._ws = None
        self._reader: asyncio.Task | None = None

    @property
    def url(self) -> str:
        """The address the browser would show: the page and the query string the server last set."""
        return f"{self.base_url}/{self.page}" + (f"?{self.query}" if self.query else "")

    def query_ids(self, name: str = "ids") -> list[str]:
        return [i for i in parse_qs(self.query).get(name, [""])[0].split(",") if i]

    async def open(self, timeout: float = 600) -> None:
        """Connect and ask for the page's first run; wait until that run (and any it asks for) has finished."""
        from websockets.asyncio.client import connect

        parts = urlsplit(self.base_url)
        ws_url = f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}{parts.path}/_stcore/stream"
        self._ws = await connect(ws_url, subprotocols=["streamlit"], origin=f"{parts.scheme}://{parts.netloc}",
                                 max_size=None, proxy=None, open_timeout=timeout,
                                 ping_interval=None)  # the browser sends no pings (the server does; they are answered)
        self._reader = asyncio.create_task(self._read())
        await self.rerun()
        await self.idle(timeout)

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    def rerun_msg(self, widgets: list[WidgetState] = (), fragment_id: str = "") -> BackMsg:
        """The rerun the browser would send now."""
        msg = BackMsg()
        rs = msg.rerun_script
        rs.query_string = self.query
        rs.widget_states.widgets.extend(widgets)
        if self.page_hash:  # after the first run the page is named by its hash, as the browser does
            rs.page_script_hash = self.page_hash
        else:
            rs.page_name = self.page
        if fragment_id:
            rs.fragment_id = fragment_id
        rs.cached_message_hashes.extend(self.cache.entries)
        ctx = rs.context_info
        ctx.timezone, ctx.timezone_offset, ctx.locale = "UTC", 0, "en-US"
        ctx.url, ctx.is_embedded, ctx.color_scheme = self.url, False, "light"
        return msg

    async def rerun(self, widgets: list[WidgetState] = (), fragment_id: str = "") -> float:
        """Send a rerun; returns when it was sent (time.time())."""
        if self.closed is not None:
            raise ConnectionError(f"the session's socket closed: {self.closed}")
        data = self.rerun_msg(widgets, fragment_id).SerializeToString()
        self._idle.clear()
        sent = time.time()
        await self._ws.send(data)
        return sent

    async def press(self, label: str, trigger: bool = True) -> float:
        """Click the button `label` as drawn last (its trigger, in the fragment it was drawn in); returns
        when the click was sent. `trigger=False` sends the same run without the click (a press lost)."""
        button = self.widgets.get(label)
        if button is None:
            raise LookupError(f"no widget {label!r} on the page (seen: {sorted(self.widgets)})")
        if button.disabled:
            raise RuntimeError(f"the button {label!r} is disabled")
        state = WidgetState(id=button.id, trigger_value=True) if trigger else None
        return await self.rerun([state] if state else [], button.fragment_id)

    async def idle(self, timeout: float = 600) -> None:
        """Until no run is going on (twice, SETTLE_S apart: a run may ask for another)."""
        deadline = time.monotonic() + timeout
        for _ in range(2):
            while not self._idle.is_set():
                if self.closed is not None:
                    raise ConnectionError(f"the session's socket closed: {self.closed}")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{self.url}: still running after {timeout:.0f} s")
                try:
                    await asyncio.wait_for(self._idle.wait(), min(left, 1.0))
                except TimeoutError:
                    pass
            await asyncio.sleep(SETTLE_S)

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                now = time.time()
                self.received += 1
                self.received_bytes += len(raw)
                msg = ForwardMsg()
                msg.ParseFromString(raw)
                msg = self.cache.resolve(msg, raw)
                if msg is not None:
                    self._take(msg)
                    if self.on_message is not None:
                        self.on_message(now, msg)
            self.closed = "closed by the server"
        except Exception as exc:  # noqa: BLE001 - kept and said by whoever waits on the session
            self.closed = f"{type(exc).__name__}: {exc}"
        self._idle.set()

    def _take(self, msg: ForwardMsg) -> None:
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self._idle.clear()
            self.page_hash = msg.new_session.page_script_hash or self.page_hash
            if msg.new_session.HasField("initialize"):
                self.session_id = msg.new_session.initialize.session_id
            if msg.new_session.config.max_cached_message_age:
                self.cache.max_age = msg.new_session.config.max_cached_message_age
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "script_finished":
            if msg.script_finished != EARLY:
                self.cache.finished(list(msg.metadata.run.fragment_ids))
                self._idle.set()
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            el = msg.delta.new_element
            which = el.WhichOneof("type")
            sub = getattr(el, which) if which else None
            if sub is not None and "id" in sub.DESCRIPTOR.fields_by_name and "label" in sub.DESCRIPTOR.fields_by_name:
                w = Widget(sub.id, msg.delta.fragment_id, sub.label, bool(getattr(sub, "disabled", False)))
                if which in ("text_area", "text_input"):
                    w.value = sub.value if sub.HasField("value") else sub.default
                self.widgets[sub.label] = w


def alert_text(msg: ForwardMsg) -> str | None:
    """The text of an alert (st.info, st.warning, st.error, st.success) the message draws, else None."""
    if msg.WhichOneof("type") != "delta" or msg.delta.WhichOneof("type") != "new_element":
        return None
    el = msg.delta.new_element
    return el.alert.body if el.WhichOneof("type") == "alert" else None
