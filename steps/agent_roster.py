"""The agent roster: list, search, create, delete."""

import re

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.console import ConsoleApiError
from support.api_setup.agents import agent_by_label, current_agent, track_agent
from support.ui.console_pages import RosterPage
from support.world import World


def _open_roster(world: World) -> None:
    world.page.goto(world.url("/agents"))


@when("I open the agent roster")
def step_open_roster(context: Context) -> None:
    _open_roster(context.world)


@when("I immediately open the agent roster")
def step_open_roster_immediately(context: Context) -> None:
    # Same navigation, named for intent: no wait for the publish bar to say "Saved" first.
    _open_roster(context.world)


@then("I see the agent roster")
def step_see_roster(context: Context) -> None:
    world: World = context.world
    expect(world.page).to_have_url(re.compile(r"/agents$"))
    expect(RosterPage(world.page).heading).to_be_visible()


@when('I create an agent named "{label}" from the roster')
def step_create_from_roster(context: Context, label: str) -> None:
    world: World = context.world
    name = world.name(label)
    RosterPage(world.page).create(name)
    expect(world.page).to_have_url(re.compile(r"/agents/[^/]+/configure$"))
    agent_id = world.page.url.rstrip("/").split("/")[-2]
    track_agent(world, world.console.get_agent(agent_id), label)


@when('I search the roster for the agent "{label}"')
def step_search_for_agent(context: Context, label: str) -> None:
    world: World = context.world
    RosterPage(world.page).search(agent_by_label(world, label).name)


@when('I search the roster for "{text}"')
def step_search_for_text(context: Context, text: str) -> None:
    world: World = context.world
    RosterPage(world.page).search(text)


@then("the agent roster lists the agent")
def step_roster_lists_agent(context: Context) -> None:
    world: World = context.world
    expect(RosterPage(world.page).link(current_agent(world).name)).to_be_visible()


@then('the agent roster lists the agent "{label}"')
def step_roster_lists_labelled(context: Context, label: str) -> None:
    world: World = context.world
    expect(RosterPage(world.page).link(agent_by_label(world, label).name)).to_be_visible()


@then("the agent roster does not list the agent")
def step_roster_lacks_agent(context: Context) -> None:
    world: World = context.world
    expect(RosterPage(world.page).link(current_agent(world).name)).to_have_count(0)


@then('the agent roster does not list the agent "{label}"')
def step_roster_lacks_labelled(context: Context, label: str) -> None:
    world: World = context.world
    expect(RosterPage(world.page).link(agent_by_label(world, label).name)).to_have_count(0)


@then('the agent roster says "{text}"')
def step_roster_says(context: Context, text: str) -> None:
    world: World = context.world
    expect(world.page.get_by_text(text, exact=True)).to_be_visible()


@then('the agent roster shows the agent as "{badge}"')
def step_roster_badge(context: Context, badge: str) -> None:
    world: World = context.world
    expect(RosterPage(world.page).row(current_agent(world).name)).to_contain_text(badge)


@when("I open the agent from the roster")
def step_open_from_roster(context: Context) -> None:
    world: World = context.world
    RosterPage(world.page).link(current_agent(world).name).click()


@when("I delete the agent from the roster")
def step_delete_from_roster(context: Context) -> None:
    world: World = context.world
    dialog = RosterPage(world.page).start_delete(current_agent(world).name)
    dialog.get_by_role("button", name="Delete").click()


@when("I start deleting the agent from the roster but cancel")
def step_cancel_delete(context: Context) -> None:
    world: World = context.world
    dialog = RosterPage(world.page).start_delete(current_agent(world).name)
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()


@then("the agent no longer exists in the console")
def step_agent_gone(context: Context) -> None:
    world: World = context.world
    try:
        world.console.get_agent(current_agent(world).id)
    except ConsoleApiError as error:
        assert error.status == 404, error
    else:
        raise AssertionError("the agent detail still answers after deletion")
