"""API keys of an agent: created via the API or on the access point, shown once, revoked."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import Locator, expect

from support.api_setup.access import create_api_key, track_shown_api_key
from support.ui.console_pages import AccessPage
from support.world import World


@given("an API key has been created via API")
def step_api_key_via_api(context: Context) -> None:
    create_api_key(context.world)


@when("I create an API key")
def step_create_api_key(context: Context) -> None:
    world: World = context.world
    AccessPage(world.page).card("API keys").get_by_role("button", name="Create API key").click()
    dialog = world.page.get_by_role("dialog", name="API key created")
    secret_field = dialog.get_by_label("New API key", exact=True)
    expect(secret_field).to_have_value(re.compile(r"^app-"))
    track_shown_api_key(world, secret_field.input_value())


@then("the new API key is shown once with a warning to copy it")
def step_key_shown_once(context: Context) -> None:
    world: World = context.world
    dialog = world.page.get_by_role("dialog", name="API key created")
    expect(dialog).to_contain_text("Copy this key now. You won't be able to see it again.")


@when("I close the API key dialog")
def step_close_key_dialog(context: Context) -> None:
    world: World = context.world
    dialog = world.page.get_by_role("dialog", name="API key created")
    dialog.get_by_role("button", name="Done").click()
    expect(dialog).to_be_hidden()


def _key_rows(world: World) -> Locator:
    return (
        AccessPage(world.page)
        .card("API keys")
        .get_by_role("row")
        .filter(has=world.page.get_by_role("button", name=re.compile("^Revoke ")))
    )


@then("the API key list shows the key only masked")
def step_key_masked(context: Context) -> None:
    world: World = context.world
    secret = world.agent_builder.access_point.shown_api_key_secret or ""
    rows = _key_rows(world)
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text(secret[:8])
    expect(world.page.locator("body")).not_to_contain_text(secret)
    assert secret not in world.page.content(), "the full API key is still in the page"


@when("I revoke the API key")
def step_revoke_key(context: Context) -> None:
    world: World = context.world
    _key_rows(world).first.get_by_role("button", name=re.compile("^Revoke ")).click()
    world.page.get_by_role("dialog", name="Revoke API key?").get_by_role("button", name="Revoke").click()


@then("the API key list does not show the key")
def step_key_gone(context: Context) -> None:
    world: World = context.world
    expect(_key_rows(world)).to_have_count(0)
