"""Tool credentials a scenario adds on the tool settings page."""

from __future__ import annotations

from support.cleanup import ResourceGone, ResourceKind
from support.world import World


def credential_state(world: World, label: str) -> str:
    """The credential state the console's tool list gives the tool shown as `label` (shared
    state: a seeded deployment has a web search credential, a fresh console none)."""
    return next(tool for tool in world.console.list_tools().data if tool.label == label).credential_state


def track_tool_credential_by_name(world: World, name: str) -> None:
    """Remove the credential called `name` after the scenario; none left counts as removed."""

    def remove() -> None:
        matches = [c for c in world.console.list_tool_credentials().data if c.name == name]
        if not matches:
            raise ResourceGone
        for credential in matches:
            world.console.delete_tool_credential(credential.id)

    world.track(ResourceKind.TOOL_CREDENTIAL, name, remove, name)


def add_web_search_credential(world: World, name: str, base_url: str | None) -> None:
    """A web search credential the scenario owns (`name` is made run-unique by the caller)."""
    world.console.create_tool_credential("web_search", name, "e2e-search-secret-0000", base_url)
    track_tool_credential_by_name(world, name)


def web_search_credential_names(world: World) -> list[str]:
    """Every web search credential the console holds (shared state: see `credential_state`)."""
    return [c.name for c in world.console.list_tool_credentials().data if c.tool == "web_search"]
