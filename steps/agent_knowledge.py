"""Knowledge on the configure page: attaching and detaching the ready knowledge dataset (or the
scenario's own), and what the knowledge section and the draft then hold."""

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import Dataset
from support.api_setup.agents import attach_datasets, saved_agent
from support.step_helpers import need
from support.ui.configure import ConfigurePage
from support.world import World


def _ready_knowledge(world: World) -> Dataset:
    hint = "Resolve the dataset first: 'Given the ready knowledge dataset is available'."
    return need(world.agent_builder.seeded.ready_knowledge, hint)


@given("the ready knowledge dataset has been attached via API")
def step_attach_via_api(context: Context) -> None:
    """Attach the seeded ready-knowledge dataset to the agent through the API (setup)."""
    world: World = context.world
    attach_datasets(world, [_ready_knowledge(world).id])


@given("the dataset has been attached via API")
def step_attach_own_via_api(context: Context) -> None:
    """Attach the scenario's dataset (and only it) to the agent through the API (setup)."""
    world: World = context.world
    dataset = need(
        world.agent_builder.knowledge.dataset, "Create it first: 'a dataset has been created via API'."
    )
    attach_datasets(world, [dataset.id])


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


@then("only the ready knowledge dataset is attached")
def step_dataset_attached(context: Context) -> None:
    """The knowledge section lists the ready-knowledge dataset and no other."""
    world: World = context.world
    configure = ConfigurePage(world.page)
    expect(configure.attached_dataset(_ready_knowledge(world).name)).to_be_visible()
    expect(configure.attached_dataset_rows).to_have_count(1)


@then("no dataset is attached")
def step_no_dataset_attached(context: Context) -> None:
    """The knowledge section says no dataset is attached, and lists none."""
    configure = ConfigurePage(context.world.page)
    expect(configure.no_datasets_attached).to_be_visible()
    expect(configure.attached_dataset_rows).to_have_count(1)


@then("the agent's draft uses the ready knowledge dataset")
def step_draft_uses_dataset(context: Context) -> None:
    """The agent's draft (console API) uses the ready-knowledge dataset."""
    world: World = context.world
    ids = saved_agent(world).draft.config.knowledge.dataset_ids
    assert ids == [_ready_knowledge(world).id], f"the draft's datasets are {ids}"


@then("the agent's draft uses no dataset")
def step_draft_no_dataset(context: Context) -> None:
    """The agent's draft (console API) uses no dataset."""
    ids = saved_agent(context.world).draft.config.knowledge.dataset_ids
    assert not ids, f"the draft still has datasets {ids}"
