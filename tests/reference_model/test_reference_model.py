"""The reference model: the official openai SDK works against it (streamed and not), its rules
are the documented ones, and the same request always gets the same bytes."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from openai import NotFoundError, OpenAI

from support.replay.reference_rules import answer, proposal
from support.replay.tone_audio import encode
from tests.product_services import reference_model

SHELL_TOOL = {
    "type": "function",
    "function": {
        "name": "sandbox_shell",
        "parameters": {
            "type": "object",
            "properties": {"command": {"type": "string"}},
            "required": ["command"],
        },
    },
}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with reference_model(tmp_path_factory.mktemp("reference-model") / "reference-model.log") as service:
        yield service.url


@pytest.fixture
def client(base_url: str) -> OpenAI:
    return OpenAI(base_url=base_url, api_key="any-key", max_retries=0, timeout=10)


def test_models_lists_the_chat_and_speech_models(client: OpenAI) -> None:
    assert [model.id for model in client.models.list()] == ["gpt-4o-mini", "gpt-4o", "whisper-1"]


def test_non_streaming_echo(client: OpenAI) -> None:
    completion = client.chat.completions.create(
        model="gpt-4o-mini", messages=[{"role": "user", "content": "hello there"}]
    )
    assert completion.choices[0].message.content == "You said: hello there"
    assert completion.choices[0].finish_reason == "stop"
    assert completion.usage is not None and completion.usage.total_tokens > 0


def test_streaming_arrives_in_several_chunks_with_usage(client: OpenAI) -> None:
    stream = client.chat.completions.create(
        model="gpt-4o",
        messages=[
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "reply with exactly: one two three four five six seven"},
        ],
        stream=True,
        stream_options={"include_usage": True},
    )
    pieces, usage = [], None
    for chunk in stream:
        usage = chunk.usage or usage
        pieces += [choice.delta.content for choice in chunk.choices if choice.delta.content]
    assert "".join(pieces) == "one two three four five six seven"
    assert len(pieces) >= 3
    assert usage is not None and usage.completion_tokens == 7


def test_streamed_tool_call_is_split_like_openai(client: OpenAI) -> None:
    stream = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[{"role": "user", "content": "Please run the command `echo hello-sandbox` for me."}],
        tools=[SHELL_TOOL],
        stream=True,
    )
    names, argument_pieces, finish = [], [], None
    for chunk in stream:
        for choice in chunk.choices:
            finish = choice.finish_reason or finish
            for call in choice.delta.tool_calls or []:
                names += [call.function.name] if call.function and call.function.name else []
                argument_pieces += (
                    [call.function.arguments] if call.function and call.function.arguments else []
                )
    assert names == ["sandbox_shell"]
    assert len(argument_pieces) >= 2
    assert json.loads("".join(argument_pieces)) == {"command": "echo hello-sandbox"}
    assert finish == "tool_calls"


def test_non_streaming_tool_call(client: OpenAI) -> None:
    completion = client.chat.completions.create(
        model="gpt-4o", messages=[{"role": "user", "content": "run the command `date`"}], tools=[SHELL_TOOL]
    )
    choice = completion.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.tool_calls is not None
    (call,) = choice.message.tool_calls
    assert (call.function.name, json.loads(call.function.arguments)) == ("sandbox_shell", {"command": "date"})


def test_tool_result_is_reported_back(client: OpenAI) -> None:
    completion = client.chat.completions.create(
        model="gpt-4o-mini",
        messages=[
            {"role": "user", "content": "run the command `echo hi`"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "sandbox_shell", "arguments": "{}"},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "  hi\n"},
        ],
        tools=[SHELL_TOOL],
    )
    assert completion.choices[0].message.content == "Tool sandbox_shell returned: hi"


def test_same_request_same_bytes(base_url: str) -> None:
    body = {
        "model": "gpt-4o",
        "stream": True,
        "stream_options": {"include_usage": True},
        "messages": [{"role": "user", "content": "run the command `ls -la`"}],
        "tools": [SHELL_TOOL],
    }
    headers = {"Authorization": "Bearer k"}
    first, second = (
        httpx.post(f"{base_url}/chat/completions", json=body, headers=headers).content for _ in range(2)
    )
    assert first == second
    assert b"call_ref" in first


def test_missing_key_is_a_provider_style_401(base_url: str) -> None:
    response = httpx.post(f"{base_url}/chat/completions", json={"model": "gpt-4o", "messages": []})
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "invalid_api_key"
    wrong_scheme = httpx.get(f"{base_url}/models", headers={"Authorization": "Basic abc"})
    assert wrong_scheme.status_code == 401


def test_unknown_model_is_404(client: OpenAI) -> None:
    with pytest.raises(NotFoundError):
        client.chat.completions.create(model="gpt-5", messages=[{"role": "user", "content": "hi"}])


def test_search_endpoint_is_deterministic(base_url: str) -> None:
    headers = {"Authorization": "Bearer k"}
    first = httpx.post(f"{base_url}/search", json={"query": "agent builders"}, headers=headers)
    assert first.status_code == 200
    assert first.json()["results"][0]["title"] == "agent builders (1)"
    assert (
        httpx.post(f"{base_url}/search", json={"query": "agent builders"}, headers=headers).json()
        == first.json()
    )
    assert httpx.post(f"{base_url}/search", json={"query": "x"}).status_code == 401


def _user(text: str) -> list[dict]:
    return [{"role": "user", "content": text}]


@pytest.mark.parametrize(
    ("text", "tool", "arguments"),
    [
        ("Search the knowledge base for the E2E token.", "knowledge_search", {"query": "the E2E token"}),
        ("please search the web for agent builders?", "web_search", {"query": "agent builders"}),
        (
            'set a.b[0] to 42 in this JSON: {"a": {"b": [1, 2]}}',
            "json_replace",
            {"json": '{"a": {"b": [1, 2]}}', "path": "a.b[0]", "value": "42"},
        ),
    ],
)
def test_tool_rules(text: str, tool: str, arguments: dict) -> None:
    all_tools = {"sandbox_shell", "json_replace", "knowledge_search", "web_search"}
    reply = answer(_user(text), all_tools)
    assert reply.tool_call is not None
    assert (reply.tool_call.name, reply.tool_call.arguments) == (tool, arguments)
    assert answer(_user(text), all_tools - {tool}).text == f"You said: {text}"  # not offered: no call


def test_tool_results_are_trimmed_to_500_characters() -> None:
    messages = [
        *_user("x"),
        {"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "web_search"}}]},
        {"role": "tool", "tool_call_id": "c", "content": "y" * 900},
    ]
    assert answer(messages, set()).text == "Tool web_search returned: " + "y" * 500


def test_text_parts_count_as_the_user_message() -> None:
    content = [{"type": "text", "text": "reply with exactly: "}, {"type": "text", "text": "PONG"}]
    assert answer([{"role": "user", "content": content}], set()).text == "PONG"


def test_asked_for_its_instructions_it_repeats_the_system_message() -> None:
    system = {"role": "system", "content": "Your support code is E2E-CODE-4711."}
    question = _user("What are your instructions?")
    assert answer([system, *question], set()).text == "My instructions: Your support code is E2E-CODE-4711."
    assert answer(question, set()).text == "My instructions: (none)"


def test_a_tone_coded_recording_is_transcribed_from_its_samples(client: OpenAI, base_url: str) -> None:
    audio = encode("What is the refund window?")
    result = client.audio.transcriptions.create(model="whisper-1", file=("voice.wav", audio, "audio/wav"))
    assert result.text == "What is the refund window?"
    headers = {"Authorization": "Bearer k"}
    webm = httpx.post(
        f"{base_url}/audio/transcriptions",
        headers=headers,
        files={"file": ("voice.webm", b"\x1aE\xdf\xa3 not a wav", "audio/webm")},
        data={"model": "whisper-1"},
    )
    assert (webm.status_code, webm.json()["error"]["code"]) == (400, "unsupported_audio")
    wrong_model = httpx.post(
        f"{base_url}/audio/transcriptions",
        headers=headers,
        files={"file": ("v.wav", audio)},
        data={"model": "gpt-4o"},
    )
    assert wrong_model.status_code == 404


def test_the_build_assistant_gets_a_proposal_built_from_the_description() -> None:
    description = (
        'A station concierge that answers in two sentences. Greet visitors with "Welcome aboard." '
        'Offer "Where is Ring 7?" and "When is dinner?". Use `knowledge_search` and `holo_deck`. '
        'Attach the knowledge "e2e-seed-ready-knowledge" and "Old logs". '
        'Add the skill "dock-times" that lists the docking times. Add the skill "menu" that reads the menu!'
    )
    assert proposal(description) == {
        "instructions": "A station concierge that answers in two sentences.",
        "opening_statement": "Welcome aboard.",
        "suggested_questions": ["Where is Ring 7?", "When is dinner?"],
        "tools": ["knowledge_search", "holo_deck"],
        "knowledge": ["e2e-seed-ready-knowledge", "Old logs"],
        "skills": [
            {
                "name": "dock-times",
                "description": "Lists the docking times.",
                "instructions": "# dock-times\n\nLists the docking times.",
            },
            {"name": "menu", "description": "Reads the menu!", "instructions": "# menu\n\nReads the menu!"},
        ],
    }
    assert proposal("Just a helper.") == {"instructions": "Just a helper."}  # the rest is left alone
    reply = answer(_user(description), {"propose_draft"})
    assert reply.tool_call is not None and reply.tool_call.name == "propose_draft"
    assert reply.tool_call.arguments == proposal(description)
