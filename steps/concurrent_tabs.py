"""Two tabs on one agent's configure page: the stale tab says so, offers "Load latest", never
overwrites the other tab's edit, and both converge."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import Page, expect

from support.api_setup.agents import current_agent
from support.browser.loading import wait_until_loaded
from support.ui.configure import ConfigurePage
from support.ui.publish_bar import PublishBar
from support.world import World

SAVE_REFUSED = "Save failed: this agent was changed elsewhere. Reload to get the latest version."
CHANGED_ELSEWHERE = "This agent was changed elsewhere. Load the latest version to keep editing."


def _tab(world: World, which: str) -> Page:
    if which == "first":
        return world.page
    tab = world.agent_builder.configure.second_tab
    assert tab is not None, 'no second tab: add "I open the agent\'s configure page in a second tab"'
    return tab


@when("I open the agent's configure page in a second tab")
def step_open_second_tab(context: Context) -> None:
    world: World = context.world
    tab = world.browser_context.new_page()
    world.register_cleanup(tab.close, "second tab")
    world.agent_builder.configure.second_tab = tab
    tab.goto(world.url(ConfigurePage.path(current_agent(world).id)))
    wait_until_loaded(tab)


@when("in the {tab} tab I replace the instructions with {string}")
def step_tab_instructions(context: Context, which: str, text: str) -> None:
    ConfigurePage(_tab(context.world, which)).instructions.fill(text)


@when("in the {tab} tab I replace the opening statement with {string}")
def step_tab_opening(context: Context, which: str, text: str) -> None:
    ConfigurePage(_tab(context.world, which)).opening_statement.fill(text)


@then("the {tab} tab has saved its change")
def step_tab_saved(context: Context, which: str) -> None:
    world: World = context.world
    PublishBar(_tab(world, which)).wait_for_save_state("Saved", world.settings.timeout_ms)


@then("the {tab} tab says its save was refused because the agent changed elsewhere")
def step_tab_refused(context: Context, which: str) -> None:
    bar = PublishBar(_tab(context.world, which))
    expect(bar.shows(SAVE_REFUSED)).to_be_visible()
    expect(bar.load_latest).to_be_visible()


@when("I return to the configure page's tab")
def step_return_to_tab(context: Context) -> None:
    ConfigurePage(context.world.page).return_to_tab()


@then("the configure page says the agent was changed elsewhere and offers to load the latest")
def step_says_changed(context: Context) -> None:
    bar = PublishBar(context.world.page)
    expect(bar.shows(CHANGED_ELSEWHERE)).to_be_visible()
    expect(bar.load_latest).to_be_visible()


@when("in the {tab} tab I load the latest version")
def step_tab_load_latest(context: Context, which: str) -> None:
    PublishBar(_tab(context.world, which)).load_latest.click()


@then("after a reload both tabs show the instructions {string} and the opening statement {string}")
def step_both_converge(context: Context, instructions: str, opening: str) -> None:
    world: World = context.world
    for tab in (_tab(world, "first"), _tab(world, "second")):
        tab.reload()
        wait_until_loaded(tab)
        configure = ConfigurePage(tab)
        expect(configure.instructions).to_have_value(instructions)
        expect(configure.opening_statement).to_have_value(opening)
