"""Scenario scopes end to end: record, then replay call for call; misses, leftovers, keys."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import openai
import pytest

from support.replay.cassette import JsonResponse, SseResponse, load_cassette
from support.replay.control import ReplayControlError
from tests.fakes.upstream import MODEL, FakeUpstream

from .conftest import UPSTREAM_KEY, Replay
from .model_calls import FEATURE, StartReplay, agent_turn, ask, record


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_record_then_replay_is_identical_and_replay_never_calls_upstream(
    start_replay: StartReplay, fake_upstream: FakeUpstream, cassettes: Path, stream: bool
) -> None:
    recorded = record(start_replay, "Weather question", lambda r: agent_turn(r.client(), stream=stream))
    assert len(fake_upstream.calls("/v1/chat/completions")) == 2
    assert all(seen.headers["authorization"] == f"Bearer {UPSTREAM_KEY}" for seen in fake_upstream.seen)
    if stream:  # the tool call really was streamed in pieces, and is replayed so
        assert (
            sum(bool(c["choices"] and c["choices"][0]["delta"].get("tool_calls")) for c in recorded[0]) == 3
        )

    fake_upstream.seen.clear()
    replay = start_replay("replay")
    opened = replay.control.open_scope("Weather question", FEATURE)
    assert opened["entries"] == 2
    replayed = agent_turn(replay.client(), stream=stream)
    report = replay.control.close_scope()

    assert replayed == recorded
    assert report.ok, report.problems_text()
    assert fake_upstream.seen == []
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


def test_a_call_with_another_system_prompt_is_served_and_reported_as_prompt_drift(
    start_replay: StartReplay,
) -> None:
    def support_code(replay: Replay, code: str) -> Any:
        return ask(replay.client(), "What are your instructions?", system=f"Your support code is {code}.")

    record(start_replay, "Instructions", lambda r: support_code(r, "E2E-CODE-4711"))
    replay = start_replay()
    replay.control.open_scope("Instructions", FEATURE)
    support_code(replay, "E2E-CODE-4711")
    assert replay.control.close_scope().prompt_drift == []

    replay.control.open_scope("Instructions", FEATURE)
    support_code(replay, "{{env.SUPPORT_CODE}}")  # served all the same: the prompt is not keyed
    report = replay.control.close_scope()
    assert report.ok, report.problems_text()
    [drift] = report.prompt_drift
    assert drift.call == 0 and drift.key.startswith("default#")
    assert drift.recorded_digest and drift.sent_digest and drift.recorded_digest != drift.sent_digest


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
