"""Duplicating an agent, from the roster or its configure page: what the copy gets, and what it
does not (publication, access, API keys)."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import AgentDetail
from support.api_setup.agents import agent_by_label, current_agent, track_agent
from support.ui.configure import ConfigurePage
from support.ui.duplicate_dialog import DuplicateDialog
from support.world import World

COPY_LABEL = "copy"


def _finish(world: World, dialog: DuplicateDialog, original: AgentDetail) -> None:
    """Confirm, land on the copy's configure page, and make the copy "the agent"."""
    dialog.confirm()
    expect(world.page).not_to_have_url(ConfigurePage.url(original.id))
    expect(world.page).to_have_url(ConfigurePage.url())
    copy = world.console.get_agent(ConfigurePage(world.page).agent_id())
    world.agent_builder.configure.agents_by_label["original"] = original
    track_agent(world, copy, COPY_LABEL)


@when("I duplicate the agent from the roster, keeping the suggested name")
def step_duplicate_from_roster(context: Context) -> None:
    world: World = context.world
    original = current_agent(world)
    dialog = DuplicateDialog.open_from_roster(world.page, original.name)
    expect(dialog.name).to_have_value(f"{original.name} (copy)")
    _finish(world, dialog, original)


@when("I duplicate the agent from its configure page as {string}")
def step_duplicate_from_configure(context: Context, label: str) -> None:
    world: World = context.world
    original = current_agent(world)
    dialog = DuplicateDialog.open_from_configure_page(world.page)
    dialog.name.fill(world.name(label))
    _finish(world, dialog, original)


@then("the copy is named {string} after the original")
def step_copy_named(context: Context, suffix: str) -> None:
    world: World = context.world
    copy = current_agent(world)
    assert copy.name == f"{agent_by_label(world, 'original').name}{suffix}", copy.name


@then("the copy has the original's draft configuration")
def step_copy_has_config(context: Context) -> None:
    world: World = context.world
    copy = world.console.get_agent(current_agent(world).id)
    original = world.console.get_agent(agent_by_label(world, "original").id)
    assert copy.id != original.id
    assert copy.draft.config == original.draft.config, (copy.draft.config, original.draft.config)


@then("the copy is not published and has no API keys")
def step_copy_unpublished(context: Context) -> None:
    world: World = context.world
    copy = world.console.get_agent(current_agent(world).id)
    assert copy.published is None, f"the copy has published version v{copy.published.version}"
    assert not copy.access.web_app_enabled and not copy.access.service_api_enabled, copy.access
    assert world.console.list_api_keys(copy.id).data == [], "the copy has API keys"


@then("the original is still published with its API key")
def step_original_unchanged(context: Context) -> None:
    world: World = context.world
    original = agent_by_label(world, "original")
    assert world.console.get_agent(original.id).published is not None, "the original lost its publication"
    assert len(world.console.list_api_keys(original.id).data) == 1, "the original lost its API key"
