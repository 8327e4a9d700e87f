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


def create_basic_agent(
    world: World, label: str = "agent", name_length: int = 0, name_ending: str = ""
) -> AgentDetail:
    """A model-free agent with instructions: what the *basic configured* setup sentence promises.
    `name_length`: its run-unique name padded with "x" to that many characters; `name_ending`:
    words after that name, as a user types them (the run-unique part is a slug)."""
    name = world.name(label).ljust(name_length, "x") + (f" {name_ending}" if name_ending else "")
    agent = world.console.create_agent(name, description="Created by the E2E suite")
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


def delete_agent(world: World) -> None:
    """Delete "the agent" through the console API (its cleanup then finds it gone)."""
    world.console.delete_agent(current_agent(world).id)


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


def disable_tool(world: World, tool: str) -> AgentDetail:
    """The tool kept in the agent's draft, switched off (as the configure page's switch leaves it)."""
    agent = saved_agent(world)
    others = [t for t in agent.draft.config.tools if t.name != tool]
    return _save_changed(
        world, agent, tools=[*others, AgentTool.model_validate({"name": tool, "enabled": False})]
    )


def tool_labels(world: World) -> dict[str, str]:
    """The label the console shows for each tool name (what the configure page's switches read)."""
    return {tool.name: tool.label for tool in world.console.list_tools().data}


def enabled_tool_labels(world: World, agent: AgentDetail) -> list[str]:
    """The labels of the tools the agent's draft enables, in the draft's order."""
    labels = tool_labels(world)
    return [labels.get(tool.name, tool.name) for tool in agent.draft.config.tools if tool.enabled]


# The fields of a draft, as `the agent's draft is exactly:` names them, in the table's order.
DRAFT_FIELDS = (
    "instructions",
    "model",
    "temperature",
    "max tokens",
    "opening statement",
    "suggested questions",
    "enabled tools",
    "datasets",
    "top k",
    "score threshold",
)
LIST_SEPARATOR = " / "


def draft_as_read(world: World, agent: AgentDetail) -> dict[str, str]:
    """The agent's draft, every field as a scenario's table writes it: lists joined by " / ",
    nothing as an empty cell, the seeded stable model as "the stable model", the seeded ready
    knowledge dataset as "the ready knowledge dataset", the scenario's dataset as "the dataset",
    the enabled tools by their labels in alphabetical order."""
    config = agent.draft.config
    unread = _unread_fields(config)
    assert unread == _unread_fields(AgentConfig()), (
        f"the draft has fields the table does not name, changed from their defaults: {unread}; "
        "name them in DRAFT_FIELDS and draft_as_read (support/api_setup/agents.py)"
    )
    return {
        "instructions": config.instructions,
        "model": _model_as_read(world, config.model),
        "temperature": f"{config.parameters.temperature:g}",
        "max tokens": str(config.parameters.max_tokens),
        "opening statement": config.opening_statement,
        "suggested questions": LIST_SEPARATOR.join(config.suggested_questions),
        "enabled tools": LIST_SEPARATOR.join(sorted(enabled_tool_labels(world, agent))),
        "datasets": LIST_SEPARATOR.join(_dataset_as_read(world, id_) for id_ in config.knowledge.dataset_ids),
        "top k": str(config.knowledge.top_k),
        "score threshold": ""
        if config.knowledge.score_threshold is None
        else f"{config.knowledge.score_threshold:g}",
    }


# The AgentConfig fields DRAFT_FIELDS reads (a section's dict: its keys read).
_READ = {
    "instructions": None,
    "model": None,
    "parameters": {"temperature", "max_tokens"},
    "opening_statement": None,
    "suggested_questions": None,
    "tools": None,
    "knowledge": {"dataset_ids", "top_k", "score_threshold"},
}


def _unread_fields(config: AgentConfig) -> dict[str, object]:
    """The draft's fields DRAFT_FIELDS does not read, by dotted name: a field added to the draft
    later must keep its default in a scenario that claims the whole draft, until it is read."""
    unread: dict[str, object] = {}
    for name, value in config.model_dump(mode="json").items():
        read = _READ.get(name, set())
        if read is None:
            continue
        if isinstance(value, dict):
            unread |= {f"{name}.{key}": item for key, item in value.items() if key not in read}
        else:
            unread[name] = value
    return unread


def _model_as_read(world: World, model: AgentModelRef | None) -> str:
    if model is None:
        return ""
    stable = world.agent_builder.seeded.stable_model
    if stable is not None and (model.provider_id, model.name) == (stable.provider_id, stable.name):
        return "the stable model"
    return model.name


def _dataset_as_read(world: World, dataset_id: str) -> str:
    ready = world.agent_builder.seeded.ready_knowledge
    if ready is not None and dataset_id == ready.id:
        return "the ready knowledge dataset"
    own = world.agent_builder.knowledge.dataset
    try:
        name = world.console.get_dataset(dataset_id).name
    except ConsoleApiError as error:
        if error.status != 404:
            raise
        # A draft must never keep a dataset deleted since: this makes the table say so.
        return "the deleted dataset" if own is not None and dataset_id == own.id else "a deleted dataset"
    return "the dataset" if own is not None and dataset_id == own.id else name


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
