"""An agent's skills, as its draft holds them: add, replace, remove. Each change is one new
revision of the draft, taken whatever the revision (it changes no other field, so it overwrites
nobody's edit), like the web app settings."""

from __future__ import annotations

import sqlite3

from agent_builder.console.db import Database
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.agents import AgentConfig, Draft
from agent_builder.console.schemas.skills import (
    MAX_SKILL_BYTES,
    MAX_SKILL_FILES,
    MAX_SKILLS,
    Skill,
    SkillLimits,
    SkillList,
)
from agent_builder.console.services import skill_archives
from agent_builder.console.services.agents import find_draft, write_draft

LIMITS = SkillLimits(
    max_skills=MAX_SKILLS,
    max_skill_bytes=MAX_SKILL_BYTES,
    max_skill_files=MAX_SKILL_FILES,
    file_types=[".zip", *skill_archives.SKILL_FILE_TYPES],
)


def list_skills(db: Database, agent_id: str) -> SkillList:
    return SkillList(data=find_draft(db, agent_id).config.skills, limits=LIMITS)


def _draft(conn: sqlite3.Connection, agent_id: str) -> tuple[AgentConfig, int]:
    """The agent's draft and its revision, read inside the write that changes them."""
    row = conn.execute("SELECT draft_config, draft_revision FROM agents WHERE id = ?", (agent_id,)).fetchone()
    if row is None:
        raise not_found("Agent")
    return AgentConfig.model_validate_json(row["draft_config"]), row["draft_revision"]


def add_skill(db: Database, agent_id: str, uploads: list[tuple[str, bytes]]) -> Draft:
    """The draft with the uploaded skill last: 409 `skill_exists` when one has its name, 409
    `skill_limit_reached` at MAX_SKILLS (counted inside the write)."""
    files = skill_archives.unpack(uploads)
    with db.write() as conn:
        config, revision = _draft(conn, agent_id)
        skill = skill_archives.store(conn, files)
        if any(held.name == skill.name for held in config.skills):
            raise ApiError(
                409, "skill_exists", f"The agent already has a skill named {skill.name}: replace it instead."
            )
        if len(config.skills) >= MAX_SKILLS:
            raise ApiError(
                409,
                "skill_limit_reached",
                f"An agent can have at most {MAX_SKILLS} skills. Remove a skill to add another.",
            )
        updated = config.model_copy(update={"skills": [*config.skills, skill]})
        return write_draft(conn, agent_id, revision, updated)


def replace_skill(db: Database, agent_id: str, name: str, uploads: list[tuple[str, bytes]]) -> Draft:
    """The draft with the skill `name` replaced in place by the upload, which must keep its name."""
    files = skill_archives.unpack(uploads)
    with db.write() as conn:
        config, revision = _draft(conn, agent_id)
        index = _index(config, name)
        skill = skill_archives.store(conn, files)
        if skill.name != name:
            raise skill_archives.invalid(
                f"The new SKILL.md names the skill {skill.name}, not {name}: a replacement keeps its name."
            )
        skills: list[Skill] = [*config.skills]
        skills[index] = skill
        return write_draft(conn, agent_id, revision, config.model_copy(update={"skills": skills}))


def remove_skill(db: Database, agent_id: str, name: str) -> Draft:
    with db.write() as conn:
        config, revision = _draft(conn, agent_id)
        index = _index(config, name)
        skills = [skill for position, skill in enumerate(config.skills) if position != index]
        return write_draft(conn, agent_id, revision, config.model_copy(update={"skills": skills}))


def _index(config: AgentConfig, name: str) -> int:
    for index, skill in enumerate(config.skills):
        if skill.name == name:
            return index
    raise not_found("Skill")
