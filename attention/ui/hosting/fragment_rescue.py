"""A click inside a fragment is never dropped: Streamlit ignores a rerun request for a fragment its session
does not hold (AppSession.request_rerun: "The fragment with id … does not exist anymore"), and the person sees
nothing happen. That happens to a press made just after a reconnect (the new session's first run has not
reached the fragment yet) or while a whole-page run is replacing the fragment: measured on a replica killed
under load, a writer's "Next word" 3 s after the reconnect wrote nothing for 240 s.

`install()` wraps request_rerun once per process: such a request runs the whole page instead, with the same
widget states, so the button's click is seen by the run that draws the page (a whole-page run reads every
widget's trigger; only the fragment's own shortcut is lost). Installed by app.py and by serve.py.
"""

from __future__ import annotations

import logging

log = logging.getLogger("attention.fragment_rescue")
RESCUED = "_attention_rescues_fragment_clicks"


def as_whole_page(client_state):
    """The same request without its fragment: a copy (the caller's message is left as it was)."""
    whole = type(client_state)()
    whole.CopyFrom(client_state)
    whole.ClearField("fragment_id")
    return whole


def install() -> bool:
    """Wrap AppSession.request_rerun (once); returns whether this call installed it."""
    from streamlit.runtime.app_session import AppSession

    original = AppSession.request_rerun
    if getattr(original, RESCUED, False):
        return False

    def request_rerun(self, client_state=None) -> None:
        fragment_id = getattr(client_state, "fragment_id", "")
        if fragment_id and not self.has_fragment(fragment_id):
            log.info("a click in fragment %s, which this session does not hold yet, runs the whole page", fragment_id)
            client_state = as_whole_page(client_state)
        original(self, client_state)

    setattr(request_rerun, RESCUED, True)
    request_rerun.__wrapped__ = original
    request_rerun.__doc__ = original.__doc__
    AppSession.request_rerun = request_rerun
    return True
