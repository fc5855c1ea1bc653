"""The head view as a notebook reaches it: `trace.show(...)`, `attention.show(trace, ...)`,
`trace.save_html(path)` and `attention.save_html(trace, path)` are the head view's own show and
save_html, nothing else (the package hands them to Trace: trace.py imports nothing above it)."""

import attention
from attention import headview
from attention.trace import Trace
from harness.random_sites import random_site


def two_site_trace() -> Trace:
    sites = (random_site(6, kind="encoder", layer=0, seed=1), random_site(6, kind="decoder", layer=0, seed=2))
    return Trace(text="t", model_name="random", tokens=sites[0].query_tokens, sites=sites)


def test_trace_show_is_the_head_view_of_that_head():
    tr = two_site_trace()
    html = tr.show(kind="decoder", layer=0, head=1, selection=(2, 1))._repr_html_()
    assert html == headview.show(tr.sites[1], head=1, selection=(2, 1))._repr_html_()
    assert html != tr.show(kind="encoder", layer=0, head=1, selection=(2, 1))._repr_html_()
    assert html == attention.show(tr, kind="decoder", layer=0, head=1, selection=(2, 1))._repr_html_()


def test_save_html_from_the_package_and_from_the_trace_write_the_same_file(tmp_path):
    tr = two_site_trace()
    a = attention.save_html(tr, tmp_path / "a.html")
    b = tr.save_html(tmp_path / "b.html")
    c = headview.save_html(tr, tmp_path / "c.html")
    assert a.read_bytes() == b.read_bytes() == c.read_bytes()
