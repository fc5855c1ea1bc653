"""Imported before Streamlit starts (harness.app_server.streamlit_process(preimport=...)) by the class bench:
when each stage of a press happened in the server, one JSON line per event in the file named by
ATTENTION_PRESS_CLOCK, in time.time() (the browser's Date.now() is the same clock on this machine):

    recv     the press's message reached the server (the fragment's rerun request, on the event loop)
    cb       its callback ran: the session's script thread started the fragment's run
    frag     the fragment's body began (before the session's lock, the Writing's read or any turn)
    notice   the page was told the press waits (or is being written): the notice enqueued
    turn     the press's words got their turn of the admission queue (the model's work starts)
    step     a word was written (Writing.step returned)
    sent     a message left for that session's browser (the runtime's send loop)

and, to find where a press goes missing (tests/deploy/test_replica_fault.py keeps them beside its timeline):

    rerun    any rerun request reached the session: its fragment (if any), whether the session holds that
             fragment, and the button triggers it carries (the keys' tails)
    script_started, script_stopped_*, fragment_stopped_*   a run's start (`frags`: the fragments it runs; none:
             the whole page) and how it ended
    miss     a run looked for a fragment the session no longer holds (Streamlit skips it, and its click)

Like harness/slow_write.py it wraps from outside: production code has no such hook. Each line carries the
session's id; `cb` also carries the prompt's first characters, so the bench knows which pupil a session is."""

from __future__ import annotations

import functools
import json
import os
import threading
import time

PATH = os.environ.get("ATTENTION_PRESS_CLOCK", "")
_lock = threading.Lock()
_file = open(PATH, "a", buffering=1) if PATH else None  # noqa: SIM115 - open for the server's life


HEAD = 60  # a prompt is known in the log by its first characters (the bench's prompts begin with their own sentence)


def _session() -> str:
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return ctx.session_id if ctx is not None else ""


def note(event: str, session: str | None = None, **extra: object) -> None:
    if _file is None:
        return
    line = json.dumps({"e": event, "s": _session() if session is None else session, "t": time.time(), **extra})
    with _lock:
        _file.write(line + "\n")


def _wrap(owner: object, name: str, before: str | None = None, after: str | None = None, session=None, extra=None):
    inner = getattr(owner, name, None)
    if inner is None:
        return

    @functools.wraps(inner)
    def wrapped(*args, **kwargs):
        if before:
            note(before, session(args) if session else None, **(extra(args) if extra else {}))
        out = inner(*args, **kwargs)
        if after:
            note(after, session(args) if session else None)
        return out

    setattr(owner, name, wrapped)


def install() -> None:
    import streamlit as st
    from streamlit.runtime import runtime
    from streamlit.runtime.app_session import AppSession

    from attention.lm import writer
    from attention.ui.hosting import admission
    from attention.ui.pages import presses
    from attention.ui.state import Keys

    def fragment_rerun(args) -> bool:
        msg = args[1]
        return msg.WhichOneof("type") == "rerun_script" and bool(msg.rerun_script.fragment_id)

    handle = AppSession.handle_backmsg

    def handle_backmsg(self, msg):
        if fragment_rerun((self, msg)):
            note("recv", self.id)
        if msg.WhichOneof("type") == "rerun_script":
            fid = msg.rerun_script.fragment_id
            note("rerun", self.id, frag=fid, held=bool(fid) and self.has_fragment(fid),
                 triggers=_triggers(msg.rerun_script.widget_states))
        return handle(self, msg)

    AppSession.handle_backmsg = handle_backmsg
    if os.environ.get("ATTENTION_PRESS_CLOCK_SENT", "1") != "0":  # every message: the bench's timing, not a trail
        _wrap(runtime.Runtime, "_send_message", before="sent", session=lambda a: a[1].session.id)
    _wrap(presses, "press", before="cb",
          extra=lambda a: {"prompt": str(st.session_state.get(Keys.WR_PROMPT) or "")[:HEAD]})
    _wrap(presses, "tell", before="frag",  # the fragment's first call
          extra=lambda a: {"prompt": str(st.session_state.get(Keys.WR_PROMPT) or "")[:HEAD]})
    _wrap_runs()
    _wrap(presses.Notice, "waiting", before="notice")
    _wrap(presses.Notice, "writing", before="notice")
    _wrap(writer.Writing, "step", after="step")
    turn = admission.gate.turn

    def gate_turn(*args, **kwargs):
        cm = turn(*args, **kwargs)

        class Timed:
            def __enter__(self):
                out = cm.__enter__()
                note("turn")
                return out

            def __exit__(self, *exc):
                return cm.__exit__(*exc)

        return Timed()

    admission.gate.turn = gate_turn


def _triggers(states) -> list[str]:
    """The widgets whose trigger is set in a rerun's widget states, by their key (an id's tail after its last -)."""
    return [w.id.rsplit("-", 1)[-1] for w in getattr(states, "widgets", ()) if w.WhichOneof("value") == "trigger_value"
            and w.trigger_value]


def _wrap_runs() -> None:
    from streamlit.runtime.app_session import AppSession
    from streamlit.runtime.fragment import MemoryFragmentStorage

    on_event = AppSession._on_scriptrunner_event

    def _on_scriptrunner_event(self, sender, event, *args, **kwargs):
        if event.name.startswith(("SCRIPT_", "FRAGMENT_")):  # a run's start and end, not each message
            note(event.name.lower(), self.id, frags=list(kwargs.get("fragment_ids_this_run") or []))
        return on_event(self, sender, event, *args, **kwargs)

    AppSession._on_scriptrunner_event = _on_scriptrunner_event
    lookup = MemoryFragmentStorage.lookup

    def looked_up(self, key):
        try:
            return lookup(self, key)
        except Exception:
            note("miss", frag=key)
            raise

    MemoryFragmentStorage.lookup = looked_up


if _file is not None:
    install()
