"""The fixture steps: check a seeded resource (or the runtime backend) through support/seeded/ and
keep it in `world.agent_builder.seeded`. A missing, inactive, unindexed or drifted resource fails
the scenario with its owner and remediation; it never skips. The texts are `support/tags.py`'s."""

from behave import given
from behave.runner import Context

from support.seeded.agents import seeded_agent
from support.seeded.knowledge import seeded_dataset
from support.seeded.models import seeded_model
from support.seeded.runtime import agent_backend
from support.seeded.speech import seeded_speech_to_text_model
from support.seeded.tools import seeded_web_search_credential
from support.world import World


@given("the stable chat model is available")
def step_stable_model(context: Context) -> None:
    """Resolve the seeded stable chat model; fails with the seed command when missing."""
    world: World = context.world
    world.agent_builder.seeded.stable_model = seeded_model(world.console, world.settings, "stable")


@given("the decision chat model is available")
def step_decision_model(context: Context) -> None:
    """Resolve the seeded decision chat model; fails with the seed command when missing."""
    world: World = context.world
    world.agent_builder.seeded.decision_model = seeded_model(world.console, world.settings, "decision")


@given("the speech-to-text model is available")
def step_speech_to_text_model(context: Context) -> None:
    """Resolve the seeded speech-to-text model; fails with the seed command when missing."""
    world: World = context.world
    model = seeded_speech_to_text_model(world.console, world.settings)
    world.agent_builder.seeded.speech_to_text_model = model


@given("the ready knowledge dataset is available")
def step_ready_knowledge(context: Context) -> None:
    """Resolve the seeded ready-knowledge dataset (indexed, with its tokens)."""
    world: World = context.world
    world.agent_builder.seeded.ready_knowledge = seeded_dataset(world.console, "ready-knowledge")


@given("the web search tool credential is available")
def step_web_search_credential(context: Context) -> None:
    """Resolve the seeded web-search credential, pointing where this run searches."""
    world: World = context.world
    seeded_web_search_credential(world.console, world.settings)  # no step reads it: only that it is there


def _resolve_seeded_agent(context: Context, key: str) -> None:
    world: World = context.world
    world.agent_builder.seeded.agents[key] = seeded_agent(world.console, world.settings, key)


@given("the full config agent is available")
def step_full_config_agent(context: Context) -> None:
    """Resolve the seeded full-config agent, exactly as specified."""
    _resolve_seeded_agent(context, "full-config")


@given("the tool states agent is available")
def step_tool_states_agent(context: Context) -> None:
    """Resolve the seeded tool-states agent, exactly as specified."""
    _resolve_seeded_agent(context, "tool-states")


@given("the dual retrieval agent is available")
def step_dual_retrieval_agent(context: Context) -> None:
    """Resolve the seeded dual-retrieval agent, exactly as specified."""
    _resolve_seeded_agent(context, "dual-retrieval")


@given("the skill fixture agent is available")
def step_skill_agent(context: Context) -> None:
    """Resolve the seeded skill agent, exactly as specified (its skills too)."""
    _resolve_seeded_agent(context, "skill")


@given("the agent runtime backend is available")
def step_agent_backend(context: Context) -> None:
    """Probe the runtime (and shellctl); fails with owner e2e/runtime and the fix."""
    world: World = context.world
    world.agent_builder.seeded.agent_backend = agent_backend(world.settings)
