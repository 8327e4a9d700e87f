"""The scenario agent's published versions through the API: publishing with a note, and
restoring a version into the draft as another client would."""

from __future__ import annotations

from support.api_setup.agents import current_agent, remember_agent
from support.world import World


def publish_with_note(world: World, note: str) -> None:
    agent = current_agent(world)
    world.console.publish_agent(agent.id, note)
    remember_agent(world, world.console.get_agent(agent.id), "agent")


def restore_version(world: World, version: int) -> None:
    agent = current_agent(world)
    world.console.restore_version(agent.id, version)
    remember_agent(world, world.console.get_agent(agent.id), "agent")
