"""An agent's knowledge retrieval as scenarios write it: which datasets (scenario-owned ones by
label, the seeded ones by name), the retrieval mode, top K and score threshold; set through the
API, and read back from the agent detail the same way."""

from __future__ import annotations

import re

from support.api.models import AgentDetail, Dataset, KnowledgeSettings
from support.api_setup.agents import remember_agent, saved_agent
from support.api_setup.knowledge import create_dataset
from support.step_helpers import need
from support.world import World

# How a table names each retrieval mode, as the configure page's "Retrieval mode" offers it.
MODES = {
    "when the agent decides": "agent_decided",
    "before every message": "every_message",
}
MODE_OPTIONS = {
    "when the agent decides": "When the agent decides (Knowledge search tool)",
    "before every message": "Before every message",
}
KNOWLEDGE_FIELDS = ("datasets", "retrieval mode", "top k", "score threshold")
READY = "the ready knowledge dataset"
DUAL = "the dual retrieval agent's datasets"
_SEPARATOR = " / "


def mode_option(mode: str) -> str:
    """The option text of the configure page's "Retrieval mode" for a mode as tables write it."""
    assert mode in MODE_OPTIONS, f"unknown retrieval mode {mode!r}: write one of {sorted(MODE_OPTIONS)}"
    return MODE_OPTIONS[mode]


def _seeded_datasets(world: World, item: str) -> list[str]:
    if item == READY:
        ready = need(
            world.agent_builder.seeded.ready_knowledge, "Add 'the ready knowledge dataset is available'."
        )
        return [ready.id]
    dual = need(
        world.agent_builder.seeded.agents.get("dual-retrieval"),
        "Add 'the dual retrieval agent is available'.",
    )
    return list(dual.draft.config.knowledge.dataset_ids)


def set_knowledge(world: World, table: dict[str, str]) -> AgentDetail:
    """Save the agent's draft with the table's knowledge settings (fields it leaves out keep
    their defaults). A dataset the table names by a label of its own is created first."""
    unknown = sorted(set(table) - set(KNOWLEDGE_FIELDS))
    assert not unknown, f"unknown knowledge fields {unknown}: write some of {KNOWLEDGE_FIELDS}"
    dataset_ids: list[str] = []
    for item in filter(None, table.get("datasets", "").split(_SEPARATOR)):
        if item in (READY, DUAL):
            dataset_ids += _seeded_datasets(world, item)
        else:
            dataset_ids.append(create_dataset(world, item).id)
    threshold = table.get("score threshold", "")
    knowledge = KnowledgeSettings(
        dataset_ids=dataset_ids,
        retrieval_mode=MODES[table.get("retrieval mode", "when the agent decides")],  # type: ignore[arg-type]
        top_k=int(table.get("top k", "3")),
        score_threshold=float(threshold) if threshold else None,
    )
    agent = saved_agent(world)
    saved = world.console.save_draft(agent.id, agent.draft.config.model_copy(update={"knowledge": knowledge}))
    return remember_agent(world, saved, "agent")


def _dataset_as_read(world: World, dataset: Dataset) -> str:
    ready = world.agent_builder.seeded.ready_knowledge
    if ready is not None and dataset.id == ready.id:
        return READY
    label = re.fullmatch(r"E2E-[a-z0-9]+-[a-z0-9]+-(.+)-\d+", dataset.name)
    return label[1] if label else dataset.name  # a seeded one by its name


def knowledge_as_read(world: World) -> dict[str, str]:
    """The agent's saved knowledge settings (console API), every field as a table writes it."""
    knowledge = saved_agent(world).draft.config.knowledge
    modes = {value: name for name, value in MODES.items()}
    names = [_dataset_as_read(world, world.console.get_dataset(id_)) for id_ in knowledge.dataset_ids]
    return {
        "datasets": _SEPARATOR.join(names),
        "retrieval mode": modes[knowledge.retrieval_mode],
        "top k": str(knowledge.top_k),
        "score threshold": "" if knowledge.score_threshold is None else f"{knowledge.score_threshold:g}",
    }


def attached_dataset_name(world: World, label: str) -> str:
    """The name the page shows for the agent's attached dataset of that label (or seeded name)."""
    for id_ in saved_agent(world).draft.config.knowledge.dataset_ids:
        dataset = world.console.get_dataset(id_)
        if _dataset_as_read(world, dataset) == label:
            return dataset.name
    raise AssertionError(f"the agent has no attached dataset {label!r}")
