"""API setup of scenario-owned state. Everything created here is tracked for cleanup.

Setup never touches seeded fixtures: it creates its own agents, datasets and files, named with
the run-unique E2E prefix.
"""

from __future__ import annotations

from collections.abc import Callable

from support.api.console import ConsoleApiError
from support.api.models import AgentConfig, AgentDetail, AgentModelRef, Dataset, Document, Model
from support.cleanup import ResourceGone, ResourceKind
from support.polling import poll_until
from support.world import World

BASIC_INSTRUCTIONS = "You are the E2E basic agent. Answer briefly and politely."
RUNNABLE_INSTRUCTIONS = "You are the E2E runnable agent. Answer briefly and use tools when asked."
RUNNABLE_OPENING_STATEMENT = "Hello from the E2E runnable agent."
RUNNABLE_QUESTIONS = ["What can you do?", "Reply with exactly: E2E-SUGGESTED-OK"]


def gone_on_404(action: Callable[[], None]) -> Callable[[], None]:
    def remove() -> None:
        try:
            action()
        except ConsoleApiError as error:
            if error.status == 404:
                raise ResourceGone from error
            raise

    return remove


def track_agent(world: World, agent: AgentDetail, label: str) -> AgentDetail:
    world.track(
        ResourceKind.AGENT, agent.id, gone_on_404(lambda: world.console.delete_agent(agent.id)), agent.name
    )
    return remember_agent(world, agent, label)


def remember_agent(world: World, agent: AgentDetail, label: str) -> AgentDetail:
    """Make `agent` what "the agent" (and its label) refers to in later steps."""
    world.agent_builder.configure.agent = agent
    world.agent_builder.configure.agents_by_label[label] = agent
    return agent


def create_basic_agent(world: World, label: str = "agent") -> AgentDetail:
    """A model-free agent with instructions: what the *basic configured* setup sentence promises."""
    agent = world.console.create_agent(world.name(label), description="Created by the E2E suite")
    track_agent(world, agent, label)
    agent = world.console.save_draft(agent.id, AgentConfig(instructions=BASIC_INSTRUCTIONS))
    return remember_agent(world, agent, label)


def create_runnable_agent(world: World, model: Model, label: str = "agent") -> AgentDetail:
    """An agent on a resolved (seeded) chat model, ready to publish and chat."""
    agent = track_agent(
        world, world.console.create_agent(world.name(label), description="Runnable E2E agent"), label
    )
    config = AgentConfig(
        instructions=RUNNABLE_INSTRUCTIONS,
        model=AgentModelRef(provider_id=model.provider_id, name=model.name),
        opening_statement=RUNNABLE_OPENING_STATEMENT,
        suggested_questions=RUNNABLE_QUESTIONS,
    )
    return remember_agent(world, world.console.save_draft(agent.id, config), label)


def current_agent(world: World) -> AgentDetail:
    agent = world.agent_builder.configure.agent
    if agent is None:
        raise AssertionError(
            "No agent in this scenario yet: start with an 'agent has been created via API' step."
        )
    return agent


def agent_by_label(world: World, label: str) -> AgentDetail:
    try:
        return world.agent_builder.configure.agents_by_label[label]
    except KeyError:
        raise AssertionError(f"No agent labelled {label!r} was created in this scenario.") from None


def track_dataset(world: World, dataset: Dataset) -> Dataset:
    world.track(
        ResourceKind.DATASET,
        dataset.id,
        gone_on_404(lambda: world.console.delete_dataset(dataset.id)),
        dataset.name,
    )
    world.agent_builder.knowledge.dataset = dataset
    return dataset


def create_dataset(world: World, label: str = "dataset") -> Dataset:
    return track_dataset(world, world.console.create_dataset(world.name(label)))


def wait_until_indexed(world: World, document: Document, timeout_s: float = 30.0) -> Document:
    document = poll_until(
        lambda: world.console.get_document(document.dataset_id, document.id),
        lambda current: current.indexing_status in ("completed", "error"),
        timeout_s=timeout_s,
        interval_s=0.1,
        failure=lambda current: f"{current.name} still {current.indexing_status} after {timeout_s:.0f}s",
    )
    if document.indexing_status == "error":
        raise AssertionError(f"Indexing {document.name} failed: {document.error}")
    return document


def wait_for_draft(
    world: World, agent_id: str, predicate: Callable[[AgentDetail], bool], what: str
) -> AgentDetail:
    """Poll the agent detail until the draft satisfies `predicate` (for saves the page sends as it leaves)."""
    return poll_until(
        lambda: world.console.get_agent(agent_id),
        predicate,
        timeout_s=world.settings.timeout_ms / 1000,
        interval_s=0.1,
        failure=lambda agent: f"The draft never got {what}; it has {agent.draft.config!r}",
    )


def track_provider_by_name(world: World, name: str) -> None:
    """Remove the provider called `name` after the scenario, if the scenario managed to create one."""

    def remove() -> None:
        for provider in world.console.list_providers().data:
            if provider.name == name:
                world.console.delete_provider(provider.id)

    world.register_cleanup(remove, f"model provider {name}")


def track_tool_credential_by_name(world: World, name: str) -> None:
    def remove() -> None:
        matches = [c for c in world.console.list_tool_credentials().data if c.name == name]
        if not matches:
            raise ResourceGone
        for credential in matches:
            world.console.delete_tool_credential(credential.id)

    world.track(ResourceKind.TOOL_CREDENTIAL, name, remove, name)
