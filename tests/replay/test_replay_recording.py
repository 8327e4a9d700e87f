"""Recording and live modes: what reaches the cassette, and what a failing upstream leaves."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import openai
import pytest
from httpx_sse import connect_sse
from openai import OpenAI

from support.replay.cassette import SseResponse, load_cassette
from support.replay.config import ReplayConfig
from support.replay.control import ReplayControl
from support.replay.server import replay_server
from support.replay.sse import relay, sse_frame
from tests.fakes.raw_stream import raw_stream_server
from tests.fakes.upstream import MODEL, FakeUpstream

from .conftest import CLIENT_KEY, UPSTREAM_KEY, Replay
from .model_calls import FEATURE, StartReplay, ask, record


def test_no_secret_reaches_the_cassette(start_replay: StartReplay, cassettes: Path) -> None:
    def calls(replay: Replay) -> None:
        client = OpenAI(
            base_url=f"{replay.url}/v1",
            api_key=CLIENT_KEY,
            max_retries=0,
            default_headers={"Cookie": "session=client-cookie-secret"},
        )
        ask(client, "please echo your credentials")
        search = httpx.post(
            f"{replay.url}/search/web?api_key=query-secret-1",
            headers={"X-API-Key": "header-secret-2"},
            json={"query": "weather", "api_key": "body-secret-3"},
        )
        assert search.status_code == 200

    record(start_replay, "Secrets", calls)
    text = (cassettes / "agent/chat/secrets.json").read_text()
    assert "<scrubbed>" in text
    for secret in (
        UPSTREAM_KEY,
        CLIENT_KEY,
        "client-cookie-secret",
        "upstream-cookie-secret-value",
        "query-secret-1",
        "header-secret-2",
        "body-secret-3",
    ):
        assert secret not in text


def test_live_mode_forwards_and_records_nothing(
    start_replay: StartReplay, fake_upstream: FakeUpstream, cassettes: Path
) -> None:
    live = start_replay("live")
    live.control.open_scope("Live", FEATURE)
    assert ask(live.client(), "hi")["choices"][0]["message"]["content"] == "You said: hi"
    assert live.control.close_scope().written is None
    assert len(fake_upstream.calls("/v1/chat/completions")) == 1 and not cassettes.exists()


def test_recording_through_an_unreachable_upstream_is_a_reported_problem(cassettes: Path) -> None:
    unreachable = ReplayConfig(
        cassettes=cassettes, mode="record", upstream="http://127.0.0.1:9/v1", api_key="k"
    )
    with replay_server(unreachable) as server, ReplayControl(server.url) as control:
        control.open_scope("Offline", FEATURE)
        client = OpenAI(base_url=f"{server.url}/v1", api_key=CLIENT_KEY, max_retries=0)
        with pytest.raises(openai.APIStatusError, match="upstream failed"):
            ask(client, "hi")
        [problem] = control.close_scope().misses
    assert problem.reason.startswith("upstream http://127.0.0.1:9/v1/chat/completions failed: ConnectError")


def test_cassette_is_human_reviewable(start_replay: StartReplay, cassettes: Path) -> None:
    record(start_replay, "Review", lambda r: ask(r.client("lead_agent"), "hi"))
    data = json.loads((cassettes / "agent/chat/review.json").read_text())
    assert list(data) == [
        "version",
        "scenario",
        "feature",
        "recorded_at",
        "recorded_from",
        "model",
        "entries",
    ]
    assert data["recorded_from"] == "scripted-upstream" and data["model"] == MODEL
    [entry] = data["entries"]
    assert entry["request"]["messages"] == [{"role": "user", "content": "hi"}]
    assert entry["call_site"] == "lead_agent" and entry["request"]["system_prompt_digest"]


CHUNK = {"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {"content": "Hi"}}]}
# The chunk's JSON over two `data:` lines, then a text chunk over two lines, split across writes.
MULTI_LINE_STREAM = [
    b'data: {"id": "c1", "object": "chat.completion.chunk",\ndata:  "choices": [{"index": 0, ',
    b'"delta": {"content": "Hi"}}]}\n\ndata: line one\ndata: line two\n',
    b"\ndata: [DONE]\n\n",
]


def _streamed(url: str) -> list[str]:
    """The `data` of each event the replay server streams back, as a client reads them."""
    body = {"model": MODEL, "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    with (
        httpx.Client(base_url=url) as client,
        connect_sse(client, "POST", "/v1/chat/completions", json=body) as events,
    ):
        return [event.data for event in events.iter_sse()]


def test_multi_line_sse_data_is_recorded_joined_and_replayed_intact(cassettes: Path) -> None:
    with raw_stream_server("/v1/chat/completions", MULTI_LINE_STREAM) as upstream:
        config = ReplayConfig(cassettes=cassettes, mode="record", upstream=f"{upstream.url}/v1", api_key="k")
        with replay_server(config) as server, ReplayControl(server.url) as control:
            control.open_scope("Multi-line", FEATURE)
            recorded = _streamed(server.url)
            assert control.close_scope().ok
    [entry] = load_cassette(cassettes / "agent/chat/multi-line.json").entries
    assert isinstance(entry.response, SseResponse)
    assert entry.response.chunks == [CHUNK, "line one\nline two", "[DONE]"]

    with replay_server(ReplayConfig(cassettes=cassettes)) as server, ReplayControl(server.url) as control:
        control.open_scope("Multi-line", FEATURE)
        replayed = _streamed(server.url)
        assert control.close_scope().ok
    assert replayed == recorded
    assert [json.loads(replayed[0]), *replayed[1:]] == [CHUNK, "line one\nline two", "[DONE]"]


def test_a_stream_is_whole_at_its_end_marker_even_if_the_client_hangs_up_there() -> None:
    # The runtime reads up to [DONE] and closes the connection: the relay is cancelled while it
    # waits for the upstream's end, and the recording must not be lost with it.
    kept: list[str] = []

    async def upstream() -> AsyncGenerator[object, None]:
        yield CHUNK
        yield "[DONE]"
        await asyncio.Event().wait()  # the upstream's end comes after the client hung up

    async def read_to_the_marker_and_hang_up() -> list[bytes]:
        body = relay(upstream(), 0, on_complete=lambda: kept.append("whole"))
        frames = [await anext(body), await anext(body)]
        await body.aclose()
        return frames

    # In a thread of its own: a test session's Playwright (sync API) keeps a loop running in this one.
    with ThreadPoolExecutor(max_workers=1) as thread:
        frames = thread.submit(asyncio.run, read_to_the_marker_and_hang_up()).result()
    assert frames[1] == sse_frame("[DONE]")
    assert kept == ["whole"]
