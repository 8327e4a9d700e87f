"""The seeded fixture agents' skills: the console stores each under an archive id of its own, so
"as specified" means the same folders, names, descriptions and files as seed/data/skills/."""

from __future__ import annotations

from support.api.models import Skill
from support.seeded.specs import AgentSpec


def _front_matter(skill_md: bytes) -> dict[str, str]:
    lines = skill_md.decode().split("---", 2)[1].strip().splitlines()
    return {key.strip(): value.strip() for key, _, value in (line.partition(":") for line in lines)}


def expected_skills(spec: AgentSpec) -> list[tuple[str, str, list[tuple[str, int]]]]:
    """Each skill of the spec as (name, description, [(path, size)]), in the spec's order."""
    expected = []
    for folder in spec.skills:
        files = spec.skill_files(folder)
        front = _front_matter(dict(files)["SKILL.md"])
        expected.append((front["name"], front["description"], [(path, len(data)) for path, data in files]))
    return expected


def matching_skills(spec: AgentSpec, actual: list[Skill]) -> list[Skill] | None:
    """The agent's skills when they are exactly the spec's (else None: to be uploaded again)."""
    as_read = [(s.name, s.description, [(f.path, f.size) for f in s.files]) for s in actual]
    return actual if as_read == expected_skills(spec) else None
