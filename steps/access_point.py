"""The access point page (the web app and service API cards, their switches, the API reference
link) and the same access switches set through the API."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import Locator, Page, expect

from support.api_setup.access import published_access
from support.api_setup.agents import current_agent
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


def _access(world: World) -> AccessPage:
    return AccessPage(world.page)


def _follow_into_new_tab(world: World, link: Locator) -> None:
    """Click a target=_blank link; later steps act on the tab it opens."""
    with world.page.expect_popup() as popup:
        link.click()
    world.page = popup.value


@given("the agent's web app has been disabled via API")
def step_web_app_disabled_via_api(context: Context) -> None:
    world: World = context.world
    world.console.set_access(current_agent(world).id, web_app_enabled=False)


@when("I open the web app from the access point")
def step_open_web_app(context: Context) -> None:
    world: World = context.world
    _follow_into_new_tab(world, _access(world).card("Web app").get_by_role("link", name="Open web app"))


@when("I copy the web app URL")
def step_copy_url(context: Context) -> None:
    world: World = context.world
    _access(world).card("Web app").get_by_role("button", name="Copy URL").click()


@then('the access point confirms "{text}"')
def step_access_confirms(context: Context, text: str) -> None:
    world: World = context.world
    expect(_access(world).card("Web app").get_by_text(text, exact=True)).to_be_visible()


@then("the clipboard holds the web app URL")
def step_clipboard_holds_url(context: Context) -> None:
    world: World = context.world
    copied = world.page.evaluate("navigator.clipboard.readText()")
    assert copied == published_access(world).web_app_url, f"the clipboard holds {copied!r}"


@when("I open the embed dialog")
def step_open_embed(context: Context) -> None:
    world: World = context.world
    _access(world).card("Web app").get_by_role("button", name="Embed").click()


@then("the embed code is an iframe of the web app URL")
def step_embed_code(context: Context) -> None:
    world: World = context.world
    dialog = world.page.get_by_role("dialog", name="Embed the web app")
    code = dialog.get_by_label("Embed code", exact=True)
    expect(code).to_have_value(
        re.compile(r'^<iframe src="' + re.escape(published_access(world).web_app_url or ""))
    )


def _switch(world: World, card: str, label: str, on: bool) -> None:
    checkbox = _access(world).card(card).get_by_role("checkbox", name=label, exact=True)
    checkbox.set_checked(on)


@when("I turn off the web app")
def step_web_app_off(context: Context) -> None:
    _switch(context.world, "Web app", "Web app enabled", False)


@when("I turn on the web app")
def step_web_app_on(context: Context) -> None:
    _switch(context.world, "Web app", "Web app enabled", True)


@when("I turn off the service API")
def step_service_off(context: Context) -> None:
    _switch(context.world, "Service API", "Service API enabled", False)


@when("I turn on the service API")
def step_service_on(context: Context) -> None:
    _switch(context.world, "Service API", "Service API enabled", True)


@then('the access point says "{text}"')
def step_access_says(context: Context, text: str) -> None:
    world: World = context.world
    expect(world.page.get_by_text(text, exact=True)).to_be_visible()


def _open_web_app_in_new_tab(world: World) -> tuple[Page, int]:
    page = world.browser_context.new_page()
    response = page.goto(published_access(world).web_app_url or "")
    assert response is not None
    return page, response.status


@then("opening the web app shows that it is unavailable")
def step_web_app_unavailable(context: Context) -> None:
    world: World = context.world
    page, status = _open_web_app_in_new_tab(world)
    assert status == 403, f"the web app answered {status}"
    expect(page.get_by_role("heading", name="This web app is unavailable")).to_be_visible()


@then("opening the web app shows the agent's chat page")
def step_web_app_available(context: Context) -> None:
    world: World = context.world
    page, status = _open_web_app_in_new_tab(world)
    assert status == 200, f"the web app answered {status}"
    expect(page.get_by_role("heading", name=current_agent(world).name, exact=True)).to_be_visible()
    expect(page.get_by_label("Message", exact=True)).to_be_enabled()


@then("the access point shows the service API base URL")
def step_shows_base_url(context: Context) -> None:
    world: World = context.world
    base_url = published_access(world).service_api_base_url or ""
    expect(_access(world).card("Service API")).to_contain_text(base_url)


@when("I open the API reference")
def step_open_api_reference(context: Context) -> None:
    world: World = context.world
    _follow_into_new_tab(world, _access(world).card("Service API").get_by_role("link", name="API reference"))


@then("I see the service API reference")
def step_see_api_reference(context: Context) -> None:
    world: World = context.world
    expect(world.page.get_by_role("heading", level=1)).to_contain_text("API")
    expect(world.page.locator("body")).to_contain_text("/v1/chat-messages")


@given("the agent's service API has been disabled via API")
def step_service_disabled(context: Context) -> None:
    world: World = context.world
    world.console.set_access(current_agent(world).id, service_api_enabled=False)


@when("the agent's service API is enabled again via API")
def step_service_enabled(context: Context) -> None:
    world: World = context.world
    world.console.set_access(current_agent(world).id, service_api_enabled=True)
