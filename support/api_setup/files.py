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


def upload_numbered_files(world: World, count: int) -> None:
    """`count` small files named `file-01.txt`, `file-02.txt`, ... (setup for the file limit)."""
    for number in range(1, count + 1):
        upload_agent_file(world, f"file-{number:02d}.txt", b"One of many.\n")


def saved_file_names(world: World) -> list[str]:
    """The names of the agent's files as the console lists them, in its order (oldest first)."""
    return [file.name for file in world.console.list_agent_files(current_agent(world).id).data]
