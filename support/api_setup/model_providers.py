"""Model providers a scenario adds, through the API or the settings page."""

from __future__ import annotations

from support.world import World


def add_provider(world: World, name: str, base_url: str, api_key: str) -> None:
    world.console.create_provider(name, base_url, api_key)
    track_provider_by_name(world, name)


def track_provider_by_name(world: World, name: str) -> None:
    """Remove the provider called `name` after the scenario, if the scenario managed to create one."""

    def remove() -> None:
        for provider in world.console.list_providers().data:
            if provider.name == name:
                world.console.delete_provider(provider.id)

    world.register_cleanup(remove, f"model provider {name}")
