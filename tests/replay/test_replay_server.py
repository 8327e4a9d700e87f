"""The server end to end: the official `openai` SDK against replay, replay against a scripted upstream."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from openai import OpenAI

from support.replay.cassette import JsonResponse, SseResponse, load_cassette
from support.replay.control import ReplayControl, ReplayControlError
from support.replay.scope import FailPatch, HangPatch, ReplacePatch
from support.replay.config import ReplayConfig
from support.replay.server import replay_server

from .conftest import CLIENT_KEY, UPSTREAM_KEY, Replay
from .scripted_upstream import MODEL, ScriptedUpstream

StartReplay = Callable[..., Replay]
FEATURE = "features/agent/chat.feature"
WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


def ask(
    client: OpenAI, prompt: str, *, stream: bool = False, history: list[dict[str, Any]] | None = None
) -> Any:
    """One model call as an agent makes it: a system prompt, the conversation, the weather tool."""
    messages = [
        {"role": "system", "content": f"You are helpful. Today is {datetime.now(UTC).date()}."},
        *(history or []),
        {"role": "user", "content": prompt},
    ]
    if stream:
        chunks = client.chat.completions.create(
            model=MODEL,
            messages=messages,
            tools=[WEATHER_TOOL],
            stream=True,
            stream_options={"include_usage": True},
        )
        return [chunk.model_dump() for chunk in chunks]
    return client.chat.completions.create(model=MODEL, messages=messages, tools=[WEATHER_TOOL]).model_dump()


def agent_turn(client: OpenAI, *, stream: bool) -> list[Any]:
    """Two calls: the model asks for get_weather, then answers from the tool result."""
    first = ask(client, "What is the weather in Paris?", stream=stream)
    if stream:
        pieces = [
            delta
            for chunk in first
            for choice in chunk["choices"]
            for delta in choice["delta"].get("tool_calls") or []
        ]
        call = {
            "id": pieces[0]["id"],
            "type": "function",
            "function": {
                "name": pieces[0]["function"]["name"],
                "arguments": "".join(p["function"]["arguments"] for p in pieces),
            },
        }
    else:
        call = first["choices"][0]["message"]["tool_calls"][0]
    history = [
        {"role": "user", "content": "What is the weather in Paris?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": call["id"], "content": '{"temp_c": 21}'},
    ]
    second = client.chat.completions.create(
        model=MODEL, messages=history, tools=[WEATHER_TOOL], stream=stream
    )
    return [first, [c.model_dump() for c in second] if stream else second.model_dump()]


def record(start_replay: StartReplay, scenario: str, calls: Callable[[Replay], Any]) -> Any:
    replay = start_replay("record")
    replay.control.open_scope(scenario, FEATURE)
    results = calls(replay)
    report = replay.control.close_scope()
    assert report.ok, report.problems_text()
    assert report.written
    return results


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


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_record_then_replay_is_identical_and_replay_never_calls_upstream(
    start_replay: StartReplay, upstream: ScriptedUpstream, cassettes: Path, stream: bool
) -> None:
    recorded = record(start_replay, "Weather question", lambda r: agent_turn(r.client(), stream=stream))
    assert upstream.count("/v1/chat/completions") == 2
    assert all(seen.headers["authorization"] == f"Bearer {UPSTREAM_KEY}" for seen in upstream.requests)
    if stream:  # the tool call really was streamed in pieces, and is replayed so
        assert (
            sum(bool(c["choices"] and c["choices"][0]["delta"].get("tool_calls")) for c in recorded[0]) == 3
        )

    upstream.requests.clear()
    replay = start_replay("replay")
    opened = replay.control.open_scope("Weather question", FEATURE)
    assert opened["entries"] == 2
    replayed = agent_turn(replay.client(), stream=stream)
    report = replay.control.close_scope()

    assert replayed == recorded
    assert report.ok, report.problems_text()
    assert upstream.requests == []
    entries = load_cassette(cassettes / "agent/chat/weather-question.json").entries
    assert [type(e.response) for e in entries] == [SseResponse if stream else JsonResponse] * 2


def test_changed_prompt_is_a_miss_with_a_readable_diff(start_replay: StartReplay) -> None:
    record(start_replay, "Capital", lambda r: ask(r.client("lead_agent"), "What is the capital of France?"))
    replay = start_replay()
    replay.control.open_scope("Capital", FEATURE)

    with pytest.raises(openai.NotFoundError, match="replay miss"):
        ask(replay.client("lead_agent"), "What is the capital of Spain?")
    report = replay.control.close_scope()

    [miss] = report.misses
    assert miss.call_site == "lead_agent" and miss.key.startswith("lead_agent#") and miss.call == 0
    assert miss.reason == "no recorded entry matches this request"
    assert "user: What is the capital of Spain?" in miss.request
    assert "-user: What is the capital of France?\n+user: What is the capital of Spain?" in miss.diff
    text = report.problems_text()
    for fragment in (
        miss.key,
        "lead_agent",
        "requested (normalized)",
        f"nearest recorded entry [{miss.nearest_key}]",
        "+user: What is the capital of Spain?",
        "UNCONSUMED recorded entry 0",
    ):
        assert fragment in text


def test_unconsumed_entries_are_reported(start_replay: StartReplay) -> None:
    record(start_replay, "Two questions", lambda r: [ask(r.client(), "first"), ask(r.client(), "second")])
    replay = start_replay()
    replay.control.open_scope("Two questions", FEATURE)
    ask(replay.client(), "first")
    report = replay.control.close_scope()
    assert not report.misses
    [unused] = report.unconsumed
    assert unused.index == 1 and "user: second" in unused.request
    assert not report.ok


def test_identical_keys_are_consumed_first_in_first_out_then_miss(start_replay: StartReplay) -> None:
    recorded = record(start_replay, "Retry", lambda r: [ask(r.client(), "again"), ask(r.client(), "again")])
    replay = start_replay()
    replay.control.open_scope("Retry", FEATURE)
    assert [ask(replay.client(), "again"), ask(replay.client(), "again")] == recorded
    with pytest.raises(openai.NotFoundError):
        ask(replay.client(), "again")
    [miss] = replay.control.close_scope().misses
    assert miss.reason.startswith("all 2 recorded entries with this key were already used")


def test_call_sites_do_not_compete_for_one_recording(start_replay: StartReplay) -> None:
    recorded = record(start_replay, "Title", lambda r: [ask(r.client("title"), "hi"), ask(r.client(), "hi")])
    replay = start_replay()
    replay.control.open_scope("Title", FEATURE)
    assert [ask(replay.client(), "hi"), ask(replay.client("title"), "hi")] == recorded[::-1]
    assert replay.control.close_scope().ok


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


def test_concurrent_requests_are_each_served_their_own_recording(start_replay: StartReplay) -> None:
    prompts = [(f"question {n}", n % 2 == 0) for n in range(8)]
    recorded = record(start_replay, "Many", lambda r: [ask(r.client(), p, stream=s) for p, s in prompts])
    replay = start_replay(pace_ms=5)
    replay.control.open_scope("Many", FEATURE)
    client = replay.client()
    with ThreadPoolExecutor(max_workers=8) as pool:
        replayed = list(pool.map(lambda item: ask(client, item[0], stream=item[1]), prompts[::-1]))
    assert replayed[::-1] == recorded
    assert replay.control.close_scope().ok


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


def test_web_search_passthrough_records_and_replays(
    start_replay: StartReplay, upstream: ScriptedUpstream, cassettes: Path
) -> None:
    def search(replay: Replay, key: str) -> Any:
        return httpx.post(f"{replay.url}/search/web", json={"query": "E2E weather", "api_key": key}).json()

    recorded = record(start_replay, "Search", lambda r: search(r, "record-key"))
    assert upstream.count("/search/web") == 1
    upstream.requests.clear()
    replay = start_replay()
    replay.control.open_scope("Search", FEATURE)
    assert search(replay, "other-key") == recorded
    assert replay.control.close_scope().ok and upstream.requests == []
    [entry] = load_cassette(cassettes / "agent/chat/search.json").entries
    assert entry.call_site == "tool:web_search"


def test_search_calls_are_patchable_separately(start_replay: StartReplay) -> None:
    replay = start_replay()
    replay.control.open_scope("Search down", FEATURE)
    replay.control.add_patch(FailPatch(target="search", status=503))
    assert httpx.post(f"{replay.url}/search/web", json={"query": "x"}).status_code == 503
    assert replay.control.close_scope().ok


def test_keys_stay_stable_across_runs_with_different_uuids_dates_and_ports(start_replay: StartReplay) -> None:
    def prompt(run_id: str) -> str:
        return (
            f"Summarize conversation {uuid.uuid4()} started {datetime.now(UTC).isoformat()} "
            f"on {datetime.now(UTC).date()} at http://127.0.0.1:{20000 + len(run_id)}/api "
            f"in /tmp/{run_id}/workspace for agent E2E-{run_id}-w0-support-bot-3"
        )

    recorded = record(start_replay, "Stable", lambda r: ask(r.client(), prompt("run1")))
    replay = start_replay()
    replay.control.open_scope("Stable", FEATURE)
    assert ask(replay.client(), prompt("otherrun22")) == recorded
    assert replay.control.close_scope().ok


def test_live_mode_forwards_and_records_nothing(
    start_replay: StartReplay, upstream: ScriptedUpstream, cassettes: Path
) -> None:
    live = start_replay("live")
    live.control.open_scope("Live", FEATURE)
    assert ask(live.client(), "hi")["choices"][0]["message"]["content"] == "You said: hi"
    assert live.control.close_scope().written is None
    assert upstream.count("/v1/chat/completions") == 1 and not cassettes.exists()


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


def test_calls_outside_a_scope_miss_loudly_in_replay(start_replay: StartReplay) -> None:
    replay = start_replay()
    with pytest.raises(openai.NotFoundError, match="no scenario scope is open"):
        ask(replay.client(), "hi")
    [miss] = replay.control.state()["unscoped_misses"]
    assert "user: hi" in miss["request"]


def test_missing_cassette_makes_every_call_a_miss_that_says_so(start_replay: StartReplay) -> None:
    replay = start_replay()
    assert replay.control.open_scope("Never recorded", FEATURE)["cassette_found"] is False
    with pytest.raises(openai.NotFoundError):
        ask(replay.client(), "hi")
    [miss] = replay.control.close_scope().misses
    assert "no cassette at" in miss.reason and "never-recorded.json" in miss.reason


def test_malformed_cassette_fails_the_scope_with_file_and_reason(
    start_replay: StartReplay, cassettes: Path
) -> None:
    path = cassettes / "agent/chat/broken.json"
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    replay = start_replay()
    with pytest.raises(ReplayControlError, match=f"{path}: not valid JSON"):
        replay.control.open_scope("Broken", FEATURE)


def test_scopes_do_not_nest(start_replay: StartReplay) -> None:
    replay = start_replay()
    replay.control.open_scope("First", FEATURE)
    with pytest.raises(ReplayControlError, match='scenario "First" is still open'):
        replay.control.open_scope("Second", FEATURE)
    replay.control.close_scope()
    with pytest.raises(ReplayControlError, match="no scenario scope is open"):
        replay.control.close_scope()


def test_models_lists_what_the_cassettes_were_recorded_with(start_replay: StartReplay) -> None:
    record(start_replay, "Models", lambda r: ask(r.client(), "hi"))
    assert [model.id for model in start_replay().client().models.list()] == [MODEL]


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
