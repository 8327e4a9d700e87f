"""Scenario-owned agents: the three setup agents, draft changes, and what "the agent" refers to.

"The agent" in later steps is the last agent created (by setup or through the roster); a label
("the agent "helper"") names one of several. Every agent created here is tracked for cleanup.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from support.api.console import ConsoleApiError
from support.api.models import AgentConfig, AgentDetail, AgentModelRef, AgentTool, ChatMessage, Model
from support.api.polling import poll_until
from support.api_setup.tracking import gone_on_404
from support.cleanup import ResourceKind
from support.step_helpers import need
from support.world import PublicUrls, World

BASIC_INSTRUCTIONS = "You are the E2E basic agent. Answer briefly and politely."
RUNNABLE_INSTRUCTIONS = "You are the E2E runnable agent. Answer briefly and use tools when asked."
RUNNABLE_OPENING_STATEMENT = "Hello from the E2E runnable agent."
RUNNABLE_QUESTIONS = ["What can you do?", "Reply with exactly: E2E-SUGGESTED-OK"]
DECISION_INSTRUCTIONS = (
    "You are the E2E decision agent. Plan the steps a task needs, use the enabled tools, "
    "then answer with the result."
)


def track_agent(world: World, agent: AgentDetail, label: str) -> AgentDetail:
    world.track(
        ResourceKind.AGENT, agent.id, gone_on_404(lambda: world.console.delete_agent(agent.id)), agent.name
    )
    return remember_agent(world, agent, label)


def track_agent_created_in_page(world: World, agent_id: str, label: str) -> AgentDetail:
    """Track an agent the page just created (read through the API); it becomes "the agent"."""
    return track_agent(world, world.console.get_agent(agent_id), label)


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


def create_decision_agent(world: World, model: Model) -> AgentDetail:
    """An agent on the decision model with tools to plan with: only for autonomous planning."""
    agent = track_agent(world, world.console.create_agent(world.name("decision agent")), "agent")
    config = AgentConfig(
        instructions=DECISION_INSTRUCTIONS,
        model=AgentModelRef(provider_id=model.provider_id, name=model.name),
        tools=[AgentTool(name="json_replace"), AgentTool(name="sandbox_shell")],
    )
    return remember_agent(world, world.console.save_draft(agent.id, config), "agent")


def current_agent(world: World) -> AgentDetail:
    """What "the agent" refers to, as the scenario last remembered it (created or last changed)."""
    hint = "No agent in this scenario yet: start with an 'agent has been created via API' step."
    return need(world.agent_builder.configure.agent, hint)


def agent_by_label(world: World, label: str) -> AgentDetail:
    hint = f"No agent labelled {label!r} was created in this scenario."
    return need(world.agent_builder.configure.agents_by_label.get(label), hint)


def saved_agent(world: World, label: str | None = None) -> AgentDetail:
    """The agent (or the labelled one) as the console holds it now: the agent detail, the
    persisted public contract a Then asserts (features/README.md, "Assertions users can trust")."""
    agent = current_agent(world) if label is None else agent_by_label(world, label)
    return world.console.get_agent(agent.id)


def agent_is_gone(world: World) -> bool:
    """Whether the console answers 404 for "the agent" (any other refusal is raised)."""
    try:
        saved_agent(world)
    except ConsoleApiError as error:
        if error.status != 404:
            raise
        return True
    return False


def last_preview_reply(world: World, conversation_id: str) -> ChatMessage:
    """The last message the console stored of the agent's preview conversation."""
    messages = world.console.preview_messages(current_agent(world).id, conversation_id).data
    assert messages, f"the console stored no message of the preview conversation {conversation_id}"
    return messages[-1]


def change_draft(world: World, **changes: Any) -> AgentDetail:
    """Save the agent's current draft with `changes` (AgentConfig fields), as another client would."""
    return _save_changed(world, saved_agent(world), **changes)


def enable_tool(world: World, tool: str) -> AgentDetail:
    agent = saved_agent(world)
    others = [t for t in agent.draft.config.tools if t.name != tool]
    # validated: a tool name from a step sentence must be one the console knows
    return _save_changed(
        world, agent, tools=[*others, AgentTool.model_validate({"name": tool, "enabled": True})]
    )


def attach_datasets(world: World, dataset_ids: list[str]) -> AgentDetail:
    """The agent's draft retrieving from exactly these datasets."""
    agent = saved_agent(world)
    knowledge = agent.draft.config.knowledge.model_copy(update={"dataset_ids": dataset_ids})
    return _save_changed(world, agent, knowledge=knowledge)


def _save_changed(world: World, agent: AgentDetail, **changes: Any) -> AgentDetail:
    saved = world.console.save_draft(agent.id, agent.draft.config.model_copy(update=changes))
    return remember_agent(world, saved, "agent")


def publish_agent(world: World) -> AgentDetail:
    world.console.publish_agent(current_agent(world).id)
    published = saved_agent(world)
    remember_public_urls(world, published)
    return remember_agent(world, published, "agent")


def remember_public_urls(world: World, agent: AgentDetail) -> None:
    """Keep a published agent's web app and service API URLs (by agent id)."""
    access = agent.access
    assert access.web_app_url and access.service_api_base_url, (
        f"the agent has no access URLs: publish it first ({access!r})"
    )
    world.agent_builder.access_point.public_urls[agent.id] = PublicUrls(
        access.web_app_url, access.service_api_base_url
    )


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
