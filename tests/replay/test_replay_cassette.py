from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.replay.cassette import (
    Cassette,
    CassetteError,
    Entry,
    JsonResponse,
    SseResponse,
    cassette_relpath,
    load_cassette,
    slugify,
    write_cassette,
)
from support.replay.matching import chat_request, http_request, key_of
from support.replay.scrub import scrub_text


def entry(prompt: str = "hello", **response_fields: object) -> Entry:
    request = chat_request({"model": "m", "messages": [{"role": "user", "content": prompt}]}, "default")
    response = JsonResponse(body={"choices": [{"message": {"content": "hi"}}]}, **response_fields)
    return Entry(key=key_of(request), call_site="default", request=request, response=response)


def cassette(*entries: Entry) -> Cassette:
    return Cassette(
        scenario="Ask",
        feature="features/agent/chat.feature",
        recorded_at="2025-03-01T00:00:00+00:00",
        recorded_from="reference-model",
        model="m",
        entries=list(entries),
    )


def test_written_cassette_loads_back_identical(tmp_path: Path) -> None:
    path = tmp_path / "agent" / "chat" / "ask.json"
    original = cassette(entry(), entry("again"))
    write_cassette(path, original)
    assert load_cassette(path) == original
    text = path.read_text()
    assert text.startswith('{\n  "version": 1,\n  "scenario": "Ask",') and text.endswith("}\n")


def test_rewriting_an_unchanged_recording_changes_no_byte(tmp_path: Path) -> None:
    path = tmp_path / "ask.json"
    write_cassette(path, cassette(entry()))
    before = path.read_bytes()
    write_cassette(path, cassette(entry()).model_copy(update={"recorded_at": "2026-12-01T09:00:00+00:00"}))
    assert path.read_bytes() == before  # only the time differs: the file stays as it was
    write_cassette(
        path, cassette(entry("changed")).model_copy(update={"recorded_at": "2026-12-01T09:00:00+00:00"})
    )
    assert load_cassette(path).recorded_at == "2026-12-01T09:00:00+00:00"


def test_scrubbing_applies_to_everything_written(tmp_path: Path) -> None:
    literal = "plain-provider-key-without-a-known-shape"
    search = http_request("post", "/web", [], {"query": "x", "api_key": "tvly-secret"}, "tool:web_search")
    chat = entry()
    leaky = cassette(
        chat.model_copy(
            update={
                "response": JsonResponse(
                    body={
                        "echo": f"called with Bearer {literal} and sk-live-0123456789abcdef",
                        "headers": {
                            "Authorization": "Bearer abcdefghijkl",
                            "Set-Cookie": "sid=cookie-secret",
                            "x-api-key": "k1",
                        },
                        "url": "https://search.example/?q=1&api_key=query-secret",
                        "usage": {"prompt_tokens": 3, "total_tokens": 5},
                    }
                )
            }
        ),
        Entry(
            key=key_of(search),
            call_site="tool:web_search",
            request=search,
            response=SseResponse(chunks=[{"delta": f"token {literal}"}, "[DONE]"]),
        ),
    )
    path = tmp_path / "c.json"
    write_cassette(path, leaky, secrets=(literal,))
    text = path.read_text()
    for secret in (
        literal,
        "sk-live-0123456789abcdef",
        "abcdefghijkl",
        "cookie-secret",
        'k1"',
        "query-secret",
        "tvly-secret",
    ):
        assert secret not in text
    assert '"prompt_tokens": 3' in text  # usage counters are not credentials
    assert load_cassette(path).entries[1].key == key_of(search)


def test_placeholder_keys_are_too_short_to_scrub_as_literals() -> None:
    assert scrub_text("a box of x", ["x"]) == "a box of x"  # a keyless product may send api_key="x"
    assert scrub_text("key=abcdefgh1234", ["abcdefgh1234"]) == "key=<scrubbed>"


def test_a_credential_inside_the_conversation_is_refused_rather_than_written(tmp_path: Path) -> None:
    with pytest.raises(CassetteError, match="credential appears inside a recorded conversation"):
        write_cassette(
            tmp_path / "c.json", cassette(entry("my key is plain-provider-key")), ("plain-provider-key",)
        )
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (
            '{"version": 1,\n  "scenario": "x",,}',
            "not valid JSON: Expecting property name enclosed in double quotes at line 2",
        ),
        ('{"version": 2, "scenario": "x"}', "unsupported version 2"),
        ('{"version": 1, "scenario": "x", "recorded_at": "t"}', "recorded_from: Field required"),
        (
            '{"version": 1, "scenario": "x", "recorded_at": "t", "recorded_from": "r", "entires": []}',
            "entires: Extra inputs are not permitted",
        ),
    ],
)
def test_malformed_cassette_error_names_the_file_and_reason(
    tmp_path: Path, content: str, reason: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CassetteError) as error:
        load_cassette(path)
    assert str(error.value).startswith(f"{path}: ")
    assert reason in str(error.value)


def test_hand_edited_request_with_a_stale_key_fails_with_the_computed_key(tmp_path: Path) -> None:
    path = tmp_path / "edited.json"
    write_cassette(path, cassette(entry("original prompt")))
    data = json.loads(path.read_text())
    data["entries"][0]["request"]["messages"][0]["content"] = "edited prompt"
    path.write_text(json.dumps(data))
    expected = key_of(chat_request({"messages": [{"role": "user", "content": "edited prompt"}]}, "default"))
    with pytest.raises(
        CassetteError, match=f"entries.0: key .* does not match its request \\(computed '{expected}'\\)"
    ):
        load_cassette(path)


def test_missing_cassette_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(CassetteError, match="nope.json: cannot read"):
        load_cassette(tmp_path / "nope.json")


def test_slugify_and_cassette_layout() -> None:
    assert slugify("Stop during a stalled stream (web app)") == "stop-during-a-stalled-stream-web-app"
    assert slugify("Café: 500 → retry!") == "cafe-500-retry"
    assert slugify("???").startswith("scenario-")  # unique: "!!!" gets another
    assert slugify("保存智能体").startswith("保存智能体-")  # not "scenario" for every Chinese name
    for feature in ("features/agent/chat.feature", "agent/chat.feature", "agent/chat"):
        assert str(cassette_relpath(feature, "Ask a question")) == "agent/chat/ask-a-question.json"
    assert str(cassette_relpath(None, "Seed check")) == "seed-check.json"


def test_re_recording_the_same_conversation_leaves_the_file_byte_identical(tmp_path: Path) -> None:
    path = tmp_path / "ask.json"
    write_cassette(path, cassette(entry()))
    before = path.read_bytes()
    write_cassette(path, cassette(entry()).model_copy(update={"recorded_at": "2026-01-01T00:00:00+00:00"}))
    assert path.read_bytes() == before
    # A changed conversation is written, with its new time.
    later = cassette(entry("changed")).model_copy(update={"recorded_at": "2026-01-01T00:00:00+00:00"})
    write_cassette(path, later)
    assert load_cassette(path) == later
