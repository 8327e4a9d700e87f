"""How a region looks (support/goldens/looks.py): what a sighted user sees, stable across runs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from support.goldens.looks import look_of, wait_for_look

STYLE = """<style>
  .muted, .quiet { color: rgb(87, 96, 106); }
  .row { display: flex; gap: 8px; }
  .end { margin-left: auto; }
  .grid { display: grid; grid-template-columns: minmax(0, 1fr) 20rem; }
</style>"""


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    page = browser.new_page(viewport={"width": 900, "height": 600})
    yield page
    page.close()


def _look(page: Page, body: str) -> str:
    page.set_content(STYLE + f"<main>{body}</main>")
    return look_of(page.locator("main"))


def test_a_lost_class_changes_the_look_a_renamed_one_does_not(page: Page) -> None:
    styled = _look(page, '<p class="muted">Support agent</p>')
    assert "color: rgb(87, 96, 106)" in styled
    assert _look(page, "<p>Support agent</p>") != styled
    assert _look(page, '<p class="quiet">Support agent</p>') == styled


def test_auto_margins_and_fractions_read_the_same_whatever_the_text_width(page: Page) -> None:
    short = _look(
        page, '<div class="row"><span>a</span><span class="end">x</span></div><div class="grid"></div>'
    )
    long = _look(
        page,
        '<div class="row"><span>a much longer name</span><span class="end">x</span></div><div class="grid"></div>',
    )
    assert short == long
    assert "margin: 0px 0px 0px auto" in short
    assert "grid-template-columns: minmax(0px, 1fr) 320px" in short


def test_elements_are_named_by_tag_and_role_with_their_depth(page: Page) -> None:
    look = _look(page, '<div role="alert" hidden><p>x</p></div><select><option>A</option></select>')
    alert, select = look.splitlines()[1:]  # nothing under a hidden element or a picker
    assert alert == "  div[role=alert] { display: none }"
    assert select.startswith("  select {")


def test_a_region_that_does_not_look_as_expected_fails_with_the_difference(page: Page) -> None:
    expected = _look(page, '<p class="muted">Support agent</p>')
    page.set_content(STYLE + "<main><p>Support agent</p></main>")
    with pytest.raises(AssertionError) as failure:
        wait_for_look(page.locator("main"), expected, timeout_ms=500)
    assert "-  p { color: rgb(87, 96, 106); margin: 16px 0px }" in str(failure.value)
    assert "+  p { margin: 16px 0px }" in str(failure.value)


def test_waiting_ends_once_the_page_has_drawn_the_expected_look(page: Page) -> None:
    expected = _look(page, '<p class="muted">Support agent</p>')
    page.set_content(STYLE + "<main><p>Support agent</p></main>")
    page.evaluate("setTimeout(() => document.querySelector('p').className = 'muted', 100)")
    wait_for_look(page.locator("main"), expected, timeout_ms=5000)
