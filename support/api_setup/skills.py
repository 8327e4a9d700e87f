"""The agent's skills, uploaded through the console API as another client would; the SKILL.md and
zip a scenario's skill is made of; and how a scenario's tables read the skills back."""

from __future__ import annotations

import io
import zipfile

from support.api.models import AgentDetail
from support.api_setup.agents import current_agent, saved_agent
from support.world import World


def skill_md(name: str, description: str, body: str = "") -> bytes:
    """A SKILL.md whose front matter names and describes the skill."""
    return f"---\nname: {name}\ndescription: {description}\n---\n{body or f'# {name}'}\n".encode()


def zipped(folder: str, files: dict[str, bytes]) -> bytes:
    """The files in a zip, under the folder `folder` (as a zipped skill folder holds them)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, content in files.items():
            archive.writestr(f"{folder}/{path}", content)
    return buffer.getvalue()


def add_skill(world: World, name: str, description: str, extra: dict[str, bytes] | None = None) -> None:
    """Upload a skill with this SKILL.md (and `extra` files beside it) to the scenario's agent."""
    files = [("SKILL.md", skill_md(name, description)), *(extra or {}).items()]
    world.console.add_skill(current_agent(world).id, files)


def add_numbered_skills(world: World, count: int) -> None:
    """`count` skills named `skill-01`, `skill-02`, ... (setup for the skill limit)."""
    for number in range(1, count + 1):
        add_skill(world, f"skill-{number:02d}", f"Skill number {number}.")


def skills_as_read(agent: AgentDetail) -> list[dict[str, str]]:
    """The draft's skills in order, as a scenario's table writes them: name, description, and the
    files' paths joined by " / "."""
    return [
        {
            "name": skill.name,
            "description": skill.description,
            "files": " / ".join(file.path for file in skill.files),
        }
        for skill in agent.draft.config.skills
    ]


def saved_skills(world: World, label: str | None = None) -> list[dict[str, str]]:
    """The saved draft's skills (the agent with that label, else the scenario's), as read."""
    return skills_as_read(saved_agent(world, label))


def listed_skills(world: World) -> list[dict[str, str]]:
    """The skills GET /skills lists for the scenario's agent, as read (the list a client uses)."""
    listed = world.console.list_skills(current_agent(world).id).data
    return [
        {"name": s.name, "description": s.description, "files": " / ".join(f.path for f in s.files)}
        for s in listed
    ]
