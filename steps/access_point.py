"""The access point: web app, service API and API keys of an agent."""

import re

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.setup import current_agent
from support.ui.console_pages import AccessPage
from support.world import World


@when("I open the agent's access point")
def step_open_access(context: Context) -> None:
    world: World = context.world
    world.page.goto(world.url(f"/agents/{current_agent(world).id}/access"))


@then("I see the agent's access point")
def step_see_access(context: Context) -> None:
    world: World = context.world
    expect(world.page).to_have_url(re.compile(rf"/agents/{current_agent(world).id}/access$"))
    expect(AccessPage(world.page).card("Web app")).to_be_visible()


@then('the access cards each say "{text}":')
def step_cards_say(context: Context, text: str) -> None:
    world: World = context.world
    for row in context.table:
        expect(AccessPage(world.page).card(row["card"])).to_contain_text(text)


@then("the access controls are disabled")
def step_controls_disabled(context: Context) -> None:
    world: World = context.world
    page = AccessPage(world.page)
    expect(page.card("Web app").get_by_role("checkbox", name="Web app enabled")).to_be_disabled()
    expect(page.card("Service API").get_by_role("checkbox", name="Service API enabled")).to_be_disabled()
    expect(page.card("API keys").get_by_role("button", name="Create API key")).to_be_disabled()
