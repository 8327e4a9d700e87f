"""API keys of an agent: created via the API or on the access point, shown once, revoked."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.access import create_api_key, create_other_api_key, track_shown_api_key
from support.step_helpers import need
from support.ui.access_point import AccessPointPage
from support.ui.browser_page import BrowserPage
from support.world import World


def _access_point(world: World) -> AccessPointPage:
    return AccessPointPage(world.page)


@given("an API key has been created via API")
def step_api_key_via_api(context: Context) -> None:
    """Create an API key of the agent through the API; "that key" in later steps."""
    create_api_key(context.world)


@given("another API key has been created via API")
def step_other_api_key_via_api(context: Context) -> None:
    """Create a second API key of the same agent through the API: "the other key"."""
    create_other_api_key(context.world)


@when("I create an API key")
def step_create_api_key(context: Context) -> None:
    """Create an API key in the access point page."""
    world: World = context.world
    secret = _access_point(world).create_api_key().secret
    expect(secret).to_have_value(re.compile(r"^app-"))
    track_shown_api_key(world, secret.input_value())


@then("the new API key is shown once with a warning to copy it")
def step_key_shown_once(context: Context) -> None:
    """The dialog shows the new key's secret once, with a warning to copy it."""
    dialog = _access_point(context.world).new_key_dialog
    expect(dialog.root).to_contain_text("Copy this key now. You won't be able to see it again.")


@when("I close the API key dialog")
def step_close_key_dialog(context: Context) -> None:
    """Close the new-key dialog."""
    dialog = _access_point(context.world).new_key_dialog
    dialog.done()
    expect(dialog.root).to_be_hidden()


@then("the API key list shows the key only masked")
def step_key_masked(context: Context) -> None:
    """The key list shows the key masked, never its secret."""
    world: World = context.world
    secret = world.agent_builder.access_point.shown_api_key_secret or ""
    keys = _access_point(world).api_keys.keys
    expect(keys).to_have_count(1)
    expect(keys.first).to_contain_text(secret[:8])
    browser_page = BrowserPage(world.page)
    expect(browser_page.text).not_to_contain_text(secret)
    assert secret not in browser_page.html(), "the full API key is still in the page"


def _masked(secret: str | None) -> str:
    """What the key list shows of a key: the start of its secret (its stored prefix)."""
    return need(secret, "no API key of that kind exists in this scenario")[:8]


@when("I revoke the API key")
def step_revoke_key(context: Context) -> None:
    """Revoke "that key" in the access point page."""
    world: World = context.world
    access_point = _access_point(world)
    access_point.revoke_api_key(
        access_point.api_keys.key(_masked(world.agent_builder.access_point.shown_api_key_secret))
    )


@then("the API key list does not show the key")
def step_key_gone(context: Context) -> None:
    """The key list shows no key at all."""
    expect(_access_point(context.world).api_keys.keys).to_have_count(0)


@then("the API key list shows only the other key")
def step_only_other_key(context: Context) -> None:
    """The key list shows one key: "the other key"."""
    world: World = context.world
    keys = _access_point(world).api_keys.keys
    expect(keys).to_have_count(1)
    expect(keys.first).to_contain_text(_masked(world.agent_builder.access_point.other_api_key_secret))


@then("the API key list shows {int} keys, none of them in full")
def step_keys_masked(context: Context, count: int) -> None:
    """The key list shows that many keys, and no secret the scenario was shown is in the page."""
    world: World = context.world
    expect(_access_point(world).api_keys.keys).to_have_count(count)
    browser_page = BrowserPage(world.page)
    for secret in world.secrets:
        expect(browser_page.text).not_to_contain_text(secret)
        assert secret not in browser_page.html(), "a full secret is still in the page"


@then("the new API key is shown in its dialog")
def step_key_shown_in_dialog(context: Context) -> None:
    """The new-key dialog shows a key's secret; it becomes "that key" (tracked and redacted)."""
    world: World = context.world
    secret = _access_point(world).new_key_dialog.secret
    expect(secret).to_have_value(re.compile(r"^app-"))
    track_shown_api_key(world, secret.input_value())


@then("the clipboard holds the new API key")
def step_clipboard_holds_key(context: Context) -> None:
    """The clipboard holds exactly the secret the new-key dialog showed."""
    world: World = context.world
    expect(_access_point(world).new_key_dialog.copied).to_have_text("Copied")
    copied = BrowserPage(world.page).clipboard_text()
    assert copied == world.agent_builder.access_point.shown_api_key_secret, "the clipboard holds another text"
