"""Screenshots of every Lesson step, Learning, Find heads and Does it matter? in en and zh, at 1280 px.

Screenshots to read the pages as a learner would: every Lesson step (before and after its prediction is
answered), Learning, Find heads and "Does it matter?", in English and Chinese, at 1280 px in Chromium.

    python -m qa screens OUT_DIR [--langs en,zh]

Writes PNG files into OUT_DIR and prints their names. The page is 3,600 px tall: Streamlit scrolls inside
its own container, so a "full page" screenshot holds only the viewport.
"""

from __future__ import annotations

import sys
import urllib.parse
from pathlib import Path

from attention import i18n
from bench.cli import bench_parser
from harness.app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_idle

PAGES = (("learning", "learning", {}), ("learning_cross", "learning", {"kind": "cross", "layer": 1, "head": 1}),
         ("matter", "does_it_matter", {}), ("find", "find_heads", {}))
UNKNOWN = {"text": "The zorblax drank the black glorp", "tr_text": "The zorblax is blue."}


def lesson(page, url: str, out: Path, lang: str, tag: str, extra: dict) -> list[str]:
    shot = []
    for step in range(11):
        page.goto(f"{url}/lesson?{urllib.parse.urlencode({'step': step, 'lang': lang, **extra})}")
        wait_idle(page, 300_000)
        page.wait_for_timeout(800)
        shot.append(f"lesson{tag}_{lang}_{step:02d}a.png")
        page.screenshot(path=out / shot[-1])
        radios = page.locator('[data-testid="stMain"] [data-testid="stRadio"] [role="radiogroup"] label')
        reveal = page.get_by_role("button", name=i18n.t("lesson.check", lang))
        if radios.count() and reveal.count():  # answer with the first choice, then read the reveal
            radios.nth(0).click()
            wait_idle(page, 300_000)
            reveal.click()
            wait_idle(page, 300_000)
            page.wait_for_timeout(800)
            shot.append(f"lesson{tag}_{lang}_{step:02d}b.png")
            page.screenshot(path=out / shot[-1])
    return shot


def main(argv: list[str] | None = None) -> int:
    ap = bench_parser(__doc__, results=False)
    ap.add_argument("out", type=Path, help="the folder the PNG files go to")
    ap.add_argument("--langs", default="en,zh")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with streamlit_server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in args.langs.split(","):
            context = browser.new_context(viewport={"width": 1280, "height": 3600})
            page = context.new_page()
            names = lesson(page, url, args.out, lang, "", {}) + lesson(page, url, args.out, lang, "_unknown", UNKNOWN)
            for name, path, params in PAGES:
                page.goto(f"{url}/{path}?{urllib.parse.urlencode({**params, 'lang': lang})}")
                wait_idle(page, 300_000)
                page.wait_for_timeout(1500)
                names.append(f"{name}_{lang}.png")
                page.screenshot(path=args.out / names[-1])
            context.close()
            print("\n".join(names))
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
