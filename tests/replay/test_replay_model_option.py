"""`serve --model NAME`: models listed before any cassette exists, keylessly and outside a scope,
so the seed stage can validate the provider and activate its models on a fresh checkout."""

from __future__ import annotations

from pathlib import Path

import httpx

from support.replay.config import ReplayConfig
from support.replay.server import replay_server


def test_configured_models_are_listed_keylessly_without_cassettes_or_a_scope(tmp_path: Path) -> None:
    config = ReplayConfig(cassettes=tmp_path / "none-yet", models=("gpt-4o-mini", "gpt-4o"))
    with replay_server(config) as server:
        response = httpx.get(f"{server.url}/v1/models")  # no Authorization header, no scope open
        state = httpx.get(f"{server.url}/__replay/state").json()
    assert response.status_code == 200
    assert [model["id"] for model in response.json()["data"]] == ["gpt-4o", "gpt-4o-mini"]
    assert state["unscoped_misses"] == []  # listing models is not a model call
