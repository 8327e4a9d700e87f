"""The access point page (the web app and service API cards, their switches, the API reference
link) and the same access switches set through the API."""

from unittest.mock import ANY

from behave import given, step, then, when
from behave.runner import Context
from playwright.sync_api import Locator, expect

from support.api_setup.access import public_urls, set_access
from support.api_setup.agents import current_agent
from support.step_helpers import data_table
from support.ui.access_point import AccessPointPage
from support.ui.api_reference import ApiReferencePage
from support.ui.browser_page import BrowserPage
from support.ui.embedding_site import EmbeddingSite
from support.ui.web_app import WebAppPage
from support.world import World


def _access_point(world: World) -> AccessPointPage:
    return AccessPointPage(world.page)


def _follow_into_new_tab(world: World, link: Locator) -> None:
    """Later steps act on the tab the link opens."""
    world.page = BrowserPage(world.page).follow_into_new_tab(link)


def _open_web_app_in_new_tab(world: World, expected_status: int) -> WebAppPage:
    web_app_url = public_urls(world).web_app
    tab, status = BrowserPage(world.page).open_in_new_tab(web_app_url)
    assert status == expected_status, f"the web app answered {status}"
    return WebAppPage(tab)


@when("I open the agent's access point")
def step_open_access(context: Context) -> None:
    """Open the current agent's access point page and wait for it to load."""
    world: World = context.world
    world.open(AccessPointPage.path(current_agent(world).id))


@then("I see the agent's access point")
def step_see_access(context: Context) -> None:
    """The access point page is shown for the current agent."""
    world: World = context.world
    expect(world.page).to_have_url(AccessPointPage.url(current_agent(world).id))
    expect(_access_point(world).card("Web app")).to_be_visible()


@then("the access cards each say {string}:")
def step_cards_say(context: Context, text: str) -> None:
    """Every access card (web app, service API) shows the text."""
    access_point = _access_point(context.world)
    for row in data_table(context):
        expect(access_point.card(row["card"])).to_contain_text(text)


@then("the access controls are disabled")
def step_controls_disabled(context: Context) -> None:
    """The web app and service API switches and the new-key button are disabled."""
    access_point = _access_point(context.world)
    expect(access_point.web_app.enabled).to_be_disabled()
    expect(access_point.service_api.enabled).to_be_disabled()
    expect(access_point.api_keys.create_button).to_be_disabled()


@given("the agent's web app has been disabled via API")
def step_web_app_disabled_via_api(context: Context) -> None:
    """Turn the web app off through the console API (setup)."""
    set_access(context.world, web_app_enabled=False)


@given("the agent's service API has been disabled via API")
def step_service_disabled(context: Context) -> None:
    """Turn the service API off through the console API (setup)."""
    set_access(context.world, service_api_enabled=False)


@when("the agent's service API is enabled again via API")
def step_service_enabled(context: Context) -> None:
    """Turn the service API back on through the console API."""
    set_access(context.world, service_api_enabled=True)


@when("I open the web app from the access point")
def step_open_web_app(context: Context) -> None:
    """Follow the access point's link to the web app; the new tab becomes the page."""
    world: World = context.world
    _follow_into_new_tab(world, _access_point(world).web_app.open_link)


@when("I copy the web app URL")
def step_copy_url(context: Context) -> None:
    """Copy the web app URL with the access point's copy button."""
    _access_point(context.world).web_app.copy_url()


@then("the access point confirms {string}")
def step_access_confirms(context: Context, text: str) -> None:
    """The access point shows a confirmation such as "Copied"."""
    expect(_access_point(context.world).web_app.confirmation(text)).to_be_visible()


@when("I copy the service API base URL")
def step_copy_base_url(context: Context) -> None:
    """Copy the service API's base URL with its card's copy button."""
    _access_point(context.world).service_api.copy_base_url()


@then("the service API card confirms {string}")
def step_service_api_confirms(context: Context, text: str) -> None:
    """The service API card shows a confirmation such as "Copied"."""
    expect(_access_point(context.world).service_api.confirmation(text)).to_be_visible()


@then("the clipboard holds the service API base URL")
def step_clipboard_holds_base_url(context: Context) -> None:
    """The clipboard holds exactly the service API's base URL."""
    world: World = context.world
    copied = BrowserPage(world.page).clipboard_text()
    assert copied == public_urls(world).service_api, f"the clipboard holds {copied!r}"


@then("the clipboard holds the web app URL")
def step_clipboard_holds_url(context: Context) -> None:
    """The clipboard holds exactly the published web app URL."""
    world: World = context.world
    copied = BrowserPage(world.page).clipboard_text()
    assert copied == public_urls(world).web_app, f"the clipboard holds {copied!r}"


@when("I open the embed dialog")
def step_open_embed(context: Context) -> None:
    """Open the embed dialog of the web app card."""
    _access_point(context.world).web_app.open_embed_dialog()


@then("the embed code is an iframe of the web app URL")
def step_embed_code(context: Context) -> None:
    """The embed code is exactly one empty iframe of the web app URL, titled with the agent's name.

    Compared as parsed (attributes unescaped), so a name with quotes or markup must come back whole."""
    world: World = context.world
    attributes = {"src": public_urls(world).web_app, "title": current_agent(world).name, "style": ANY}
    nodes = _access_point(world).embed_code_nodes("iframe")
    assert nodes == [{"tag": "iframe", "attributes": attributes, "children": 0}], f"the embed code is {nodes}"


@when("I put the embed code on a page of another site and open it")
def step_embed_elsewhere(context: Context) -> None:
    """Open a page of another site (served by the suite) that holds the embed dialog's code.

    The web app's steps then chat in its iframe. Needs the console over https (the deployed lane):
    in a third-party iframe only a Secure, partitioned cookie keeps the visitor.
    """
    world: World = context.world
    assert world.console_url.startswith("https://"), (
        f"the console is at {world.console_url}: an embedded web app keeps its visitor only over https. "
        "Tag the scenario @https and run it in the deployed lane (`make deployed`)."
    )
    code = _access_point(world).embed_code.input_value()
    EmbeddingSite(world.page).open_with(code)


@when("I turn off the web app")
def step_web_app_off(context: Context) -> None:
    """Switch the web app off in the page."""
    _access_point(context.world).web_app.enabled.set_checked(False)


@when("I try to turn off the web app")
def step_try_web_app_off(context: Context) -> None:
    """Click the web app switch once, whatever becomes of it (the console may refuse the change)."""
    _access_point(context.world).web_app.enabled.click()


@when("I turn on the web app")
def step_web_app_on(context: Context) -> None:
    """Switch the web app on in the page."""
    _access_point(context.world).web_app.enabled.set_checked(True)


@step("the console holds the next access change")
def step_hold_access_change(context: Context) -> None:
    """Hold the access point's next switch change open ("the held access change")."""
    world: World = context.world
    world.held["access change"] = _access_point(world).hold_next_access_change(world.settings.timeout_ms)


@step("the console will refuse the next access change")
def step_refuse_access_change(context: Context) -> None:
    """Make the access point's next switch change fail (the page object drops that request)."""
    _access_point(context.world).drop_next_access_change()


@then("the web app switch is off and waiting for the console")
def step_switch_waiting(context: Context) -> None:
    """The switch shows the click (off) but cannot be used until the console answered."""
    switch = _access_point(context.world).web_app.enabled
    expect(switch).not_to_be_checked()
    expect(switch).to_be_disabled()


@then("the web app switch is on")
def step_switch_on(context: Context) -> None:
    """The web app switch is on and can be used."""
    switch = _access_point(context.world).web_app.enabled
    expect(switch).to_be_checked()
    expect(switch).to_be_enabled()


@then("the access point shows the error {string}")
def step_access_error(context: Context, text: str) -> None:
    """The access point explains what it could not do."""
    expect(_access_point(context.world).error).to_contain_text(text)


@when("I turn off the service API")
def step_service_off(context: Context) -> None:
    """Switch the service API off in the page."""
    _access_point(context.world).service_api.enabled.set_checked(False)


@when("I turn on the service API")
def step_service_on(context: Context) -> None:
    """Switch the service API on in the page."""
    _access_point(context.world).service_api.enabled.set_checked(True)


@then("the access point says {string}")
def step_access_says(context: Context, text: str) -> None:
    """The access point shows the text (a state, an explanation)."""
    expect(_access_point(context.world).says(text)).to_be_visible()


@then("opening the web app shows that it is unavailable")
def step_web_app_unavailable(context: Context) -> None:
    """Visiting the web app URL shows that the app is unavailable."""
    expect(_open_web_app_in_new_tab(context.world, 403).unavailable).to_be_visible()


@then("opening the web app shows that it does not exist")
def step_web_app_gone(context: Context) -> None:
    """Visiting the (remembered) web app URL answers 404: there is no web app there any more."""
    expect(_open_web_app_in_new_tab(context.world, 404).not_found).to_be_visible()


@then("opening the web app shows the agent's chat page")
def step_web_app_available(context: Context) -> None:
    """Visiting the web app URL shows the agent's chat page."""
    world: World = context.world
    web_app = _open_web_app_in_new_tab(world, 200)
    expect(web_app.title(current_agent(world).name)).to_be_visible()
    expect(web_app.message_field).to_be_enabled()


@then("the access point shows the service API base URL")
def step_shows_base_url(context: Context) -> None:
    """The service API card shows the console's /v1 base URL."""
    world: World = context.world
    base_url = public_urls(world).service_api
    expect(_access_point(world).card("Service API")).to_contain_text(base_url)


@when("I open the API reference")
def step_open_api_reference(context: Context) -> None:
    """Open the service API reference from the access point."""
    world: World = context.world
    _follow_into_new_tab(world, _access_point(world).service_api.api_reference_link)


@then("I see the service API reference")
def step_see_api_reference(context: Context) -> None:
    """The service API reference page is shown."""
    reference = ApiReferencePage(context.world.page)
    expect(reference.title).to_contain_text("API")
    expect(reference.content).to_contain_text("/v1/chat-messages")
