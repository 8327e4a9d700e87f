"""Two tabs on one agent's configure page: the stale tab says so, offers "Load latest", never
overwrites the other tab's edit, and both converge."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import Page, expect

from support.api_setup.agents import current_agent
from support.browser.loading import wait_until_loaded
from support.step_helpers import need
from support.ui.configure import ConfigurePage
from support.ui.publish_bar import PublishBar
from support.world import World

SAVE_REFUSED = "Save failed: this agent was changed elsewhere. Reload to get the latest version."
CHANGED_ELSEWHERE = "This agent was changed elsewhere. Load the latest version to keep editing."


def _tab(world: World, which: str) -> Page:
    if which == "first":
        return world.page
    hint = 'no second tab: add "I open the agent\'s configure page in a second tab"'
    return need(world.agent_builder.configure.second_tab, hint)


@when("I open the agent's configure page in a second tab")
def step_open_second_tab(context: Context) -> None:
    """Open the agent's configure page in a second tab of the same browser ("the second tab")."""
    world: World = context.world
    tab = world.browser_context.new_page()
    world.register_cleanup(tab.close, "second tab")
    world.agent_builder.configure.second_tab = tab
    tab.goto(world.url(ConfigurePage.path(current_agent(world).id)))
    wait_until_loaded(tab)


@when("in the {tab} tab I replace the instructions with {string}")
def step_tab_instructions(context: Context, which: str, text: str) -> None:
    """Replace the instructions in that tab (autosaved)."""
    ConfigurePage(_tab(context.world, which)).instructions.fill(text)


@when("in the {tab} tab I replace the opening statement with {string}")
def step_tab_opening(context: Context, which: str, text: str) -> None:
    """Replace the opening statement in that tab (autosaved)."""
    ConfigurePage(_tab(context.world, which)).opening_statement.fill(text)


@then("the {tab} tab has saved its change")
def step_tab_saved(context: Context, which: str) -> None:
    """That tab's publish bar says Saved."""
    world: World = context.world
    PublishBar(_tab(world, which)).wait_for_save_state("Saved", world.settings.timeout_ms)


@then("the {tab} tab says its save was refused because the agent changed elsewhere")
def step_tab_refused(context: Context, which: str) -> None:
    """That tab says its save was refused as stale, and offers Load latest."""
    bar = PublishBar(_tab(context.world, which))
    expect(bar.shows(SAVE_REFUSED)).to_be_visible()
    expect(bar.load_latest).to_be_visible()


@when("I return to the configure page's tab")
def step_return_to_tab(context: Context) -> None:
    """Return to the configure page's tab, as a user switching back to it would."""
    ConfigurePage(context.world.page).return_to_tab()


@then("the configure page says the agent was changed elsewhere and offers to load the latest")
def step_says_changed(context: Context) -> None:
    """The page says the agent was changed elsewhere, and offers Load latest."""
    bar = PublishBar(context.world.page)
    expect(bar.shows(CHANGED_ELSEWHERE)).to_be_visible()
    expect(bar.load_latest).to_be_visible()


@when("in the {tab} tab I load the latest version")
def step_tab_load_latest(context: Context, which: str) -> None:
    """Click Load latest in that tab."""
    PublishBar(_tab(context.world, which)).load_latest.click()


@then("after a reload both tabs show the instructions {string} and the opening statement {string}")
def step_both_converge(context: Context, instructions: str, opening: str) -> None:
    """Reload both tabs: each shows these instructions and this opening statement."""
    world: World = context.world
    for tab in (_tab(world, "first"), _tab(world, "second")):
        tab.reload()
        wait_until_loaded(tab)
        configure = ConfigurePage(tab)
        expect(configure.instructions).to_have_value(instructions)
        expect(configure.opening_statement).to_have_value(opening)
