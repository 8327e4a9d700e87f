"""The scenario agent's published versions through the API: publishing with a note, and
restoring a version into the draft as another client would."""

from __future__ import annotations

from support.api_setup.agents import current_agent, remember_agent, saved_agent
from support.world import World


def publish_with_note(world: World, note: str) -> None:
    world.console.publish_agent(current_agent(world).id, note)
    remember_agent(world, saved_agent(world), "agent")


def restore_version(world: World, version: int) -> None:
    world.console.restore_version(current_agent(world).id, version)
    remember_agent(world, saved_agent(world), "agent")
