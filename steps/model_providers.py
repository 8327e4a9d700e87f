"""Model provider settings: adding providers, validation status, form errors."""

import re

from behave import given, then, when
from behave.runner import Context
from playwright.sync_api import expect

from support.api_setup.fake_provider import KeyQuotingProvider
from support.api_setup.model_providers import add_provider, track_provider_by_name
from support.browser.tone import expect_tone
from support.goldens import check_region
from support.step_helpers import need
from support.ui.model_providers import ModelProvidersPage
from support.world import World


def _provider_name(world: World, label: str) -> str:
    return world.agent_builder.providers.provider_names.setdefault(label, world.name(label))


@when("I open the model provider settings")
def step_open_providers(context: Context) -> None:
    """Open the model provider settings and wait for them to load."""
    context.world.open(ModelProvidersPage.PATH)


@given("a model provider named {string} has been added via API")
def step_provider_via_api(context: Context, label: str) -> None:
    """Add a model provider through the API (setup, tracked for cleanup)."""
    world: World = context.world
    # A provider nothing answers at: setup only needs it listed, never validated.
    add_provider(world, _provider_name(world, label), "http://127.0.0.1:9/v1", "sk-e2e-setup-0000")


@when("I add a provider named {string} with base URL {string} and API key {string}")
def step_add_provider(context: Context, label: str, base_url: str, api_key: str) -> None:
    """Add a provider in the page; its name is run-unique."""
    world: World = context.world
    name = _provider_name(world, label)
    track_provider_by_name(world, name)
    ModelProvidersPage(world.page).add(name, base_url, api_key)


@given("a model provider that refuses every key and quotes it back")
def step_key_quoting_provider(context: Context) -> None:
    """Start a model provider (served by the suite) that refuses every key and quotes it back."""
    world: World = context.world
    provider = KeyQuotingProvider()
    world.register_cleanup(provider.stop, "the key-quoting model provider")
    world.agent_builder.providers.fake_provider_url = provider.url


@when("I add a provider named {string} at that provider with API key {string}")
def step_add_fake_provider(context: Context, label: str, api_key: str) -> None:
    """Add a provider at that provider's URL in the page; its name is run-unique."""
    world: World = context.world
    hint = "start the provider first: 'a model provider that refuses every key ...'"
    url = need(world.agent_builder.providers.fake_provider_url, hint)
    name = _provider_name(world, label)
    track_provider_by_name(world, name)
    ModelProvidersPage(world.page).add(name, url, api_key)


@then("the provider {string}'s card matches the golden {string}")
def step_provider_golden(context: Context, label: str, name: str) -> None:
    """The provider's card reads and looks exactly as its golden files (as a page's main content)."""
    world: World = context.world
    check_region(world.settings, name, ModelProvidersPage(world.page).card(_provider_name(world, label)))


@then("the provider {string} shows the status {string} in the {string} colour")
def step_provider_status(context: Context, label: str, status: str, colour: str) -> None:
    """The provider's row shows the status in this palette colour (`danger`, `success`, ...: support/browser/tone.py)."""
    world: World = context.world
    badge = ModelProvidersPage(world.page).status(_provider_name(world, label))
    expect(badge).to_have_text(status)
    expect_tone(badge, colour)


@then("the provider {string} shows an error")
def step_provider_error(context: Context, label: str) -> None:
    """The provider's row shows its validation error."""
    world: World = context.world
    expect(ModelProvidersPage(world.page).error(_provider_name(world, label))).to_have_text(re.compile(r"\S"))


@then("the provider {string} shows the error {string}")
def step_provider_error_text(context: Context, label: str, text: str) -> None:
    """The provider's row shows a validation error containing the text."""
    world: World = context.world
    expect(ModelProvidersPage(world.page).error(_provider_name(world, label))).to_contain_text(text)


@then("the provider field {string} shows the error {string}")
def step_provider_field_error(context: Context, label: str, text: str) -> None:
    """The add-provider form marks the field invalid and explains why next to it."""
    field = ModelProvidersPage(context.world.page).field(label)
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_accessible_description(re.compile(re.escape(text), re.IGNORECASE))


@then("the provider list does not show {string}")
def step_provider_absent(context: Context, label: str) -> None:
    """The provider list does not show the labelled provider."""
    world: World = context.world
    expect(ModelProvidersPage(world.page).card(_provider_name(world, label))).to_have_count(0)


@then("the console models offer the provider {string} for speech to text")
def step_speech_provider_offered(context: Context, label: str) -> None:
    """The speech-to-text provider choice lists the labelled provider."""
    world: World = context.world
    page = ModelProvidersPage(world.page)
    expect(page.speech_provider_option(_provider_name(world, label))).to_have_count(1)


@then("the console models can be edited and saved")
def step_console_models_usable(context: Context) -> None:
    """The console models form loaded: its model field is editable, Save is enabled, no load error."""
    page = ModelProvidersPage(context.world.page)
    expect(page.speech_model).to_be_editable()
    expect(page.save_console_models).to_be_enabled()
    expect(page.list_error).to_have_count(0)


@then("the console models show the decision model chosen, by its provider and name")
def step_decision_model_chosen(context: Context) -> None:
    """The decision model choice reads "<provider> / <model>" for the seeded decision model."""
    world: World = context.world
    model = need(
        world.agent_builder.seeded.decision_model, "Start with 'Given the decision chat model is available'."
    )
    chosen = ModelProvidersPage(world.page).chosen_decision_model
    expect(chosen).to_have_text(f"{model.provider_name} / {model.name}")
