"""The real browser is required: these tests fail, never skip, when Chromium or Playwright is missing."""

import os

import pytest

from harness.app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_server


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: install Debian's chromium package (see .ci/run)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("the playwright Python package is missing: pip install -r requirements-dev.txt")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def app_url():
    with streamlit_server() as url:
        yield url


@pytest.fixture
def page(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 1400})
    pg = context.new_page()
    yield pg
    context.close()
