"""The build assistant's proposals: at most one pending per agent (`build_proposals`), kept until
it is applied to the draft (one saved revision) or discarded. What a proposal names is resolved
when it is shown or applied: a tool or dataset that does not exist is marked unavailable and
applying leaves it out; what a proposal does not name (files, model, parameters) stays as it is.
Skills are added to the draft's, or replace the one of their name: a proposal applied again keeps
one entry per skill."""

from __future__ import annotations

from typing import Literal

from agent_builder.console.db import Database, utc_now
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.agents import AgentConfig, AgentTool, Draft
from agent_builder.console.schemas.build_assistant import (
    DraftProposal,
    Proposal,
    ProposedItem,
    ProposedSkill,
    ProposedSkillFiles,
)
from agent_builder.console.schemas.skills import MAX_SKILLS, Skill
from agent_builder.console.services import agents, env_references, skill_archives
from agent_builder.console.services.decision_model import ask_for_proposal
from agent_builder.console.services.knowledge import list_datasets
from agent_builder.console.services.system_models import decision_endpoint
from agent_builder.console.services.tools import BUILTIN_TOOLS


def propose(db: Database, agent_id: str, description: str) -> Proposal:
    """Ask the decision model and keep its proposal as the agent's pending one (replacing any)."""
    agents.find_draft(db, agent_id)  # 404 before any model call
    endpoint = decision_endpoint(db)
    catalog: dict[str, str] = {tool.name: tool.description for tool in BUILTIN_TOOLS}
    names = sorted({dataset.name for dataset in list_datasets(db)})
    proposal = ask_for_proposal(endpoint, description, catalog, names)
    _check_no_secrets(db, agent_id, proposal)
    for skill in proposal.skills or []:
        _skill_files(skill)  # a skill whose SKILL.md would be refused on upload is refused here
    created_at = utc_now()
    with db.write() as conn:
        conn.execute(
            "INSERT INTO build_proposals (agent_id, description, proposal, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (agent_id) DO UPDATE SET description = excluded.description, "
            "proposal = excluded.proposal, created_at = excluded.created_at",
            (agent_id, description, proposal.model_dump_json(), created_at),
        )
    return _view(db, agents.find_draft(db, agent_id).config, description, proposal, created_at)


def _check_no_secrets(db: Database, agent_id: str, proposal: DraftProposal) -> None:
    """A proposal whose instructions use a secret variable is refused, not kept: applying it could
    only be refused too (agents.write_draft)."""
    if proposal.instructions is None:
        return
    with db.read() as conn:
        secret = env_references.secrets_in(conn, agent_id, proposal.instructions)
    if secret:
        fix = "The proposal was not kept: describe the agent again without {it}."
        raise env_references.refusal(secret, "The proposed instructions", "description", fix)


def pending(db: Database, agent_id: str) -> Proposal | None:
    config = agents.find_draft(db, agent_id).config
    stored = _stored(db, agent_id)
    return None if stored is None else _view(db, config, *stored)


def discard(db: Database, agent_id: str) -> None:
    with db.write() as conn:
        agents.check_agent(conn, agent_id)
        if conn.execute("DELETE FROM build_proposals WHERE agent_id = ?", (agent_id,)).rowcount == 0:
            raise not_found("Pending proposal")


def apply(db: Database, agent_id: str, revision: int) -> Draft:
    """Write the pending proposal into the draft as one revision, if the draft is still at
    `revision` (409 `revision_conflict` otherwise: the proposal stays pending)."""
    draft = agents.find_draft(db, agent_id)
    stored = _stored(db, agent_id)
    if stored is None:
        raise not_found("Pending proposal")
    if draft.revision != revision:
        raise ApiError(
            409,
            "revision_conflict",
            "The draft changed since you reviewed this proposal: review it again before applying.",
            current_revision=draft.revision,
        )
    view = _view(db, draft.config, *stored)
    available = {skill.name for skill in view.skills or [] if skill.available}
    with db.write() as conn:
        skills = [
            skill_archives.store(conn, _skill_files(skill))
            for skill in stored[1].skills or []
            if skill.name in available
        ]
        saved = agents.write_draft(conn, agent_id, revision, applied(draft.config, view, skills))
        conn.execute("DELETE FROM build_proposals WHERE agent_id = ?", (agent_id,))
    return saved


def applied(config: AgentConfig, proposal: Proposal, skills: list[Skill]) -> AgentConfig:
    """`config` with every section the proposal names replaced by its available items, and
    `skills` (the proposal's available ones) each in place of the skill of its name, or last."""
    update: dict[str, object] = {}
    if proposal.instructions is not None:
        update["instructions"] = proposal.instructions
    if proposal.opening_statement is not None:
        update["opening_statement"] = proposal.opening_statement
    if proposal.suggested_questions is not None:
        update["suggested_questions"] = proposal.suggested_questions
    if proposal.tools is not None:
        enabled = _available_ids(proposal.tools)
        kept = [AgentTool(name=tool.name, enabled=tool.name in enabled) for tool in config.tools]
        known = {tool.name for tool in config.tools}
        update["tools"] = kept + [
            AgentTool.model_validate({"name": name}) for name in enabled if name not in known
        ]
    if proposal.knowledge is not None:
        dataset_ids = _available_ids(proposal.knowledge)
        update["knowledge"] = config.knowledge.model_copy(update={"dataset_ids": dataset_ids})
    if skills:
        by_name = {skill.name: skill for skill in skills}
        held = [by_name.pop(skill.name, skill) for skill in config.skills]
        update["skills"] = held + list(by_name.values())
    return AgentConfig.model_validate({**config.model_dump(), **update})


def _available_ids(items: list[ProposedItem]) -> list[str]:
    return list(dict.fromkeys(item.id for item in items if item.available and item.id))


def _stored(db: Database, agent_id: str) -> tuple[str, DraftProposal, str] | None:
    with db.read() as conn:
        row = conn.execute("SELECT * FROM build_proposals WHERE agent_id = ?", (agent_id,)).fetchone()
    if row is None:
        return None
    return row["description"], DraftProposal.model_validate_json(row["proposal"]), row["created_at"]


def _view(
    db: Database, config: AgentConfig, description: str, proposal: DraftProposal, created_at: str
) -> Proposal:
    return Proposal.model_validate(
        {
            "description": description,
            "created_at": created_at,
            "instructions": proposal.instructions,
            "opening_statement": proposal.opening_statement,
            "suggested_questions": proposal.suggested_questions,
            "tools": None if proposal.tools is None else [_tool(name) for name in proposal.tools],
            "knowledge": None if proposal.knowledge is None else _datasets(db, proposal.knowledge),
            "skills": None if proposal.skills is None else _skills(config.skills, proposal.skills),
        }
    )


def _tool(name: str) -> ProposedItem:
    tool = next((tool for tool in BUILTIN_TOOLS if tool.name == name), None)
    if tool is None:
        return ProposedItem(
            name=name, label=name, id=None, available=False, reason=f"No tool named {name!r} exists."
        )
    return ProposedItem(name=name, label=tool.label, id=tool.name, available=True, reason=None)


def _datasets(db: Database, names: list[str]) -> list[ProposedItem]:
    by_name: dict[str, list[str]] = {}
    for dataset in list_datasets(db):
        by_name.setdefault(dataset.name, []).append(dataset.id)
    return [_dataset(name, by_name.get(name, [])) for name in names]


def _dataset(name: str, ids: list[str]) -> ProposedItem:
    if len(ids) == 1:
        return ProposedItem(name=name, label=name, id=ids[0], available=True, reason=None)
    # Two datasets of that name: the assistant cannot tell which one was meant.
    reason = f"{len(ids)} datasets are named {name!r}." if ids else f"No dataset named {name!r} exists."
    return ProposedItem(name=name, label=name, id=None, available=False, reason=reason)


def _skill_files(skill: ProposedSkillFiles) -> dict[str, bytes]:
    files = skill_archives.written(skill.name, skill.description, skill.instructions)
    skill_archives.check_files(files)
    return files


def _skills(held: list[Skill], proposed: list[ProposedSkillFiles]) -> list[ProposedSkill]:
    """What each proposed skill would do to the draft's skills; past MAX_SKILLS, nothing."""
    by_name = {skill.name: skill for skill in held}
    room = MAX_SKILLS - len(held)
    views: list[ProposedSkill] = []
    for skill in proposed:
        made = skill_archives.described(_skill_files(skill))
        current = by_name.get(skill.name)
        change: Literal["new", "replaced", "unchanged"] = (
            "new" if current is None else "unchanged" if current == made else "replaced"
        )
        available = current is not None or room > 0
        room -= change == "new" and available
        reason = None if available else f"An agent can have at most {MAX_SKILLS} skills."
        views.append(
            ProposedSkill(
                name=skill.name,
                description=made.description,
                change=change,
                available=available,
                reason=reason,
            )
        )
    return views
