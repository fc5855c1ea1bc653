"""Addresses a person types or copies: the first page by its name, and a link copied the moment a new
sentence shows (with the machine busy, when a late address would show)."""

import subprocess
import sys
import urllib.parse

import pytest
from playwright.sync_api import expect

from harness.app_server import wait_idle

pytestmark = pytest.mark.browser


def test_typing_the_first_pages_name_opens_it_with_its_view(page, app_url):
    page.goto(f"{app_url}/explore?text=the+ball+is+red&layer=1")
    wait_idle(page)
    expect(page.get_by_role("heading", name="Explore attention")).to_be_visible(timeout=60_000)
    expect(page.get_by_label("Sentence")).to_have_value("the ball is red")
    assert page.get_by_text("Page not found").count() == 0
    assert "layer=1" in page.url and "text=the+ball+is+red" in page.url


@pytest.fixture
def busy_machine():
    """Two processes spinning at full speed (the machine has two cores), ended by id afterwards."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    yield
    for p in spinners:
        p.kill()
        p.wait()


# The address at the first frame whose caption names the new sentence's token count (read in the
# browser, so nothing can change between the two).
ADDRESS_WHEN_SHOWN = """n => {
  const shown = [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
    .some(c => c.innerText.includes(` · ${n} tokens · `));
  return shown ? location.href : false;
}"""


def test_a_link_copied_as_soon_as_the_new_sentence_shows_is_already_its_link(page, app_url, busy_machine):
    page.goto(f"{app_url}/?text=the+cat")
    wait_idle(page)
    box = page.get_by_label("Sentence")
    for words in ("one two three four", "one two three four five six seven", "a b"):
        box.fill(words)
        box.press("Control+Enter")
        n = len(words.split()) + 2  # [CLS] … [SEP]
        href = page.wait_for_function(ADDRESS_WHEN_SHOWN, arg=n, timeout=120_000, polling="raf").json_value()
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(href).query)
        assert query.get("text") == [words], href
        wait_idle(page)
