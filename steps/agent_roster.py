"""The agent roster: list, search, create, delete."""

from behave import step, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.agents import (
    agent_by_label,
    agent_is_gone,
    current_agent,
    saved_agent,
    track_agent_created_in_page,
)
from support.ui.configure import ConfigurePage
from support.ui.roster import RosterPage
from support.world import World


def _roster(world: World) -> RosterPage:
    return RosterPage(world.page)


@when("I open the agent roster")
def step_open_roster(context: Context) -> None:
    """Open the agent roster and wait for it to load."""
    context.world.open(RosterPage.PATH)


@when("I immediately open the agent roster")
def step_open_roster_immediately(context: Context) -> None:
    """Open the roster at once, without waiting for the publish bar to say Saved."""
    context.world.open(RosterPage.PATH)


@then("I see the agent roster")
def step_see_roster(context: Context) -> None:
    """The agent roster is shown."""
    world: World = context.world
    expect(world.page).to_have_url(RosterPage.URL)
    expect(_roster(world).heading).to_be_visible()


@when("I create an agent named {string} from the roster")
def step_create_from_roster(context: Context, label: str) -> None:
    """Create an agent in the roster with a run-unique name; it becomes "the agent"."""
    world: World = context.world
    _roster(world).create(world.name(label))
    expect(world.page).to_have_url(ConfigurePage.url())
    track_agent_created_in_page(world, ConfigurePage(world.page).agent_id(), label)


@when("I search the roster for the agent {string}")
def step_search_for_agent(context: Context, label: str) -> None:
    """Search the roster for a labelled agent's run-unique name."""
    world: World = context.world
    _roster(world).search(agent_by_label(world, label).name)


@step("the console holds the answer to a roster search for the agent {string}")
def step_hold_search(context: Context, label: str) -> None:
    """Hold the roster's search request for a labelled agent ("the held roster search")."""
    world: World = context.world
    name = agent_by_label(world, label).name
    world.held["roster search"] = _roster(world).hold_search_for(name, world.settings.timeout_ms)


@when("I search the roster for {string}")
def step_search_for_text(context: Context, text: str) -> None:
    """Type the text into the roster's search."""
    world: World = context.world
    _roster(world).search(text)


@then("the agent roster lists the agent")
def step_roster_lists_agent(context: Context) -> None:
    """The roster lists the current agent."""
    world: World = context.world
    expect(_roster(world).link(current_agent(world).name)).to_be_visible()


@then("the agent's roster row shows exactly the buttons {strings}")
def step_roster_row_buttons(context: Context, labels: list[str]) -> None:
    """The current agent's roster row has exactly these buttons, in order, each showing its text.

    Their accessible names say more ("Delete <name>"): this is what a sighted user reads."""
    world: World = context.world
    expect(_roster(world).row_buttons(current_agent(world).name)).to_have_text(labels)


@then("the agent roster lists the agent {string}")
def step_roster_lists_labelled(context: Context, label: str) -> None:
    """The roster lists the labelled agent."""
    world: World = context.world
    expect(_roster(world).link(agent_by_label(world, label).name)).to_be_visible()


@then("the agent roster does not list the agent")
def step_roster_lacks_agent(context: Context) -> None:
    """The roster does not list the current agent."""
    world: World = context.world
    expect(_roster(world).link(current_agent(world).name)).to_have_count(0)


@then("the agent roster does not list the agent {string}")
def step_roster_lacks_labelled(context: Context, label: str) -> None:
    """The roster does not list the labelled agent."""
    world: World = context.world
    expect(_roster(world).link(agent_by_label(world, label).name)).to_have_count(0)


@then("the agent roster lists {int} agents and offers to show more")
def step_roster_lists_more(context: Context, count: int) -> None:
    """The roster lists that many agents (a page of them) and its Show more button."""
    roster = _roster(context.world)
    expect(roster.rows).to_have_count(count)
    expect(roster.show_more_button).to_be_visible()


@when("I ask the roster to show more")
def step_roster_show_more(context: Context) -> None:
    """Press Show more under the roster."""
    _roster(context.world).show_more_button.click()


@then("the agent roster lists {int} agents and nothing more to show")
def step_roster_lists_all(context: Context, count: int) -> None:
    """The roster lists that many agents, and no Show more button."""
    roster = _roster(context.world)
    expect(roster.rows).to_have_count(count)
    expect(roster.show_more_button).to_be_hidden()


@then("the agent roster says {string}")
def step_roster_says(context: Context, text: str) -> None:
    """The roster shows the text (e.g. an empty search result)."""
    expect(_roster(context.world).says(text)).to_be_visible()


@then("the agent roster shows the agent as {string}")
def step_roster_badge(context: Context, badge: str) -> None:
    """The current agent's row shows the badge (Draft, Published)."""
    world: World = context.world
    expect(_roster(world).row(current_agent(world).name)).to_contain_text(badge)


@when("I open the agent from the roster")
def step_open_from_roster(context: Context) -> None:
    """Open the current agent from its roster row."""
    world: World = context.world
    _roster(world).link(current_agent(world).name).click()


@when("I delete the agent from the roster")
def step_delete_from_roster(context: Context) -> None:
    """Delete the current agent through the roster's confirmation dialog."""
    world: World = context.world
    _roster(world).start_delete(current_agent(world).name).confirm()


@when("I start deleting the agent from the roster but cancel")
def step_cancel_delete(context: Context) -> None:
    """Open the delete dialog for the current agent, then cancel it."""
    world: World = context.world
    dialog = _roster(world).start_delete(current_agent(world).name)
    dialog.cancel()
    expect(dialog.root).to_be_hidden()


@then("the agent still exists in the console")
def step_agent_exists(context: Context) -> None:
    """The console API still has the current agent."""
    saved_agent(context.world)  # a refusal (404) fails the step


@then("the agent no longer exists in the console")
def step_agent_gone(context: Context) -> None:
    """The console API no longer has the current agent."""
    assert agent_is_gone(context.world), "the agent detail still answers after deletion"
