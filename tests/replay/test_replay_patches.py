"""Fault patches: failing, replaced and hung calls, and what releases a hang."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openai
import pytest
from openai import OpenAI

from support.replay.cassette import JsonResponse, SseResponse
from support.replay.config import ReplayConfig
from support.replay.control import ReplayControl, ReplayControlError
from support.replay.scope import FailPatch, HangPatch, PacePatch, ReplacePatch
from support.replay.server import replay_server
from tests.fakes.upstream import MODEL

from .conftest import CLIENT_KEY, Replay
from .model_calls import FEATURE, StartReplay, ask, record


def capture(failures: list[openai.APIError], action: Callable[[], Any]) -> None:
    try:
        action()
    except openai.APIError as error:  # handed to the test thread for its assertion
        failures.append(error)


def wait_for(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("status", "error"),
    [(500, openai.InternalServerError), (429, openai.RateLimitError), (401, openai.AuthenticationError)],
)
def test_fail_patch_fails_one_call_and_keeps_the_recording_for_the_retry(
    start_replay: StartReplay, status: int, error: type[Exception]
) -> None:
    recorded = record(start_replay, "Flaky", lambda r: ask(r.client(), "hello"))
    replay = start_replay()
    replay.control.open_scope("Flaky", FEATURE)
    patch = replay.control.add_patch(FailPatch(status=status))
    assert patch.call == 0
    with pytest.raises(error):
        ask(replay.client(), "hello")
    assert ask(replay.client(), "hello") == recorded
    assert replay.control.close_scope().ok


def test_replace_patch_answers_with_the_given_entry(start_replay: StartReplay) -> None:
    replay = start_replay()
    replay.control.open_scope("Replaced", FEATURE)
    body = {
        "id": "chatcmpl-x",
        "object": "chat.completion",
        "created": 1,
        "model": MODEL,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "Replaced!"}, "finish_reason": "stop"}
        ],
    }
    replay.control.add_patch(ReplacePatch(entry=JsonResponse(body=body)))
    chunk = {
        **body,
        "object": "chat.completion.chunk",
        "choices": [{"index": 0, "delta": {"content": "Streamed!"}, "finish_reason": None}],
    }
    replay.control.add_patch(ReplacePatch(call=1, entry=SseResponse(chunks=[chunk, "[DONE]"])))

    assert ask(replay.client(), "anything")["choices"][0]["message"]["content"] == "Replaced!"
    [streamed] = ask(replay.client(), "anything", stream=True)
    assert streamed["choices"][0]["delta"]["content"] == "Streamed!"
    assert replay.control.close_scope().ok  # patched calls neither consult nor miss the cassette


def test_hang_patch_is_observable_as_parked_and_released_when_the_client_disconnects(
    start_replay: StartReplay,
) -> None:
    messages = [{"role": "user", "content": "tell me a long story"}]

    def story(replay: Replay) -> Any:
        return replay.client().chat.completions.create(model=MODEL, messages=messages, stream=True)

    recorded = record(start_replay, "Stop", lambda r: [chunk.model_dump() for chunk in story(r)])
    replay = start_replay()
    replay.control.open_scope("Stop", FEATURE)
    replay.control.add_patch(HangPatch(after_chunks=2))

    stream = story(replay)
    chunks = iter(stream)
    received = [next(chunks).model_dump(), next(chunks).model_dump()]
    [parked] = replay.control.wait_until_parked(timeout=5)
    assert (parked["call"], parked["target"], parked["call_site"]) == (0, "chat", "default")
    assert received == recorded[:2]

    stream.close()  # the user clicks Stop: the product drops the connection
    wait_for(lambda: replay.control.state()["parked"] == [])
    assert replay.control.close_scope().ok


def test_hang_patch_on_a_plain_call_parks_until_the_client_times_out(start_replay: StartReplay) -> None:
    replay = start_replay()
    replay.control.open_scope("Stall", FEATURE)
    replay.control.add_patch(HangPatch())
    client = OpenAI(base_url=f"{replay.url}/v1", api_key=CLIENT_KEY, max_retries=0, timeout=0.5)
    failure: list[openai.APIError] = []
    worker = threading.Thread(target=lambda: capture(failure, lambda: ask(client, "hi")))
    worker.start()
    replay.control.wait_until_parked(timeout=5)
    worker.join(timeout=5)
    assert isinstance(failure[0], openai.APITimeoutError)
    wait_for(lambda: replay.control.state()["parked"] == [])
    assert replay.control.close_scope().ok


def test_closing_the_scope_releases_parked_hangs(start_replay: StartReplay) -> None:
    replay = start_replay()
    replay.control.open_scope("Abandoned", FEATURE)
    replay.control.add_patch(HangPatch())
    failure: list[openai.APIError] = []
    worker = threading.Thread(target=lambda: capture(failure, lambda: ask(replay.client(), "hi")))
    worker.start()
    replay.control.wait_until_parked(timeout=5)
    replay.control.close_scope()
    worker.join(timeout=5)
    assert isinstance(failure[0], openai.InternalServerError) and "hang released" in str(failure[0])
    assert replay.control.state()["parked"] == []


def test_server_shutdown_releases_parked_hangs_instead_of_waiting_for_them(cassettes: Path) -> None:
    with replay_server(ReplayConfig(cassettes=cassettes)) as server, ReplayControl(server.url) as control:
        control.open_scope("Shutdown", FEATURE)
        control.add_patch(HangPatch())
        client = OpenAI(base_url=f"{server.url}/v1", api_key=CLIENT_KEY, max_retries=0)
        stream = client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "hi"}], stream=True
        )
        control.wait_until_parked(timeout=5)
    assert list(stream) == []  # the stalled stream ended when the server stopped


def test_patch_misuse_is_refused_or_reported(start_replay: StartReplay) -> None:
    record(start_replay, "Once", lambda r: ask(r.client(), "hi"))
    replay = start_replay()
    with pytest.raises(ReplayControlError, match="open a scope first"):
        replay.control.add_patch(FailPatch())
    replay.control.open_scope("Once", FEATURE)
    ask(replay.client(), "hi")
    with pytest.raises(ReplayControlError, match="409: chat call #0 already happened"):
        replay.control.add_patch(FailPatch(call=0))
    replay.control.add_patch(FailPatch(call=3, status=503))
    with pytest.raises(ReplayControlError, match="already patched"):
        replay.control.add_patch(HangPatch(call=3))
    report = replay.control.close_scope()
    assert [p.call for p in report.unapplied_patches] == [3]
    assert (
        "UNAPPLIED PATCH fail on chat call #3: the scenario made only 1 chat call(s)"
        in report.problems_text()
    )


def test_pace_patch_spreads_one_streamed_reply_and_leaves_the_next_call_unpaced(
    start_replay: StartReplay,
) -> None:
    messages = [{"role": "user", "content": "tell me a long story"}]

    def arrivals(replay: Replay) -> list[float]:
        started = time.monotonic()
        stream = replay.client().chat.completions.create(model=MODEL, messages=messages, stream=True)
        return [time.monotonic() - started for _ in stream]

    record(start_replay, "Paced", lambda r: (arrivals(r), arrivals(r)))
    replay = start_replay()
    replay.control.open_scope("Paced", FEATURE)
    replay.control.add_patch(PacePatch(pace_ms=150))

    paced, unpaced = arrivals(replay), arrivals(replay)

    assert len(paced) >= 3, paced
    # Each chunk waits its pace: the last arrives at least (n - 1) paces after the first.
    assert paced[-1] - paced[0] >= 0.15 * (len(paced) - 1) - 0.01, paced
    assert unpaced[-1] - unpaced[0] < 0.15, unpaced
    assert replay.control.close_scope().ok
