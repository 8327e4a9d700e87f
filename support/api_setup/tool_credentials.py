"""Tool credentials a scenario adds on the tool settings page."""

from __future__ import annotations

from support.cleanup import ResourceGone, ResourceKind
from support.world import World


def credential_configured(world: World, label: str) -> bool:
    """Whether the console holds a credential for the tool shown as `label` (shared state: a
    seeded deployment has one for web search, a fresh console none)."""
    tool = next(tool for tool in world.console.list_tools().data if tool.label == label)
    return any(credential.tool == tool.name for credential in world.console.list_tool_credentials().data)


def track_tool_credential_by_name(world: World, name: str) -> None:
    """Remove the credential called `name` after the scenario; none left counts as removed."""

    def remove() -> None:
        matches = [c for c in world.console.list_tool_credentials().data if c.name == name]
        if not matches:
            raise ResourceGone
        for credential in matches:
            world.console.delete_tool_credential(credential.id)

    world.track(ResourceKind.TOOL_CREDENTIAL, name, remove, name)
