"""An agent's skills (part of its draft). Included with a body size limit derived from the skill
size limit."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, File, UploadFile

from agent_builder.console.auth import require_admin
from agent_builder.console.errors import ApiError
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas.agents import Draft
from agent_builder.console.schemas.skills import MAX_SKILL_BYTES, SkillList
from agent_builder.console.services import skills

router = APIRouter(
    prefix="/console/api/agents/{agent_id}/skills",
    tags=["skills"],
    dependencies=[Depends(require_admin)],
    responses=errors(401, 404, 422),
)

_FILES = File(
    description="One .zip holding the skill's folder, or the skill's files, each named by its path in "
    "the folder (SKILL.md, scripts/fill.py)"
)


def _read(uploads: list[UploadFile]) -> list[tuple[str, bytes]]:
    """Each upload's name and bytes, reading no more than the skill size limit in all."""
    received: list[tuple[str, bytes]] = []
    left = MAX_SKILL_BYTES
    for upload in uploads:
        if not upload.filename:
            raise ApiError(400, "invalid_request", "An uploaded file has no name.")
        data = upload.file.read(left + 1)
        left -= len(data)
        if left < 0:
            raise ApiError(
                413, "file_too_large", f"A skill upload may hold at most {MAX_SKILL_BYTES >> 10} KiB."
            )
        received.append((upload.filename, data))
    return received


@router.get("")
def list_skills(agent_id: str, db: DbDep) -> SkillList:
    """The draft's skills, in order, and the limits an upload must keep."""
    return skills.list_skills(db, agent_id)


@router.post("", status_code=201, responses=errors(400, 409, 413, 415))
def add_skill(agent_id: str, files: Annotated[list[UploadFile], _FILES], db: DbDep) -> Draft:
    """Add a skill to the draft (one new revision): 400 `invalid_skill` when SKILL.md is missing or
    its front matter has no valid name or description (the message says which), 409 `skill_exists`
    for a name the draft has, 409 `skill_limit_reached`, 413 and 415 for sizes, counts and types."""
    return skills.add_skill(db, agent_id, _read(files))


@router.put("/{skill_name}", responses=errors(400, 413, 415))
def replace_skill(
    agent_id: str, skill_name: str, files: Annotated[list[UploadFile], _FILES], db: DbDep
) -> Draft:
    """Replace the skill `skill_name` in place with the upload, whose SKILL.md must keep the name."""
    return skills.replace_skill(db, agent_id, skill_name, _read(files))


@router.delete("/{skill_name}")
def remove_skill(agent_id: str, skill_name: str, db: DbDep) -> Draft:
    """Remove the skill `skill_name` from the draft (published versions keep theirs)."""
    return skills.remove_skill(db, agent_id, skill_name)
