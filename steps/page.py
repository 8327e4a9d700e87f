"""Sentences about the browser page itself, whatever console page it shows."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.browser.tone import expect_tone
from support.goldens import check_region
from support.ui.browser_page import BrowserPage
from support.world import World


@when("I refresh the page")
def step_refresh(context: Context) -> None:
    """Reload the page and wait for it to load."""
    world: World = context.world
    world.page.reload()


@when("I reload the page and choose to stay when the browser asks")
def step_reload_and_stay(context: Context) -> None:
    """Reload; the browser must ask before leaving the page, and the user stays on it."""
    world: World = context.world
    BrowserPage(world.page).reload_and_stay(world.settings.timeout_ms)


@then("the page's main content matches the golden {string}")
def step_main_golden(context: Context, name: str) -> None:
    """The page's main region reads and looks exactly as its golden files.

    features/goldens/<name>.aria.yml: every heading, label, button and text, nothing more;
    <name>.look.txt: every element's colours, type and spacing (E2E_GOLDEN=refresh writes both)."""
    world: World = context.world
    check_region(world.settings, name, BrowserPage(world.page).main)


@then("the open dialog matches the golden {string}")
def step_dialog_golden(context: Context, name: str) -> None:
    """The open dialog reads and looks exactly as its golden files (as the main content's)."""
    world: World = context.world
    check_region(world.settings, name, BrowserPage(world.page).open_dialog_region)


@then("the open dialog's {string} button is filled with the {string} colour")
def step_dialog_button_colour(context: Context, name: str, colour: str) -> None:
    """The open dialog's button is filled with this palette colour: `danger` for a destructive action (support/browser/tone.py)."""
    world: World = context.world
    expect_tone(BrowserPage(world.page).open_dialog_button(name), colour, filled=True)


@then("the page never shows the secret {string}")
def step_secret_not_shown(context: Context, secret: str) -> None:
    """Neither the page's visible text nor its HTML contains the secret."""
    browser_page = BrowserPage(context.world.page)
    expect(browser_page.text).not_to_contain_text(secret)
    assert secret not in browser_page.html(), "the secret is in the page's HTML"
