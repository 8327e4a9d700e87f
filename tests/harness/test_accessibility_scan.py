"""The a11y lane's scan finds what axe-core finds: a page with known WCAG A and AA failures is
reported rule by rule, with the element, and a clean page passes. Without this, a scan that runs
no rules (or the wrong ones) would pass every @axe scenario."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from support.browser.accessibility import report, scan
from support.tags import RULE_SET_TAGS

# An image without alt text (WCAG 2.0 A), a button without a name (A), light grey text on white
# (AA contrast); each is an axe rule of its own.
BROKEN = """<!doctype html><html lang="en"><head><title>Broken</title></head><body><main>
<h1>Broken page</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<button type="button"></button><p style="color:#d0d0d0;background:#fff">Hard to read</p>
</main></body></html>"""
CLEAN = """<!doctype html><html lang="en"><head><title>Clean</title></head><body><main>
<h1>Clean page</h1><button type="button">Save</button></main></body></html>"""


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    page = browser.new_page()
    yield page
    page.close()


def rules_on(page: Page, html: str, rule_set: str) -> set[str]:
    page.set_content(html)
    return {violation.rule for violation in scan(page, RULE_SET_TAGS[rule_set])}


def test_level_a_rules_find_the_missing_names_but_not_the_contrast(page: Page) -> None:
    assert rules_on(page, BROKEN, "@wcag-a") == {"image-alt", "button-name"}


def test_level_aa_rules_also_find_the_contrast(page: Page) -> None:
    assert rules_on(page, BROKEN, "@wcag-aa") == {"image-alt", "button-name", "color-contrast"}


def test_a_clean_page_has_no_violations(page: Page) -> None:
    assert rules_on(page, CLEAN, "@wcag-aa") == set()


def test_the_report_names_each_rule_and_element(page: Page) -> None:
    page.set_content(BROKEN)
    text = report("the broken page", scan(page, RULE_SET_TAGS["@wcag-a"]))
    assert text.startswith("2 accessibility violation(s) on the broken page:")
    assert "- image-alt (critical)" in text and "at img:" in text
    assert "https://dequeuniversity.com/rules/axe/" in text
