"""The web app's settings (the access point's dialog, the draft's settings, what the published
web app shows of them), the embed dialog's chat button script, and where the publish bar points
after the first publish."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.access import public_urls
from support.api_setup.agents import current_agent, saved_agent
from support.api_setup.moderation import save_web_app_settings, web_app_settings_as_read
from support.step_helpers import data_table
from support.ui.access_point import AccessPointPage
from support.ui.browser_page import BrowserPage
from support.ui.embedding_site import EmbeddingSite
from support.ui.publish_bar import PublishBar
from support.ui.web_app import WebAppPage
from support.ui.web_app_settings import WebAppSettingsDialog
from support.world import World

# How the browser draws each colour of the web app (console.css, .web-app-color-<name>).
COLOUR_RGB = {
    "Blue": "rgb(31, 95, 191)",
    "Green": "rgb(23, 112, 58)",
    "Purple": "rgb(109, 63, 192)",
    "Orange": "rgb(168, 75, 6)",
    "Red": "rgb(180, 35, 24)",
    "Teal": "rgb(15, 110, 110)",
    "Gray": "rgb(75, 85, 99)",
}


def _settings_table(context: Context) -> dict[str, str]:
    return {row["setting"]: row["value"] for row in data_table(context)}


def _dialog(world: World) -> WebAppSettingsDialog:
    return WebAppSettingsDialog(world.page)


@given("the agent's web app settings have been saved via API:")
def step_settings_via_api(context: Context) -> None:
    """Save these web app settings into the draft (the others default), as the dialog would (setup)."""
    save_web_app_settings(context.world, _settings_table(context))


@when("I open the web app settings")
def step_open_settings(context: Context) -> None:
    """Press the web app card's Settings button; the dialog opens."""
    world: World = context.world
    AccessPointPage(world.page).web_app.settings_button.click()
    expect(_dialog(world).root).to_be_visible()


@when("I fill in the web app settings:")
def step_fill_settings(context: Context) -> None:
    """Type each setting (or choose it, for the colour and the language) in the dialog."""
    dialog = _dialog(context.world)
    for label, value in _settings_table(context).items():
        dialog.fill(label, value)


@when("I save the web app settings")
def step_save_settings(context: Context) -> None:
    """Press Save in the web app settings dialog."""
    _dialog(context.world).save()


@then("the web app settings dialog is closed")
def step_dialog_closed(context: Context) -> None:
    """The dialog is gone from the page."""
    expect(_dialog(context.world).root).to_be_hidden()


@then("the web app settings dialog shows:")
def step_dialog_shows(context: Context) -> None:
    """Every setting of the dialog shows exactly this (all seven, in the table)."""
    dialog = _dialog(context.world)
    expected = _settings_table(context)
    shown = {label: dialog.shown(label) for label in expected}
    assert shown == expected, f"the dialog shows {shown}"


@then("the web app setting {string} says {string}")
def step_setting_says(context: Context, label: str, message: str) -> None:
    """The dialog's field is invalid and says why; the dialog stays open."""
    field = _dialog(context.world).field(label)
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(re.compile(re.escape(message) + "$"))


@then("the agent's draft web app settings are exactly:")
def step_draft_settings(context: Context) -> None:
    """The saved draft's web app settings (console API): all seven, exactly as the table says."""
    read = web_app_settings_as_read(saved_agent(context.world))
    assert read == _settings_table(context), f"the draft's web app settings are {read}"


@then("the web app presents itself as:")
def step_web_app_presents(context: Context) -> None:
    """The published web app shows each setting as a visitor sees it.

    Its title, description, icon and the icon's colour, copyright, privacy policy link, the page's
    language and its Send button's word.
    """
    web_app = WebAppPage(context.world.page)
    expected = _settings_table(context)
    expect(web_app.heading()).to_have_text(expected["title"])
    expect(web_app.says(expected["description"])).to_be_visible()
    expect(web_app.icon).to_have_text(expected["icon"])
    assert web_app.icon_colour() == COLOUR_RGB[expected["colour"]], (
        f"the icon is drawn in {web_app.icon_colour()}"
    )
    expect(web_app.says(expected["copyright"])).to_be_visible()
    link = web_app.link(expected["privacy policy link text"])
    expect(link).to_have_attribute("href", expected["privacy policy link"])
    assert web_app.language() == expected["language"], f"the page says it is in {web_app.language()!r}"
    expect(web_app.send_button_named(expected["send button"])).to_be_visible()


@when("I choose to embed a chat button")
def step_choose_script(context: Context) -> None:
    """In the embed dialog, choose the chat button script instead of the inline frame."""
    AccessPointPage(context.world.page).choose_embed("Chat button (script)")


@then("the embed code is the chat button script of the web app URL")
def step_script_code(context: Context) -> None:
    """The code is exactly one empty, deferred script of embed.js with the web app URL and agent name.

    Compared as parsed (attributes unescaped), so a name with quotes or markup must come back whole."""
    world: World = context.world
    url = public_urls(world).web_app
    attributes = {
        "src": f"{url.split('/chat/')[0]}/static/embed.js",
        "data-web-app-url": url,
        "data-title": current_agent(world).name,
        "defer": "",
    }
    nodes = AccessPointPage(world.page).embed_code_nodes("script")
    assert nodes == [{"tag": "script", "attributes": attributes, "children": 0}], f"the embed code is {nodes}"


@then("the embed dialog says {string}")
def step_embed_says(context: Context, text: str) -> None:
    """The embed dialog shows exactly this line, e.g. where the snippet goes."""
    expect(AccessPointPage(context.world.page).embed_says(text)).to_be_visible()


@when("I copy the embed code")
def step_copy_embed_code(context: Context) -> None:
    """Press the embed dialog's Copy code button."""
    AccessPointPage(context.world.page).copy_embed_code()


@then("the embed dialog confirms the copy and the clipboard holds the code it shows")
def step_embed_copied(context: Context) -> None:
    """The dialog says "Copied", and the clipboard holds exactly the code in the dialog."""
    access = AccessPointPage(context.world.page)
    expect(access.embed_copied).to_be_visible()
    copied = BrowserPage(context.world.page).clipboard_text()
    assert copied == access.embed_code.input_value(), f"the clipboard holds {copied!r}"


@when("I open the chat button on the page of another site")
def step_open_chat_button(context: Context) -> None:
    """Press the button the chat button script added to the other site's page; the web app opens."""
    world: World = context.world
    EmbeddingSite(world.page).chat_button(current_agent(world).name).click()


@then("the publish bar links to the web app, the API reference and the embed dialog")
def step_guidance_links(context: Context) -> None:
    """After the first publish the bar says the agent is live, with exactly three links.

    Its web app, the service API's reference and the access point's embed dialog, in that order.
    """
    world: World = context.world
    bar = PublishBar(world.page)
    expect(bar.guidance).to_be_visible()
    names = ["Open the web app", "API reference", "Embed it in your site"]
    expect(bar.guidance_links).to_have_text(names)
    agent = saved_agent(world)
    hrefs = [agent.access.web_app_url, agent.access.api_reference_url, f"/agents/{agent.id}/access#embed"]
    for name, href in zip(names, hrefs, strict=True):
        expect(bar.guidance_link(name)).to_have_attribute("href", href)


@then("the publish bar shows no first-publish links")
def step_no_guidance(context: Context) -> None:
    """The bar has no "Your agent is live" links (the agent was published before)."""
    expect(PublishBar(context.world.page).guidance).to_be_hidden()


@when("I follow the publish bar's link to embed the web app")
def step_follow_embed(context: Context) -> None:
    """Follow the "Embed it in your site" link of the first-publish links."""
    PublishBar(context.world.page).guidance_link("Embed it in your site").click()


@then("the access point's embed dialog is open")
def step_embed_dialog_open(context: Context) -> None:
    """The agent's access point shows, its embed dialog open on the inline frame of the web app URL."""
    world: World = context.world
    access_point = AccessPointPage(world.page)
    access_path = AccessPointPage.path(current_agent(world).id)
    expect(world.page).to_have_url(re.compile(re.escape(access_path) + "#embed$"))
    expect(access_point.embed_dialog).to_be_visible()
    iframe = (
        f'<iframe src="{public_urls(world).web_app}" title="{current_agent(world).name}"'
        ' style="width: 100%; height: 100%; min-height: 700px; border: 0"></iframe>'
    )
    expect(access_point.embed_code).to_have_value(iframe)
