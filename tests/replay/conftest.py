from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from openai import OpenAI

from support.replay.config import ReplayConfig
from support.replay.control import ReplayControl
from support.replay.scope import Mode
from support.replay.server import BackgroundServer, replay_server
from tests.fakes.upstream import FakeUpstream

UPSTREAM_KEY = "sk-upstream-REAL-provider-key-123456"
CLIENT_KEY = "sk-product-dummy-key-abcdef"


@dataclass
class Replay:
    url: str
    control: ReplayControl
    clients: dict[str | None, OpenAI] = field(default_factory=dict)

    def client(self, caller: str | None = None) -> OpenAI:
        """An SDK client as the product would hold one, sending `X-Model-Caller: caller` if given."""
        if caller not in self.clients:  # cached: building an SDK client costs ~30 ms
            headers = {"X-Model-Caller": caller} if caller else None
            self.clients[caller] = OpenAI(
                base_url=f"{self.url}/v1",
                api_key=CLIENT_KEY,
                max_retries=0,
                default_headers=headers,
                timeout=10,
            )
        return self.clients[caller]


@pytest.fixture
def cassettes(tmp_path: Path) -> Path:
    return tmp_path / "cassettes"


@pytest.fixture
def start_replay(fake_upstream: FakeUpstream, cassettes: Path) -> Iterator[Callable[..., Replay]]:
    """Starts replay servers against the fake upstream; all are stopped after the test."""
    servers: list[BackgroundServer] = []
    with ExitStack() as stack:

        def start(mode: Mode = "replay", pace_ms: int = 0) -> Replay:
            upstream_url = fake_upstream.url
            config = ReplayConfig(
                cassettes=cassettes,
                mode=mode,
                upstream=f"{upstream_url}/v1" if mode != "replay" else None,
                search_upstream=f"{upstream_url}/search" if mode != "replay" else None,
                api_key=UPSTREAM_KEY if mode != "replay" else None,
                pace_ms=pace_ms,
                recorded_from="scripted-upstream",
            )
            server = stack.enter_context(replay_server(config))
            servers.append(server)
            return Replay(server.url, stack.enter_context(ReplayControl(server.url)))

        yield start
        for server in servers:  # a graceful stop takes ~0.15 s: let them overlap
            server.stop()
