"""The agent's skills at run time: their names and descriptions offered to the model in the system
message, and their files put in the conversation's sandbox workspace, under skills/<name>/, before
the first sandbox command (shellctl mounts that folder read-only for commands)."""

from __future__ import annotations

from urllib.parse import quote

import httpx

from agent_builder.runtime.schemas import SkillSnapshot

SKILLS_FOLDER = "skills"
_NOTE = (
    "Skills: each is a folder in your sandbox workspace, {folder}/<name>/ (read-only). When a request "
    "matches a skill's description, read its SKILL.md (and the files it names) with the sandbox "
    "shell before you answer."
)


def skills_note(skills: list[SkillSnapshot]) -> str:
    """What the system message says of the skills: how to use them, then `- name: description` each."""
    if not skills:
        return ""
    lines = [_NOTE.format(folder=SKILLS_FOLDER)]
    lines += [f"- {skill.name}: {skill.description}" for skill in skills]
    return "\n".join(lines)


async def place_skills(
    http: httpx.AsyncClient,
    session_url: str,
    owner: str | None,
    headers: dict[str, str],
    skills: list[SkillSnapshot],
) -> None:
    """Write every skill's files into the session's workspace (replacing what a run put there)."""
    suffix = f"&owner={owner}" if owner else ""
    for skill in skills:
        for path, content in skill.files.items():
            target = quote(f"{SKILLS_FOLDER}/{skill.name}/{path}", safe="")
            response = await http.put(
                f"{session_url}/files?path={target}{suffix}", content=content.encode(), headers=headers
            )
            response.raise_for_status()
