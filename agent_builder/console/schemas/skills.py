"""Skills: folders with a SKILL.md whose front matter names and describes them, part of the draft.

The draft holds what a skill is (name, description, its files' paths and sizes) and the id of its
stored archive; the files themselves are stored once per content (skill_archives) and never change,
so published versions, restored drafts and duplicated agents share them."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StringConstraints

from agent_builder.console.schemas.base import RequestModel, ResponseModel

MAX_SKILLS = 10  # skills per agent
MAX_SKILL_BYTES = 1_048_576  # an upload (a zip or the files together), and a skill's files unpacked
MAX_SKILL_FILES = 50  # files in one skill
MAX_DESCRIPTION_CHARS = 1024
SKILL_NAME_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"

SkillName = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=SKILL_NAME_PATTERN)]


class SkillFile(RequestModel):
    path: Annotated[str, StringConstraints(min_length=1, max_length=255)]  # inside the skill's folder
    size: Annotated[int, Field(ge=0, le=MAX_SKILL_BYTES)]


class Skill(RequestModel):
    name: SkillName
    description: Annotated[str, StringConstraints(min_length=1, max_length=MAX_DESCRIPTION_CHARS)]
    archive_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]  # its files' digest
    files: Annotated[list[SkillFile], Field(min_length=1, max_length=MAX_SKILL_FILES)]


class SkillLimits(ResponseModel):
    max_skills: int
    max_skill_bytes: int
    max_skill_files: int
    file_types: list[str]


class SkillList(ResponseModel):
    data: list[Skill]
    limits: SkillLimits
