"""A real Chromium on "Does it matter?": click a head in the grid to switch it off and see the
translation change."""

from playwright.sync_api import expect

from harness.app_server import wait_idle


def test_clicking_a_head_off_changes_the_translation(page, app_url):
    page.goto(f"{app_url}/does_it_matter?heads=cross.1.1")  # one cross head already off: the translation holds
    wait_idle(page)
    expect(page.get_by_text("The translation is the same word for word")).to_be_visible(timeout=120_000)
    row = page.locator(".st-key-abl_grid_cross_1")
    row.get_by_role("button", name="0", exact=True).click()  # switch cross-attention head 1.0 off too
    wait_idle(page)
    expect(page.get_by_text("The translation changed.")).to_be_visible(timeout=120_000)
    expect(page.locator("code", has_text="el gato negro bebió la leche").filter(
        has_not_text=".")).to_be_visible()
    assert "heads=cross.1.0%2Ccross.1.1" in page.url or "heads=cross.1.0,cross.1.1" in page.url
