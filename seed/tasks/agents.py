"""Fixture agents from `seed/data/agents.toml`, published exactly as specified."""

from __future__ import annotations

from seed.tasks import Outcome, SeedContext, Task, find_one
from support.api.models import AgentDetail
from support.seeded.drift import agent_drift, config_differences
from support.seeded.skills import matching_skills
from support.seeded.specs import AgentSpec, agent_specs


def _with_skills(ctx: SeedContext, agent: AgentDetail, spec: AgentSpec) -> AgentDetail:
    """The agent with exactly the spec's skills in its draft: unless they already are, every skill
    is removed and the spec's uploaded again (the console names them by its own archive ids)."""
    if matching_skills(spec, agent.draft.config.skills) is not None:
        return agent
    for skill in agent.draft.config.skills:
        ctx.console.remove_skill(agent.id, skill.name)
    for folder in spec.skills:
        ctx.console.add_skill(agent.id, spec.skill_files(folder))
    return ctx.console.get_agent(agent.id)


def seed_agent(ctx: SeedContext, spec: AgentSpec) -> Outcome:
    existing = find_one(ctx.console.list_agents(spec.name).data, spec.name, "agent")
    model = ctx.models.get(spec.model)
    if model is None or any(key not in ctx.datasets for key in spec.datasets):
        # Only in a dry run: an earlier task would create the model or a dataset first.
        return Outcome(
            "created" if existing is None else "updated",
            f"would seed {spec.name} once its {spec.model} model and datasets exist",
        )
    if existing is None:
        if ctx.dry_run:
            return Outcome("created", f"would create and publish {spec.name}")
        agent = _with_skills(ctx, ctx.console.create_agent(spec.name, spec.description), spec)
        desired = spec.desired_config(model, ctx.datasets, agent.draft.config.skills)
        agent = ctx.console.save_draft(agent.id, desired)
        version = ctx.console.publish_agent(agent.id).version
        return Outcome("created", f"{spec.name} published v{version}")

    agent = ctx.console.get_agent(existing.id)
    if not ctx.dry_run:
        agent = _with_skills(ctx, agent, spec)
    desired = spec.desired_config(model, ctx.datasets, matching_skills(spec, agent.draft.config.skills) or [])
    drift = agent_drift(agent, desired)
    if not drift:
        assert agent.published is not None  # no drift means published
        return Outcome("verified", f"{spec.name} published v{agent.published.version} as specified")
    if ctx.dry_run:
        return Outcome("updated", f"would repair {spec.name}: {'; '.join(drift)}")
    if config_differences(agent.draft.config, desired):
        agent = ctx.console.save_draft(agent.id, desired)
    if agent.published is None or config_differences(agent.published.config, desired):
        version = ctx.console.publish_agent(agent.id).version
        return Outcome("updated", f"{spec.name} repaired ({'; '.join(drift)}), published v{version}")
    return Outcome("updated", f"{spec.name} repaired ({'; '.join(drift)})")


def agent_task(key: str) -> Task:
    spec = agent_specs()[key]
    needs = (f"{spec.model}-model", *spec.datasets)
    return Task(f"{key}-agent", "seed/agents", needs, lambda ctx: seed_agent(ctx, spec))
