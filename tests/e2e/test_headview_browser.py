"""The head view in real Chromium: a saved file opened from file:// with the network blocked, and a
Jupyter fragment (the Streamlit element: test_headview_streamlit_browser.py). Hover, click, keyboard, zoom, masked cells, literal
markup, numbers equal to the trace's, downloads, and a click reaching Python."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

from attention.headview import render_html, save_html, show
from attention.headview.payload import SINGLE_HEAD, WHOLE_TRACE, Decimals
from attention.trace import Trace
from harness.head_geometry import cell_point
from harness.random_sites import random_site

MATRICES = ("S", "A", "Z", "lines")


def small_trace() -> Trace:
    sites = (random_site(12, kind="encoder", layer=0, seed=10), random_site(12, kind="encoder", layer=1, seed=11),
             random_site(12, kind="decoder", layer=0, seed=12), random_site(9, 12, kind="cross", layer=0, seed=13))
    return Trace(text="test", model_name="random", tokens=sites[0].query_tokens, sites=sites)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("headview")
    trace = small_trace()
    save_html(trace, d / "trace.html")
    big = random_site(512, kind="decoder", heads=1, d_head=32, seed=5)
    (d / "big.html").write_text("<!DOCTYPE html><meta charset='utf-8'><body>" + render_html(big), encoding="utf-8")
    return {"dir": d, "trace": trace, "big": big}


@pytest.fixture
def page(browser):
    """A page that can reach nothing but files: offline, and every other request aborted and recorded."""
    context = browser.new_context(viewport={"width": 1500, "height": 1300}, offline=True, accept_downloads=True)
    fetched: list[str] = []

    def block(route):
        url = route.request.url
        if url.startswith(("file:", "data:", "blob:")):
            route.continue_()
        else:
            fetched.append(url)
            route.abort()

    context.route("**/*", block)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors
    assert not fetched, f"the page tried the network: {fetched}"


def open_file(page, path: Path) -> None:
    page.goto(path.as_uri())
    page.wait_for_selector(".hv[data-ready='1']", timeout=30_000)


def attrs(page, name: str) -> dict[str, str | None]:
    return {m: page.locator(f'[data-matrix="{m}"]').first.get_attribute(name) for m in MATRICES}


def tip(page) -> dict[str, str]:
    rows = page.locator(".hv-tip .hv-tip-row")
    return {r.locator(".hv-tip-label").inner_text(): r.locator(".hv-tip-value").inner_text() for r in rows.all()}


def hover(page, matrix: str, q: int, k: int) -> dict[str, str]:
    page.mouse.move(*cell_point(page, matrix, q, k))
    return tip(page)


def pick(page, kind: str, layer: int, head: int) -> None:
    selects = page.locator(".hv-pickers select")
    for i, value in enumerate((kind, str(layer), str(head))):
        if selects.nth(i).input_value() != value:
            selects.nth(i).select_option(value)
    page.wait_for_function(f"""() => {{
        const p = document.querySelector('.hv[data-ready="1"]');
        return p && [...document.querySelectorAll('.hv-pickers select')].map(s => s.value).join() === '{kind},{layer},{head}';
    }}""")
    page.wait_for_selector(".hv[data-ready='1']")


def expected(site, head: int, q: int, k: int, d: Decimals) -> dict[str, float | str]:
    masked = site.masked[q, k]
    return {"q·k": float(f"{site.scores[head][q, k]:.{d.score}f}"),
            "scaled": "masked" if masked else float(f"{site.scaled(head)[q, k]:.{d.scaled}f}"),
            "weight": "masked" if masked else float(f"{site.weights[head][q, k]:.{d.weight}f}")}


def shown(t: dict[str, str]) -> dict[str, float | str]:
    return {key: t[key] if t[key] == "masked" else float(t[key]) for key in ("q·k", "scaled", "weight")}


def test_hover_marks_row_and_column_everywhere_and_names_both_words(page, files):
    open_file(page, files["dir"] / "trace.html")
    t = hover(page, "A", 3, 7)
    assert attrs(page, "data-hover") == dict.fromkeys(MATRICES, "3,7")
    site = files["trace"].sites[0]
    assert t["query"] == f"{site.query_tokens[3]}  #3" and t["key"] == f"{site.key_tokens[7]}  #7"
    hover(page, "Z", 5, 2)  # a Z cell is a query's output row: marks that row in S and A
    assert attrs(page, "data-hover") == dict.fromkeys(MATRICES, "5,")
    assert tip(page)["dim"] == "2"


def test_click_cell_row_word_and_column_word_with_a_repeated_word(page, files):
    open_file(page, files["dir"] / "trace.html")
    tokens = files["trace"].sites[0].query_tokens
    assert tokens[0] == tokens[4] == tokens[8] == "the"  # the same word three times, three positions
    page.mouse.click(*cell_point(page, "S", 4, 8))
    assert attrs(page, "data-selected") == dict.fromkeys(MATRICES, "4,8")
    page.mouse.click(*cell_point(page, "A", 8, -1))  # the word beside row 8
    assert attrs(page, "data-selected")["S"] == "8,"
    page.mouse.click(*cell_point(page, "A", -1, 0))  # the word above column 0
    assert attrs(page, "data-selected")["Z"] == ",0"
    lines = page.locator('[data-matrix="lines"] .hv-stage').bounding_box()
    page.mouse.click(lines["x"] + 40, lines["y"] + 6 + 20 * 4.5)  # the query word on line 4 of the left column
    assert attrs(page, "data-selected")["A"] == "4,"
    page.mouse.click(lines["x"] + 300, lines["y"] + 6 + 20 * 8.5)  # the key word on line 8 of the right column
    assert attrs(page, "data-selected")["lines"] == ",8"


def test_keyboard_moves_selects_and_clears(page, files):
    open_file(page, files["dir"] / "trace.html")
    page.mouse.click(*cell_point(page, "A", 2, 2))
    for key in ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    assert attrs(page, "data-selected")["A"] == "3,3"
    page.keyboard.press("Escape")
    assert attrs(page, "data-selected")["S"] == ""
    page.mouse.move(*cell_point(page, "S", 6, 1))
    page.keyboard.press("Enter")
    assert attrs(page, "data-selected")["Z"] == "6,1"
    page.keyboard.press("Escape")
    page.keyboard.press("ArrowRight")  # nothing selected: the first key word
    assert attrs(page, "data-selected")["S"] == ",0"


def test_zoom_into_512_tokens_then_click_and_hover_the_right_cell(page, files):
    open_file(page, files["dir"] / "big.html")
    site = files["big"]
    assert attrs(page, "data-view")["A"] == "0,0,512,512"
    page.mouse.move(*cell_point(page, "A", 300, 100))
    for _ in range(5):  # each notch: x e^-0.6
        page.mouse.wheel(0, -300)
    page.wait_for_function("document.querySelector('[data-matrix=A]').dataset.view.startsWith('9')")
    page.wait_for_timeout(200)  # the last wheel events
    x0, y0, x1, y1 = (float(v) for v in attrs(page, "data-view")["A"].split(","))
    assert 10 < x1 - x0 < 40 and x0 <= 100 < x1 and y0 <= 300 < y1  # zoomed around the pointer
    assert attrs(page, "data-view")["S"] == attrs(page, "data-view")["A"]
    q, k = int(y0) + 5, int(x0) + 3
    page.mouse.click(*cell_point(page, "A", q, k))
    assert attrs(page, "data-selected")["S"] == f"{q},{k}"
    t = hover(page, "S", q - 1, k)
    assert t["query"] == f"{site.query_tokens[q - 1]}  #{q - 1}" and t["key"] == f"{site.key_tokens[k]}  #{k}"
    assert shown(t) == expected(site, 0, q - 1, k, SINGLE_HEAD)
    assert page.locator('[data-matrix="A"] .hv-minimap').is_visible()
    page.get_by_role("button", name="Reset zoom").click()
    assert attrs(page, "data-view")["A"] == "0,0,512,512"


def test_every_cell_is_reachable_at_512_tokens_without_zoom(page, files):
    open_file(page, files["dir"] / "big.html")
    for q, k in ((0, 0), (511, 511), (257, 3), (400, 399)):
        t = hover(page, "A", q, k)
        assert attrs(page, "data-hover")["A"] == f"{q},{k}"
        assert t["query"].endswith(f"#{q}") and t["key"].endswith(f"#{k}")


def test_a_long_rows_table_follows_the_drawing_and_is_the_last_row_asked(page, files):
    # a row of more than 256 keys is laid out as a table when the page is idle (a11y.js), not before
    # the drawing; two rows picked one after the other leave the table of the second
    open_file(page, files["dir"] / "big.html")
    site = files["big"]
    page.mouse.click(*cell_point(page, "A", 300, 10))
    page.mouse.click(*cell_point(page, "A", 400, 10))
    expect(page.locator(".hv-table caption")).to_contain_text(f"{site.query_tokens[400]} #400 ")
    rows = page.locator(".hv-table tbody tr")
    expect(rows).to_have_count(512)
    assert rows.nth(401).locator("td").nth(1).text_content() == "masked"  # a key after the query word


def test_masked_cell_says_masked_and_markup_stays_text(page, files):
    open_file(page, files["dir"] / "trace.html")
    pick(page, "decoder", 0, 0)
    t = hover(page, "A", 2, 7)  # the future: hidden from the query
    assert t["scaled"] == "masked" and t["weight"] == "masked"
    assert t["q·k"] != "masked"  # q·k exists before the mask
    t = hover(page, "S", 2, 2)
    assert t["query"] == "<b>x</b>  #2"  # literally, not bold
    assert page.locator(".hv-tip b").count() == 0
    assert t["weight"] != "masked"


@pytest.mark.parametrize(("kind", "layer", "head", "site_index"), [("encoder", 1, 1, 1), ("decoder", 0, 1, 2),
                                                                    ("cross", 0, 0, 3)])
def test_hover_numbers_equal_the_trace(page, files, kind, layer, head, site_index):
    open_file(page, files["dir"] / "trace.html")
    pick(page, kind, layer, head)
    site = files["trace"].sites[site_index]
    rng = np.random.default_rng(site_index)
    for q, k in zip(rng.integers(0, len(site.query_tokens), 8), rng.integers(0, len(site.key_tokens), 8), strict=True):
        assert shown(hover(page, "A", int(q), int(k))) == expected(site, head, int(q), int(k), WHOLE_TRACE)


def test_the_link_keeps_head_and_selection(page, files):
    open_file(page, files["dir"] / "trace.html")
    pick(page, "encoder", 1, 1)
    page.mouse.click(*cell_point(page, "A", 5, 6))
    assert page.evaluate("location.hash") == "#kind=encoder&layer=1&head=1&q=5&k=6"
    page.reload()
    page.wait_for_selector(".hv[data-ready='1']")
    assert [s.input_value() for s in page.locator(".hv-pickers select").all()] == ["encoder", "1", "1"]
    assert attrs(page, "data-selected")["A"] == "5,6"


def test_lines_view_and_its_limit(page, files):
    open_file(page, files["dir"] / "trace.html")
    lines = page.locator('[data-matrix="lines"] .hv-stage').bounding_box()
    page.mouse.move(lines["x"] + 40, lines["y"] + 6 + 20 * 3.5)
    assert attrs(page, "data-hover")["S"] == "3,"
    page.goto((files["dir"] / "big.html").as_uri())
    page.wait_for_selector(".hv[data-ready='1']")
    assert "up to 64 words" in page.locator('[data-matrix="lines"] .hv-message').inner_text()


def test_png_and_svg_downloads(page, files):
    open_file(page, files["dir"] / "trace.html")
    page.mouse.click(*cell_point(page, "A", 2, 4))
    with page.expect_download() as png:
        page.get_by_role("button", name="PNG").click()
    assert png.value.suggested_filename == "encoder-layer0-head0.png"
    assert Path(png.value.path()).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with page.expect_download() as svg:
        page.get_by_role("button", name="SVG").click()
    text = Path(svg.value.path()).read_text(encoding="utf-8")
    assert text.startswith("<svg") and 'data-matrix="lines"' in text
    assert "&lt;b&gt;x&lt;/b&gt;" in text and "<b>" not in text  # the token as text


def test_jupyter_repr_is_render_html_and_two_views_coexist(page, files):
    site = files["trace"].sites[2]
    html = show(site, head=1, selection=(3, 1))._repr_html_()
    assert html == render_html(site, head=1, selection=(3, 1))
    assert show(files["trace"], kind="decoder", layer=0, head=1, selection=(3, 1))._repr_html_() == html
    page.set_content("<!DOCTYPE html><meta charset='utf-8'><body>" + html + html)
    page.wait_for_function("document.querySelectorAll('.hv[data-ready=\"1\"]').length === 2")
    first, second = page.locator(".hv").nth(0), page.locator(".hv").nth(1)
    assert first.locator('[data-matrix="A"]').get_attribute("data-selected") == "3,1"  # from Python
    page.mouse.click(*cell_point(second, "S", 5, 2))
    assert second.locator('[data-matrix="A"]').get_attribute("data-selected") == "5,2"
    assert first.locator('[data-matrix="A"]').get_attribute("data-selected") == "3,1"


def test_jupyter_classic_runs_scripts_detached_and_the_view_still_finds_its_element(page, files):
    # the classic notebook inserts the output with innerHTML and evaluates each script appended to <head>
    html = show(files["trace"].sites[0], head=0)._repr_html_()
    page.set_content("<!DOCTYPE html><meta charset='utf-8'><body><div id='out'></div>")
    page.evaluate("""(html) => {
        const out = document.getElementById('out');
        out.innerHTML = html;
        for (const old of out.querySelectorAll('script:not([type])')) {
            const s = document.createElement('script');
            s.text = old.text;
            document.head.append(s);
            s.remove();
        }
    }""", html)
    page.wait_for_selector("#out .hv[data-ready='1']")
    hover(page, "A", 1, 2)
    assert attrs(page, "data-hover")["S"] == "1,2"


def test_saved_file_is_one_self_contained_document(files):
    raw = (files["dir"] / "trace.html").read_bytes()
    assert b'<meta charset="windows-1252">' in raw[:200]
    links = raw.replace(b"http://www.w3.org/2000/svg", b"")  # a namespace name, never fetched
    assert b"http://" not in links and b"https://" not in links and b" src=" not in links
    head = raw.split(b'class="hv-data">', 1)[1].split(b"</script>", 1)[0]
    doc = json.loads(head)
    assert [(s["kind"], s["layer"]) for s in doc["sites"]] == [("encoder", 0), ("encoder", 1), ("decoder", 0),
                                                               ("cross", 0)]
