"""A real Chromium's Back and Forward: one press per view the person asked for (a page switch or a changed
choice), and each press shows the view that address names (attention/ui/history.py, state.returned_to)."""

from playwright.sync_api import expect

from harness.app_server import wait_idle

TEXT = "The black cat drank the milk"


def layer_box(page):
    return page.get_by_role("combobox", name="Layer")


def test_one_back_press_per_view_and_forward_again(page, app_url):
    page.goto(f"{app_url}/?text=The+black+cat+drank+the+milk")
    wait_idle(page)
    expect(layer_box(page)).to_have_value("0", timeout=60_000)

    layer_box(page).click()
    page.get_by_role("option", name="2", exact=True).click()
    wait_idle(page)
    expect(layer_box(page)).to_have_value("2")
    assert "layer=2" in page.url

    page.get_by_role("button", name="Change one word").click()  # a page switch: two writes of the address
    wait_idle(page)
    expect(page.get_by_role("heading", name="Change one word")).to_be_visible(timeout=60_000)
    entries = page.evaluate("history.length")

    page.go_back()  # one press: Explore as it was left (layer 2), not the same page again
    wait_idle(page)
    expect(page.get_by_role("heading", name="Explore attention")).to_be_visible(timeout=60_000)
    expect(layer_box(page)).to_have_value("2")
    expect(page.get_by_role("textbox", name="Sentence")).to_have_value(TEXT)

    page.go_back()  # one more: the layer before the change, read from the address
    wait_idle(page)
    expect(layer_box(page)).to_have_value("0", timeout=30_000)
    assert "layer=0" in page.url

    page.go_forward()
    wait_idle(page)
    expect(layer_box(page)).to_have_value("2", timeout=30_000)
    assert "layer=2" in page.url
    assert page.evaluate("history.length") == entries  # going back and forth added nothing
