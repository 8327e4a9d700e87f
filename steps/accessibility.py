"""Accessibility scans (@axe): the page as it is now, checked by axe-core with the rules the
scenario's rule-set tag chooses (@wcag-a or @wcag-aa, support/tags.py), and the few sentences
that put a page into a state worth scanning (a dialog open, a missing page)."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.agents import current_agent
from support.browser.accessibility import report, scan
from support.tags import rule_set
from support.ui.browser_page import BrowserPage
from support.ui.duplicate_dialog import DuplicateDialog
from support.ui.not_found import NotFoundPage
from support.ui.roster import RosterPage
from support.world import World


@then("the page has no accessibility violations")  # support.tags.AXE_SCAN_STEP
def step_no_violations(context: Context) -> None:
    """axe-core finds no violation of the rule-set tag's rules in the page as it is now."""
    world: World = context.world
    rules = rule_set({f"@{tag}" for tag in context.scenario.effective_tags})
    violations = scan(world.page, rules)
    assert not violations, report(BrowserPage(world.page).describe(), violations)


@when("I open the {string} dialog with the {string} button")
def step_open_dialog(context: Context, dialog: str, button: str) -> None:
    """Press the button and wait until the named dialog shows."""
    expect(BrowserPage(context.world.page).open_dialog(button, dialog)).to_be_visible()


@when("I close the dialog")
def step_close_dialog(context: Context) -> None:
    """Close the open dialog with Escape, as a keyboard user would."""
    BrowserPage(context.world.page).close_dialog()


@when("I open the agent's duplicate dialog from the roster")
def step_open_duplicate_dialog(context: Context) -> None:
    """Open the duplicate dialog from the current agent's roster row."""
    world: World = context.world
    expect(DuplicateDialog.open_from_roster(world.page, current_agent(world).name).root).to_be_visible()


@when("I open the agent's delete dialog from the roster")
def step_open_delete_dialog(context: Context) -> None:
    """Open the delete dialog from the current agent's roster row."""
    world: World = context.world
    expect(RosterPage(world.page).start_delete(current_agent(world).name).root).to_be_visible()


@when("I open a console address that does not exist")
def step_open_missing(context: Context) -> None:
    """Open an address the console has no page for, and wait for its "Page not found"."""
    world: World = context.world
    world.open(NotFoundPage.PATH)
    expect(NotFoundPage(world.page).heading).to_be_visible()
