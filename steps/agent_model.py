"""The model picker on the configure page: offered models, the selected one, the draft's model."""

from behave import then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api.models import Model
from support.api_setup.agents import saved_agent
from support.step_helpers import need
from support.ui.configure import ConfigurePage
from support.world import World


@then("the model picker shows {string}")
def step_model_picker_shows(context: Context, option: str) -> None:
    """The model picker's selected model reads the option."""
    expect(ConfigurePage(context.world.page).selected_model).to_have_text(option)


def _stable_model(world: World) -> Model:
    hint = "Resolve the stable model first: 'Given the stable chat model is available'."
    return need(world.agent_builder.seeded.stable_model, hint)


def _model_label(model: Model) -> str:
    return f"{model.provider_name} / {model.name}"


@then("the model picker offers the stable model")
def step_picker_offers_stable(context: Context) -> None:
    """The model picker offers the seeded stable model."""
    world: World = context.world
    offered = ConfigurePage(world.page).model_option(_model_label(_stable_model(world)))
    expect(offered).to_have_count(1)


@when("I select the stable model")
def step_select_stable(context: Context) -> None:
    """Select the seeded stable model in the model picker."""
    world: World = context.world
    ConfigurePage(world.page).model.select_option(label=_model_label(_stable_model(world)))


@then("the model picker shows the stable model")
def step_picker_shows_stable(context: Context) -> None:
    """The model picker shows the stable model as selected."""
    world: World = context.world
    expect(ConfigurePage(world.page).selected_model).to_have_text(_model_label(_stable_model(world)))


@then("the agent's draft uses the stable model")
def step_draft_uses_stable(context: Context) -> None:
    """The agent's draft (console API) uses the stable model."""
    world: World = context.world
    model = _stable_model(world)
    chosen = saved_agent(world).draft.config.model
    assert chosen is not None and (chosen.provider_id, chosen.name) == (model.provider_id, model.name), chosen
