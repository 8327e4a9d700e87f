"""Files uploaded to the scenario's agent through the API."""

from __future__ import annotations

from support.api.models import AgentFile
from support.api_setup.agents import current_agent
from support.api_setup.tracking import gone_on_404
from support.cleanup import ResourceKind
from support.world import World


def upload_agent_file(world: World, name: str, content: bytes) -> AgentFile:
    agent = current_agent(world)
    uploaded = world.console.upload_agent_file(agent.id, name, content)
    world.track(
        ResourceKind.FILE,
        uploaded.id,
        gone_on_404(lambda: world.console.delete_agent_file(agent.id, uploaded.id)),
        name,
    )
    return uploaded
