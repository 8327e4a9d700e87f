"""The seeded resources: their specs, read from `seed/data/` (knowledge datasets in
`knowledge.toml`, fixture agents in `agents.toml`, the voice clip in `speech.toml`), and the
stable names of the rest.

The seed tasks create resources from these specs and the fixture steps verify resources against
them, so "as specified" means the same thing in both places.
"""

from __future__ import annotations

import tomllib
import wave
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from support.api.models import AgentConfig, Dataset, Model, Skill
from support.settings import Settings

# Data, not code: the seed stage's folder holds it because that is where people edit it.
DATA_DIR = Path(__file__).resolve().parents[2] / "seed" / "data"
KNOWLEDGE_DIR = DATA_DIR / "knowledge"
SKILLS_DIR = DATA_DIR / "skills"  # one folder per seeded skill, uploaded as its files

ModelRole = Literal["stable", "decision"]

# Stable names: environment-owned, so found again on every run (scenario-owned ones are `E2E-...`).
PROVIDER_NAME = "e2e-seed-provider"
WEB_SEARCH_CREDENTIAL = "e2e-seed-web-search"


def model_name(settings: Settings, role: ModelRole) -> str:
    """The seeded chat model playing `role`, as this run's settings name it."""
    return settings.stable_model_name if role == "stable" else settings.decision_model_name


class _Spec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DocumentSpec(_Spec):
    file: str
    expected_tokens: tuple[str, ...] = Field(min_length=1)


class DatasetSpec(_Spec):
    key: str
    name: str = Field(pattern=r"^e2e-seed-")
    description: str
    documents: tuple[DocumentSpec, ...] = Field(min_length=1)

    def content(self, document: DocumentSpec) -> bytes:
        return (KNOWLEDGE_DIR / self.key / document.file).read_bytes()


class AgentSpec(_Spec):
    key: str
    name: str = Field(pattern=r"^e2e-seed-")
    description: str
    model: ModelRole
    datasets: tuple[str, ...]
    skills: tuple[str, ...] = ()  # folders of seed/data/skills/, uploaded through the console
    # Everything but the model, the dataset ids and the skills, which only exist once seeded.
    config: AgentConfig

    @model_validator(mode="after")
    def _references_are_symbolic(self) -> AgentSpec:
        if self.config.model is not None or self.config.knowledge.dataset_ids or self.config.skills:
            raise ValueError(f"{self.key}: name the model and datasets by role/key, outside `config`")
        return self

    def desired_config(
        self, model: Model, datasets: Mapping[str, Dataset], skills: Sequence[Skill] = ()
    ) -> AgentConfig:
        """The exact config the seeded agent must have on this deployment (`skills`: as the
        console stored the spec's skills: support/seeded/skills.py)."""
        config = self.config.model_dump(mode="json")
        config["model"] = {"provider_id": model.provider_id, "name": model.name}
        config["knowledge"]["dataset_ids"] = [datasets[key].id for key in self.datasets]
        config["skills"] = [skill.model_dump(mode="json") for skill in skills]
        return AgentConfig.model_validate(config)

    def skill_files(self, name: str) -> list[tuple[str, bytes]]:
        """The seeded skill's files, by their paths in its folder, sorted."""
        folder = SKILLS_DIR / name
        files = sorted(path for path in folder.rglob("*") if path.is_file())
        return [(path.relative_to(folder).as_posix(), path.read_bytes()) for path in files]


class VoiceClip(_Spec):
    """The committed recording voice input is checked with: the seed transcribes it, and the
    fake microphone of @microphone scenarios plays it."""

    file: str
    transcript: str = Field(min_length=1)

    @property
    def path(self) -> Path:
        return DATA_DIR / self.file

    @property
    def duration_s(self) -> float:
        with wave.open(str(self.path), "rb") as audio:
            return audio.getnframes() / audio.getframerate()


@cache
def voice_clip() -> VoiceClip:
    data = tomllib.loads((DATA_DIR / "speech.toml").read_text(encoding="utf-8"))
    return VoiceClip.model_validate(data["clip"])


@cache
def dataset_specs() -> dict[str, DatasetSpec]:
    data = tomllib.loads((DATA_DIR / "knowledge.toml").read_text(encoding="utf-8"))
    specs = [DatasetSpec.model_validate(entry) for entry in data["datasets"]]
    return {spec.key: spec for spec in specs}


@cache
def agent_specs() -> dict[str, AgentSpec]:
    data = tomllib.loads((DATA_DIR / "agents.toml").read_text(encoding="utf-8"))
    specs = [AgentSpec.model_validate(entry) for entry in data["agents"]]
    return {spec.key: spec for spec in specs}
