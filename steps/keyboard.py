"""Keyboard use (@keyboard): keys pressed, where the focus is and that it shows, modal dialogs that
keep the focus, close with Escape and give it back, and chat controls while a reply streams.

Every sentence here needs @keyboard (support/tags.py, KEYBOARD_USE), so each keyboard scenario is
in the a11y lane (or, when it chats or needs seeded models, in post-merge with its @keyboard)."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import Locator, expect

from support.api_setup.agents import track_agent_created_in_page
from support.browser.loading import wait_until_loaded
from support.tags import KEYBOARD_USE
from support.ui.configure import ConfigurePage
from support.ui.keyboard import KeyboardUser
from support.ui.preview import PreviewPane
from support.ui.web_app import WebAppPage
from support.world import World


def _keyboard(context: Context) -> KeyboardUser:
    world: World = context.world
    return KeyboardUser(world.page)


@when("I press {key}")
@KEYBOARD_USE
def step_press(context: Context, key: str) -> None:
    """Press one key: Tab, Shift+Tab, Enter, Space or Escape."""
    _keyboard(context).press(key)


@when("I press {key} until the {role} {string} is focused")
@KEYBOARD_USE
def step_press_until_focused(context: Context, key: str, role: str, name: str) -> None:
    """Press Tab (or Shift+Tab) until the named control has the focus; fails with the path taken."""
    _keyboard(context).press_until_focused(key, role, name)


@when("I type {string} into the focused field")
@KEYBOARD_USE
def step_type(context: Context, text: str) -> None:
    """Type the text, key by key, into whatever has the focus."""
    _keyboard(context).type(text)


@then("the {role} {string} is focused")
@KEYBOARD_USE
def step_focused(context: Context, role: str, name: str) -> None:
    """The named control has the focus (waiting for it, as focus may move once a request ends)."""
    keyboard = _keyboard(context)
    control = keyboard.control(role, name)
    expect(control.first).to_be_visible()
    try:
        expect(keyboard.focused_control(role, name)).to_have_count(1)
    except AssertionError:
        raise AssertionError(
            f'the {role} "{name}" is not focused; {keyboard.focused_description()} is'
        ) from None


@then("the focus is visible")
@KEYBOARD_USE
def step_focus_visible(context: Context) -> None:
    """The focused element matches :focus-visible and draws an outline or a shadow for it."""
    keyboard = _keyboard(context)
    shown = keyboard.focus_indicator()
    described = keyboard.focused_description()
    assert shown["focused"], "nothing has the focus: a keyboard user does not know where they are"
    assert shown["focusVisible"], f"{described} has the focus but does not match :focus-visible"
    assert shown["outline"] or shown["shadow"], f"{described} shows no focus indicator ({shown['style']})"


@then("the {string} dialog is open with the focus inside it")
@KEYBOARD_USE
def step_dialog_open_with_focus(context: Context, name: str) -> None:
    """The named modal dialog shows and one of its controls has the focus."""
    keyboard = _keyboard(context)
    dialog = keyboard.dialog(name)
    expect(dialog).to_be_visible()
    expect(keyboard.focus_within(dialog)).to_have_count(1)


@then("Tab and Shift+Tab keep the focus inside the {string} dialog")
@KEYBOARD_USE
def step_dialog_traps_focus(context: Context, name: str) -> None:
    """Going round the dialog twice each way never focuses the page behind it."""
    keyboard = _keyboard(context)
    dialog = keyboard.dialog(name)
    expect(dialog).to_be_visible()
    escaped = keyboard.tab_around(dialog)
    assert not escaped, f'focus left the "{name}" dialog for the page behind it: ' + "; ".join(escaped)


@then("the {string} dialog is closed")
@KEYBOARD_USE
def step_dialog_closed(context: Context, name: str) -> None:
    """The named dialog no longer shows."""
    expect(_keyboard(context).dialog(name)).to_be_hidden()


def _expect_all(suggestions: Locator, enabled: bool) -> None:
    expect(suggestions.first).to_be_visible()
    for index in range(suggestions.count()):
        question = suggestions.nth(index)
        expect(question).to_be_enabled() if enabled else expect(question).to_be_disabled()


@then("the web app's suggested questions are disabled")
@KEYBOARD_USE
def step_web_app_suggestions_disabled(context: Context) -> None:
    """Every suggested question of the web app is disabled (a reply is in progress)."""
    _expect_all(WebAppPage(context.world.page).suggestions, enabled=False)


@then("the web app's suggested questions are enabled")
@KEYBOARD_USE
def step_web_app_suggestions_enabled(context: Context) -> None:
    """Every suggested question of the web app can be pressed again."""
    _expect_all(WebAppPage(context.world.page).suggestions, enabled=True)


@then("the preview's suggested questions are disabled")
@KEYBOARD_USE
def step_preview_suggestions_disabled(context: Context) -> None:
    """Every suggested question of the preview is disabled (a reply is in progress)."""
    _expect_all(PreviewPane(context.world.page).suggestions, enabled=False)


@then("the preview's suggested questions are enabled")
@KEYBOARD_USE
def step_preview_suggestions_enabled(context: Context) -> None:
    """Every suggested question of the preview can be pressed again."""
    _expect_all(PreviewPane(context.world.page).suggestions, enabled=True)


@when("I type the name of a new agent {string} into the focused field")
@KEYBOARD_USE
def step_type_new_agent_name(context: Context, label: str) -> None:
    """Type a run-unique agent name for the label, key by key, into whatever has the focus."""
    world: World = context.world
    _keyboard(context).type(world.name(label))


@then("the new agent {string} opens on its configure page")
@KEYBOARD_USE
def step_new_agent_opens(context: Context, label: str) -> None:
    """The agent just created in the page opens on its configure page; it becomes "the agent"."""
    world: World = context.world
    expect(world.page).to_have_url(ConfigurePage.url())
    wait_until_loaded(world.page)
    track_agent_created_in_page(world, ConfigurePage(world.page).agent_id(), label)
