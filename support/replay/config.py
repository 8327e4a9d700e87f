"""How a replay server runs: `ReplayConfig`, built by `python -m support.replay serve` or a test."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from support.replay.scope import Mode

API_KEY_ENV = "E2E_STABLE_MODEL_API_KEY"


@dataclass(frozen=True)
class ReplayConfig:
    cassettes: Path
    mode: Mode = "replay"
    upstream: str | None = None  # OpenAI-compatible base URL, e.g. https://api.openai.com/v1
    search_upstream: str | None = None  # base URL that `/search/{path}` is forwarded under
    api_key: str | None = None
    pace_ms: int = 0
    recorded_from: str | None = None  # cassette label; defaults to the upstream's host
    # Listed by `GET /v1/models` in replay mode even before a cassette uses them, so the seed stage
    # can register and activate its models on a fresh checkout.
    models: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.mode != "replay" and not (self.upstream and self.api_key):
            raise ValueError(
                f"mode {self.mode} forwards to the provider: it needs --upstream and {API_KEY_ENV}"
            )
