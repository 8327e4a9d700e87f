"""The scenario agent's environment variables through the API (they go with the agent)."""

from __future__ import annotations

from support.api.models import EnvVar
from support.api_setup.agents import current_agent
from support.world import World


def add_env_var(world: World, name: str, value: str, *, secret: bool = False) -> EnvVar:
    return world.console.create_env_var(current_agent(world).id, name, value, secret)


def env_vars(world: World) -> dict[str, EnvVar]:
    """The agent's variables by name, as the API shows them (secret values never included)."""
    return {item.name: item for item in world.console.list_env_vars(current_agent(world).id).data}
