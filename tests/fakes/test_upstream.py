"""The fake upstream answers as its script says, then as the echo model, streamed or not, and
records what it was sent: the tests that lean on it are only as good as this."""

from __future__ import annotations

import httpx
from openai import OpenAI

from tests.fakes.upstream import MODEL, CallTool, FakeUpstream, Raw, Stall, Status, Text

HELLO = [{"role": "user", "content": "hello"}]


def _client(upstream: FakeUpstream) -> OpenAI:
    return OpenAI(base_url=upstream.base_url, api_key="sk-any", max_retries=0, timeout=10)


def test_script_first_then_the_echo_model_streamed_or_not(fake_upstream: FakeUpstream) -> None:
    client = _client(fake_upstream)
    fake_upstream.reply(Text("Scripted answer."), CallTool("get_weather", {"city": "Oslo"}))
    plain = client.chat.completions.create(model=MODEL, messages=HELLO)
    assert plain.choices[0].message.content == "Scripted answer."
    chunks = list(client.chat.completions.create(model=MODEL, messages=HELLO, stream=True))
    fragments = [
        call.function.arguments for chunk in chunks for call in chunk.choices[0].delta.tool_calls or []
    ]
    assert "".join(fragment or "" for fragment in fragments) == '{"city": "Oslo"}'
    assert chunks[-1].choices[0].finish_reason == "tool_calls"
    streamed = client.chat.completions.create(model=MODEL, messages=HELLO, stream=True)
    assert "".join(chunk.choices[0].delta.content or "" for chunk in streamed) == "You said: hello "
    assert [seen.body.get("stream", False) for seen in fake_upstream.calls("/v1/chat")] == [False, True, True]


def test_errors_raw_answers_and_a_refused_key(fake_upstream: FakeUpstream) -> None:
    fake_upstream.reply(Status(503, "overloaded"), Raw(b"not json"))
    body = {"model": MODEL, "messages": HELLO}
    failed = httpx.post(f"{fake_upstream.base_url}/chat/completions", json=body)
    assert (failed.status_code, failed.json()["error"]["message"]) == (503, "overloaded")
    assert httpx.post(f"{fake_upstream.base_url}/chat/completions", json=body).content == b"not json"

    fake_upstream.api_key, fake_upstream.refusal = "sk-right", "Wrong key: {authorization}"
    refused = httpx.get(f"{fake_upstream.base_url}/models", headers={"Authorization": "Bearer sk-wrong"})
    assert (refused.status_code, refused.json()["error"]["message"]) == (401, "Wrong key: Bearer sk-wrong")
    listed = httpx.get(f"{fake_upstream.base_url}/models", headers={"Authorization": "Bearer sk-right"})
    assert [model["id"] for model in listed.json()["data"]] == [MODEL]
    assert [seen.path for seen in fake_upstream.seen] == ["/v1/chat/completions"] * 2 + ["/v1/models"] * 2


def test_a_stall_streams_its_start_and_notices_the_client_leave(fake_upstream: FakeUpstream) -> None:
    fake_upstream.reply(Stall("Once upon"))
    with _client(fake_upstream).chat.completions.create(model=MODEL, messages=HELLO, stream=True) as stream:
        text = ""
        for chunk in stream:
            text += chunk.choices[0].delta.content or ""
            if text == "Once upon ":
                break
    assert fake_upstream.disconnected.wait(5), "the stall did not see the client go"


def test_a_transcription_is_scripted_or_counts_the_bytes(fake_upstream: FakeUpstream) -> None:
    files = {"file": ("clip.wav", b"RIFF1234", "audio/wav")}
    url = f"{fake_upstream.base_url}/audio/transcriptions"
    fake_upstream.reply(Text("Scripted words"))
    assert httpx.post(url, data={"model": "whisper-1"}, files=files).json() == {"text": "Scripted words"}
    assert (
        httpx.post(url, data={"model": "whisper-1"}, files=files).json()["text"].startswith("heard 8 bytes")
    )
    (first, _) = fake_upstream.calls("/v1/audio")
    assert first.body == {"fields": {"model": "whisper-1"}, "file": ("clip.wav", "audio/wav", b"RIFF1234")}


def test_the_models_listing_and_search_answer_as_set(fake_upstream: FakeUpstream) -> None:
    fake_upstream.models = ["a-model"]
    listed = httpx.get(f"{fake_upstream.base_url}/models")
    assert [model["id"] for model in listed.json()["data"]] == ["a-model"]
    found = httpx.post(f"{fake_upstream.url}/search/web", json={"query": "tides"})
    assert found.json()["results"][0]["title"] == "Result for tides"

    fake_upstream.models_answer = Raw(b'{"error": "down"}', 503)
    fake_upstream.search_answer = Raw(b'{"message": "no quota"}', 429)
    refused = httpx.get(f"{fake_upstream.base_url}/models")
    assert (refused.status_code, refused.content) == (503, b'{"error": "down"}')
    limited = httpx.post(f"{fake_upstream.url}/search/web", json={"query": "tides"})
    assert (limited.status_code, limited.json()) == (429, {"message": "no quota"})
    assert [seen.path for seen in fake_upstream.seen] == ["/v1/models", "/search/web"] * 2
