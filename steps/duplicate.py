"""Duplicating an agent, from the roster or its configure page: what the copy gets, and what it
does not (publication, access, API keys)."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import AgentDetail
from support.api_setup.access import api_keys
from support.api_setup.agents import agent_by_label, current_agent, saved_agent, track_agent_created_in_page
from support.ui.configure import ConfigurePage
from support.ui.duplicate_dialog import DuplicateDialog
from support.world import World

COPY_LABEL = "copy"
NAME_LIMIT = 80  # characters of an agent's name (the console API refuses a longer one)
SUFFIX = " (copy)"


def _suggested(name: str) -> str:
    """The copy's name the dialog suggests: "<name> (copy)", the name shortened so it fits."""
    return f"{name[: NAME_LIMIT - len(SUFFIX)].rstrip()}{SUFFIX}"


def _finish(world: World, dialog: DuplicateDialog, original: AgentDetail) -> None:
    """Confirm, land on the copy's configure page, and make the copy "the agent"."""
    dialog.confirm()
    expect(world.page).not_to_have_url(ConfigurePage.url(original.id))
    expect(world.page).to_have_url(ConfigurePage.url())
    world.agent_builder.configure.agents_by_label["original"] = original
    track_agent_created_in_page(world, ConfigurePage(world.page).agent_id(), COPY_LABEL)


@when("I duplicate the agent from the roster, keeping the suggested name")
def step_duplicate_from_roster(context: Context) -> None:
    """Duplicate the agent from its roster row under the suggested name; the copy becomes "the agent"."""
    world: World = context.world
    original = current_agent(world)
    dialog = DuplicateDialog.open_from_roster(world.page, original.name)
    expect(dialog.name).to_have_value(_suggested(original.name))
    _finish(world, dialog, original)


@when("I duplicate the agent from its configure page as {string}")
def step_duplicate_from_configure(context: Context, label: str) -> None:
    """Duplicate the agent from its configure page under a run-unique name; the copy becomes "the agent"."""
    world: World = context.world
    original = current_agent(world)
    dialog = DuplicateDialog.open_from_configure_page(world.page)
    dialog.name.fill(world.name(label))
    _finish(world, dialog, original)


@when("I click Duplicate on the agent's configure page")
def step_click_duplicate(context: Context) -> None:
    """Click the configure page's Duplicate button, and nothing more (the dialog may not open)."""
    DuplicateDialog.open_from_configure_page(context.world.page)


@then("the Duplicate agent dialog is not open")
def step_duplicate_dialog_closed(context: Context) -> None:
    """No "Duplicate agent" dialog is shown."""
    expect(DuplicateDialog(context.world.page).root).to_be_hidden()


@then("the copy is named {string} after the original")
def step_copy_named(context: Context, suffix: str) -> None:
    """The copy's name is the original's followed by the suffix."""
    world: World = context.world
    copy = current_agent(world)
    assert copy.name == f"{agent_by_label(world, 'original').name}{suffix}", copy.name


@then("the copy's name has {int} characters and ends in {string}")
def step_copy_name_fits(context: Context, length: int, suffix: str) -> None:
    """The copy (console API) is named with exactly that many characters, ending in the suffix."""
    name = current_agent(context.world).name
    assert len(name) == length and name.endswith(suffix), (
        f"the copy is named {name!r} ({len(name)} characters)"
    )


@then("the copy has the original's draft configuration")
def step_copy_has_config(context: Context) -> None:
    """The copy's draft configuration (console API) equals the original's."""
    world: World = context.world
    copy = saved_agent(world)
    original = saved_agent(world, "original")
    assert copy.id != original.id
    assert copy.draft.config == original.draft.config, (copy.draft.config, original.draft.config)


@then("the copy is not published and has no API keys")
def step_copy_unpublished(context: Context) -> None:
    """The copy (console API) has no published version, no access turned on and no API key."""
    world: World = context.world
    copy = saved_agent(world)
    assert copy.published is None, f"the copy has published version v{copy.published.version}"
    assert not copy.access.web_app_enabled and not copy.access.service_api_enabled, copy.access
    assert api_keys(world) == [], "the copy has API keys"


@then("the original is still published with its API key")
def step_original_unchanged(context: Context) -> None:
    """The original (console API) is still published and still has its one API key."""
    world: World = context.world
    assert saved_agent(world, "original").published is not None, "the original lost its publication"
    assert len(api_keys(world, "original")) == 1, "the original lost its API key"
