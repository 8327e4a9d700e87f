"""The web-search passthrough: recorded and replayed like model calls, patched separately."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from support.replay.cassette import load_cassette
from support.replay.scope import FailPatch
from tests.fakes.upstream import FakeUpstream

from .conftest import Replay
from .model_calls import FEATURE, StartReplay, record


def test_web_search_passthrough_records_and_replays(
    start_replay: StartReplay, fake_upstream: FakeUpstream, cassettes: Path
) -> None:
    def search(replay: Replay, key: str) -> Any:
        return httpx.post(f"{replay.url}/search/web", json={"query": "E2E weather", "api_key": key}).json()

    recorded = record(start_replay, "Search", lambda r: search(r, "record-key"))
    assert len(fake_upstream.calls("/search/web")) == 1
    fake_upstream.seen.clear()
    replay = start_replay()
    replay.control.open_scope("Search", FEATURE)
    assert search(replay, "other-key") == recorded
    assert replay.control.close_scope().ok and fake_upstream.seen == []
    [entry] = load_cassette(cassettes / "agent/chat/search.json").entries
    assert entry.call_site == "tool:web_search"


def test_search_calls_are_patchable_separately(start_replay: StartReplay) -> None:
    replay = start_replay()
    replay.control.open_scope("Search down", FEATURE)
    replay.control.add_patch(FailPatch(target="search", status=503))
    assert httpx.post(f"{replay.url}/search/web", json={"query": "x"}).status_code == 503
    assert replay.control.close_scope().ok
