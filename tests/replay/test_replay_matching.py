from __future__ import annotations

import json
from typing import Any

import pytest

from support.replay.matching import (
    ChatRequest,
    call_site_of,
    chat_request,
    http_request,
    key_of,
    key_text,
    normalize_text,
)

WEATHER_TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}


def chat(*messages: dict[str, Any], call_site: str = "default", **body: Any) -> ChatRequest:
    return chat_request({"model": "m", "messages": list(messages), **body}, call_site)


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("agent E2E-k3x9q2-w0-support-bot-17 answered", "agent E2E-support-bot answered"),
        ("slug e2e-k3x9q2-gw1-faq-2.", "slug e2e-faq."),
        ("E2E-support-bot stays", "E2E-support-bot stays"),
        ("id 3f2b8c1e-9d4a-4b7e-a1c2-0e9f8d7c6b5a ok", "id <uuid> ok"),
        ("at 2025-03-01T10:22:33.123Z and 2025-03-01 10:22", "at <timestamp> and <timestamp>"),
        ("due 2025-03-01, 2025/03/01 or March 1, 2025", "due <date>, <date> or <date>"),
        ("file /tmp/pytest-of-root/pytest-7/x0/out.txt here", "file <tmp> here"),
        ('"/var/folders/ab/T/tmpq1/w"', '"<tmp>"'),
        ("see http://127.0.0.1:53211/v1 and localhost:8080", "see http://<loopback>/v1 and <loopback>"),
        ("key sk-abcdefghijklmnop and Bearer abc.def.ghi.jkl", "key <scrubbed> and <scrubbed>"),
        ("port 8080 and version 1.2.3 stay", "port 8080 and version 1.2.3 stay"),
    ],
)
def test_normalization_replaces_run_specific_values(raw: str, normalized: str) -> None:
    assert normalize_text(raw) == normalized


def test_keys_are_stable_across_runs_with_different_uuids_dates_ports_and_names() -> None:
    def run(uuid: str, stamp: str, port: int, run_id: str) -> str:
        prompt = f"Summarize {uuid} from {stamp} at http://127.0.0.1:{port}/x for E2E-{run_id}-w1-bot-3 in /tmp/{run_id}"
        return key_of(chat({"role": "user", "content": prompt}))

    first = run("3f2b8c1e-9d4a-4b7e-a1c2-0e9f8d7c6b5a", "2025-03-01T10:00:00Z", 5050, "aaa111")
    second = run("00000000-1111-4222-8333-444444444444", "2026-12-31T23:59:59+02:00", 61234, "zz9")
    assert first == second


def test_system_prompt_is_excluded_from_the_key_but_kept_as_drift_metadata() -> None:
    user = {"role": "user", "content": "hi"}
    old = chat({"role": "system", "content": "You are terse."}, user)
    new = chat({"role": "developer", "content": "You are verbose."}, user)
    assert key_of(old) == key_of(new) == key_of(chat(user))
    assert old.system_prompt_digest != new.system_prompt_digest


def test_tool_arguments_are_keyed_as_canonical_json_and_call_ids_are_ignored() -> None:
    def conversation(arguments: str, call_id: str) -> ChatRequest:
        return chat(
            {"role": "user", "content": "weather?"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": arguments},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": call_id, "content": "21C"},
        )

    compact = conversation('{"city":"Paris","unit":"c"}', "call_1")
    spaced = conversation('{ "unit": "c",\n  "city": "Paris" }', "call_2")
    assert key_of(compact) == key_of(spaced)
    assert key_of(compact) != key_of(conversation('{"city":"Rome","unit":"c"}', "call_1"))


def test_key_text_is_readable_and_names_every_keyed_fact() -> None:
    request = chat(
        {"role": "system", "content": "ignored"},
        {"role": "user", "content": "What is the weather?\nIn Paris."},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "21C"},
        call_site="lead_agent",
        tools=[WEATHER_TOOL],
        tool_choice="auto",
        stream=True,
    )
    assert key_text(request) == (
        "call_site: lead_agent\n"
        "stream: true\n"
        "tools: get_weather\n"
        "tool_choice: auto\n"
        "user: What is the weather?\n"
        "  In Paris.\n"
        'assistant: -> get_weather {"city":"Paris"}\n'
        "tool[get_weather]: 21C"
    )
    assert key_of(request).startswith("lead_agent#") and len(key_of(request).split("#")[1]) == 12


@pytest.mark.parametrize(
    "change",
    [
        {"tools": [WEATHER_TOOL, {"type": "function", "function": {"name": "web_search"}}]},
        {"tool_choice": {"type": "function", "function": {"name": "get_weather"}}},
        {"stream": True},
    ],
)
def test_offered_tool_names_tool_choice_and_stream_are_part_of_the_key(change: dict[str, Any]) -> None:
    user = {"role": "user", "content": "hi"}
    assert key_of(chat(user, tools=[WEATHER_TOOL])) != key_of(
        chat(user, **{"tools": [WEATHER_TOOL], **change})
    )


def test_tool_schemas_and_model_are_metadata_only() -> None:
    user = {"role": "user", "content": "hi"}
    described = {"type": "function", "function": {"name": "get_weather", "description": "Weather now."}}
    base = chat(user, tools=[WEATHER_TOOL])
    edited = chat_request({"model": "other", "messages": [user], "tools": [described]}, "default")
    assert key_of(base) == key_of(edited)
    assert base.tools_digest != edited.tools_digest


def test_message_text_cannot_pose_as_another_message() -> None:
    two_messages = chat({"role": "user", "content": "a"}, {"role": "assistant", "content": "b"})
    one_message = chat({"role": "user", "content": "a\nassistant: b"})
    assert key_of(two_messages) != key_of(one_message)


def test_call_site_comes_from_the_caller_header() -> None:
    assert call_site_of({"x-model-caller": "title"}) == "title"
    assert call_site_of({}) == "default"
    user = {"role": "user", "content": "hi"}
    assert key_of(chat(user, call_site="title")) != key_of(chat(user))


def test_content_parts_are_keyed_by_text_and_kind() -> None:
    parts = [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "data:..."}}]
    assert chat({"role": "user", "content": parts}).messages[0].content == "look\n<image_url>"


def test_http_requests_key_on_method_path_query_and_body_without_credentials() -> None:
    def search(api_key: str, query: str) -> str:
        body = {"query": query, "api_key": api_key}
        return key_of(
            http_request("post", "/web", [("api_key", api_key), ("q", "x")], body, "tool:web_search")
        )

    assert search("tvly-AAAA", "weather") == search("tvly-BBBB", "weather")
    assert search("tvly-AAAA", "weather") != search("tvly-AAAA", "news")
    request = http_request("post", "/web", [("q", "x")], {"query": "w", "api_key": "k"}, "tool:web_search")
    assert (
        key_text(request)
        == 'call_site: tool:web_search\nPOST /web?q=x\nbody: {"api_key":"<scrubbed>","query":"w"}'
    )
    assert json.loads(request.model_dump_json())["kind"] == "http"
