"""Fixture resolution: verify a seeded resource (or the runtime backend) and store it in
`world.agent_builder.fixtures`. A missing, inactive, unindexed or drifted fixture fails the
scenario with its owner and remediation; it never skips. The texts are `support/tags.py`'s."""

from behave import given
from behave.runner import Context

from support.fixtures.agents import fixture_agent
from support.fixtures.knowledge import fixture_dataset
from support.fixtures.models import fixture_model
from support.fixtures.runtime import agent_backend
from support.fixtures.speech import fixture_speech_to_text_model
from support.fixtures.tools import fixture_web_search_credential
from support.world import World


@given("the stable chat model is available")
def step_stable_model(context: Context) -> None:
    """Resolve the seeded stable chat model; fails with the seed command when missing."""
    world: World = context.world
    world.agent_builder.fixtures.stable_model = fixture_model(world.console, world.settings, "stable")


@given("the decision chat model is available")
def step_decision_model(context: Context) -> None:
    """Resolve the seeded decision chat model; fails with the seed command when missing."""
    world: World = context.world
    world.agent_builder.fixtures.decision_model = fixture_model(world.console, world.settings, "decision")


@given("the speech-to-text model is available")
def step_speech_to_text_model(context: Context) -> None:
    world: World = context.world
    model = fixture_speech_to_text_model(world.console, world.settings)
    world.agent_builder.fixtures.speech_to_text_model = model


@given("the ready knowledge dataset is available")
def step_ready_knowledge(context: Context) -> None:
    """Resolve the seeded ready-knowledge dataset (indexed, with its tokens)."""
    world: World = context.world
    world.agent_builder.fixtures.ready_knowledge = fixture_dataset(world.console, "ready-knowledge")


@given("the web search tool credential is available")
def step_web_search_credential(context: Context) -> None:
    """Resolve the seeded web-search credential, pointing where this run searches."""
    world: World = context.world
    credential = fixture_web_search_credential(world.console, world.settings)
    world.agent_builder.fixtures.web_search_credential = credential


def _resolve_fixture_agent(context: Context, key: str) -> None:
    world: World = context.world
    world.agent_builder.fixtures.fixture_agents[key] = fixture_agent(world.console, world.settings, key)


@given("the full config agent is available")
def step_full_config_agent(context: Context) -> None:
    """Resolve the seeded full-config agent, exactly as specified."""
    _resolve_fixture_agent(context, "full-config")


@given("the tool states agent is available")
def step_tool_states_agent(context: Context) -> None:
    """Resolve the seeded tool-states agent, exactly as specified."""
    _resolve_fixture_agent(context, "tool-states")


@given("the dual retrieval agent is available")
def step_dual_retrieval_agent(context: Context) -> None:
    """Resolve the seeded dual-retrieval agent, exactly as specified."""
    _resolve_fixture_agent(context, "dual-retrieval")


@given("the agent runtime backend is available")
def step_agent_backend(context: Context) -> None:
    """Probe the runtime (and shellctl); fails with owner e2e/runtime and the fix."""
    world: World = context.world
    world.agent_builder.fixtures.agent_backend = agent_backend(world.settings)
