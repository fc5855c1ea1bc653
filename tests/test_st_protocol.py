"""harness/st_protocol.py without a server: the reruns it sends have the browser's shape (the first names the
page by its path, later ones by the hash the server gave; a press carries the button's trigger and its
fragment; the cached hashes are listed), and its message cache resolves references and drops old entries."""

from __future__ import annotations

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from harness.st_protocol import MessageCache, Session, alert_text


def _msg(**build) -> ForwardMsg:
    m = ForwardMsg()
    for path, value in build.items():
        *owners, field = path.split("__")
        target = m
        for o in owners:
            target = getattr(target, o)
        setattr(target, field, value)
    return m


def test_the_first_run_names_the_page_and_later_ones_its_hash_and_the_link_the_server_set():
    s = Session("http://127.0.0.1:1", "write", "prompt=Hi")
    first = s.rerun_msg().rerun_script
    assert (first.page_name, first.page_script_hash, first.query_string) == ("write", "", "prompt=Hi")
    s._take(_msg(new_session__page_script_hash="abc"))
    s._take(_msg(page_info_changed__query_string="prompt=Hi&ids=5"))
    later = s.rerun_msg().rerun_script
    assert (later.page_name, later.page_script_hash, later.query_string) == ("", "abc", "prompt=Hi&ids=5")
    assert s.query_ids() == ["5"] and s.url.endswith("/write?prompt=Hi&ids=5")


def test_a_press_carries_the_buttons_trigger_and_fragment():
    s = Session("http://127.0.0.1:1", "write", "")
    m = _msg(delta__fragment_id="frag1", delta__new_element__button__id="$$ID-next", delta__new_element__button__label="Next word")
    s._take(m)
    w = s.widgets["Next word"]
    assert (w.id, w.fragment_id, w.disabled) == ("$$ID-next", "frag1", False)
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    rs = s.rerun_msg([WidgetState(id=w.id, trigger_value=True)], w.fragment_id).rerun_script
    assert rs.fragment_id == "frag1"
    assert [(x.id, x.WhichOneof("value"), x.trigger_value) for x in rs.widget_states.widgets] == [
        ("$$ID-next", "trigger_value", True)]


def test_the_cache_resolves_a_reference_and_drops_what_runs_no_longer_use():
    cache = MessageCache()
    big = _msg(hash="h1", metadata__cacheable=True, delta__new_element__alert__body="big")
    assert cache.resolve(big, big.SerializeToString()) is big and list(cache.entries) == ["h1"]
    ref = _msg(ref_hash="h1")
    assert alert_text(cache.resolve(ref, ref.SerializeToString())) == "big"
    assert cache.resolve(_msg(ref_hash="h2"), b"") is None and cache.misses == 1
    for _ in range(cache.max_age):
        cache.finished([])
    assert "h1" in cache.entries  # used in the last max_age runs
    cache.finished(["some fragment"])
    assert "h1" in cache.entries  # a fragment's run drops only that fragment's messages
    cache.finished([])
    assert cache.entries == {}
