"""Knowledge on the configure page: attaching and detaching the ready knowledge dataset."""

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import Dataset
from support.api_setup.agents import attach_datasets, current_agent
from support.ui.configure import ConfigurePage
from support.world import World


def _ready_knowledge(world: World) -> Dataset:
    dataset = world.agent_builder.seeded.ready_knowledge
    if dataset is None:
        raise AssertionError("Resolve the dataset first: 'Given the ready knowledge dataset is available'.")
    return dataset


@given("the ready knowledge dataset has been attached via API")
def step_attach_via_api(context: Context) -> None:
    """Attach the seeded ready-knowledge dataset to the agent through the API (setup)."""
    world: World = context.world
    attach_datasets(world, [_ready_knowledge(world).id])


@when("I attach the ready knowledge dataset")
def step_attach_dataset(context: Context) -> None:
    """Attach the seeded ready-knowledge dataset in the configure page."""
    world: World = context.world
    ConfigurePage(world.page).attach_dataset(_ready_knowledge(world).name)


@when("I detach the ready knowledge dataset")
def step_detach_dataset(context: Context) -> None:
    """Detach the ready-knowledge dataset in the configure page."""
    world: World = context.world
    ConfigurePage(world.page).detach_dataset(_ready_knowledge(world).name)


@then("the ready knowledge dataset is attached")
def step_dataset_attached(context: Context) -> None:
    """The knowledge section lists the ready-knowledge dataset."""
    world: World = context.world
    expect(ConfigurePage(world.page).attached_dataset(_ready_knowledge(world).name)).to_be_visible()


@then("the agent's draft uses the ready knowledge dataset")
def step_draft_uses_dataset(context: Context) -> None:
    """The agent's draft (console API) uses the ready-knowledge dataset."""
    world: World = context.world
    ids = world.console.get_agent(current_agent(world).id).draft.config.knowledge.dataset_ids
    assert ids == [_ready_knowledge(world).id], f"the draft's datasets are {ids}"


@then("the agent's draft uses no dataset")
def step_draft_no_dataset(context: Context) -> None:
    """The agent's draft (console API) uses no dataset."""
    world: World = context.world
    ids = world.console.get_agent(current_agent(world).id).draft.config.knowledge.dataset_ids
    assert not ids, f"the draft still has datasets {ids}"
