from __future__ import annotations

import re
import socket
from typing import Any

import pytest
from api_shortcuts import CHAT_MODEL, PROVIDER_KEY, assert_error
from fastapi.testclient import TestClient

from agent_builder.console.services import providers
from agent_builder.console.services.masking import mask_secret
from tests.fakes.upstream import FakeUpstream, Raw

BASE = "/console/api/model-providers"


def _create(client: TestClient, fake: FakeUpstream, **overrides: Any) -> Any:
    return client.post(
        BASE, json={"name": "Fake", "base_url": fake.base_url, "api_key": PROVIDER_KEY, **overrides}
    )


def test_valid_provider_is_active_with_its_chat_models_inactive(
    client: TestClient, fake_provider: FakeUpstream
) -> None:
    response = _create(client, fake_provider)
    assert response.status_code == 201, response.text
    provider = response.json()
    assert provider["status"] == "active" and provider["error"] is None and provider["validated_at"]
    assert [m["name"] for m in provider["models"]] == [
        "gpt-4.1",
        CHAT_MODEL,
    ]  # embeddings are not chat models
    assert all(m["active"] is False and m["provider_name"] == "Fake" for m in provider["models"])
    # The validation was a real call with the key as a bearer token.
    assert [call.headers["authorization"] for call in fake_provider.seen] == [f"Bearer {PROVIDER_KEY}"]


def test_model_ids_that_are_empty_or_too_long_are_left_out(
    client: TestClient, fake_provider: FakeUpstream
) -> None:
    fake_provider.models = [CHAT_MODEL, "", "m" * 200, "m" * 201]
    provider = _create(client, fake_provider).json()
    assert sorted(m["name"] for m in provider["models"]) == sorted([CHAT_MODEL, "m" * 200])


def test_the_key_is_never_returned(client: TestClient, fake_provider: FakeUpstream) -> None:
    provider = _create(client, fake_provider).json()
    assert provider["api_key_masked"] == "…cdef"
    for response in (
        client.get(BASE),
        client.get(f"{BASE}/{provider['id']}"),
        client.get("/console/api/models"),
    ):
        assert PROVIDER_KEY not in response.text


def test_rejected_key_makes_the_provider_invalid_with_its_status_and_a_generic_reason(
    client: TestClient, fake_provider: FakeUpstream
) -> None:
    provider = _create(client, fake_provider, api_key="sk-wrong-key-000000").json()
    assert provider["status"] == "invalid"
    # Not the provider's words ("Incorrect API key provided"): the URL may be any service.
    assert provider["error"] == "HTTP 401: the provider refused the API key."
    assert provider["models"] == []


def test_unreachable_provider_is_invalid_not_an_error(client: TestClient) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once we leave: nothing listens there
    response = client.post(
        BASE, json={"name": "Down", "base_url": f"http://127.0.0.1:{port}/v1", "api_key": PROVIDER_KEY}
    )
    assert response.status_code == 201
    assert response.json()["status"] == "invalid"
    assert response.json()["error"] == "connection refused"


def test_broken_provider_answers_are_reported(client: TestClient, fake_provider: FakeUpstream) -> None:
    for index, (status, body, error) in enumerate(
        [
            (500, b"<html>upstream exploded</html>", "HTTP 500: the provider failed. Try again later."),
            (502, b"", "HTTP 502: the provider failed. Try again later."),
            (404, b"Not here", "HTTP 404: no model list at this base URL (GET /models). Check the URL."),
            (429, b"slow down", "HTTP 429: too many requests. Try again later."),
            (400, b"bad", "HTTP 400: the provider refused the request."),
            (200, b"not json", "invalid response: the body is not JSON"),
            (200, b'{"models": []}', 'invalid response: expected a JSON object with a "data" list of models'),
        ]
    ):
        fake_provider.models_answer = Raw(body, status)
        provider = _create(client, fake_provider, name=f"Broken {index}").json()
        assert (provider["status"], provider["error"]) == ("invalid", error)


def test_slow_provider_times_out(
    client: TestClient, fake_provider: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(providers, "VALIDATION_TIMEOUT_SECONDS", 0.2)
    fake_provider.models_delay_s = 1.0
    provider = _create(client, fake_provider).json()
    assert (provider["status"], provider["error"]) == ("invalid", "timed out after 0.2 s")


def test_activation_and_model_listing(client: TestClient, fake_provider: FakeUpstream) -> None:
    provider = _create(client, fake_provider).json()
    model = next(m for m in provider["models"] if m["name"] == CHAT_MODEL)
    response = client.patch(f"{BASE}/{provider['id']}/models/{model['id']}", json={"active": True})
    assert response.status_code == 200
    assert response.json() == {**model, "active": True}
    active = client.get("/console/api/models", params={"active": "true"}).json()["data"]
    assert [m["name"] for m in active] == [CHAT_MODEL]
    assert len(client.get("/console/api/models").json()["data"]) == 2
    inactive = client.get("/console/api/models", params={"active": "false"}).json()["data"]
    assert [m["name"] for m in inactive] == ["gpt-4.1"]


def test_revalidation_keeps_activation_adds_new_models_and_drops_vanished_ones(
    client: TestClient, fake_provider: FakeUpstream
) -> None:
    provider = _create(client, fake_provider).json()
    model = next(m for m in provider["models"] if m["name"] == CHAT_MODEL)
    client.patch(f"{BASE}/{provider['id']}/models/{model['id']}", json={"active": True})
    fake_provider.models = [CHAT_MODEL, "gpt-5"]
    revalidated = client.post(f"{BASE}/{provider['id']}/validate").json()
    assert {m["name"]: m["active"] for m in revalidated["models"]} == {CHAT_MODEL: True, "gpt-5": False}
    # A failed validation marks the provider invalid but forgets nothing.
    fake_provider.models_answer = Raw(b"", 503)
    failed = client.post(f"{BASE}/{provider['id']}/validate").json()
    assert failed["status"] == "invalid" and failed["error"].startswith("HTTP 503")
    assert failed["models"] == revalidated["models"]


def test_patch_revalidates_with_the_new_key(client: TestClient, fake_provider: FakeUpstream) -> None:
    provider = _create(client, fake_provider, api_key="sk-wrong-key-000000").json()
    assert provider["status"] == "invalid"
    response = client.patch(f"{BASE}/{provider['id']}", json={"api_key": PROVIDER_KEY, "name": "Renamed"})
    assert response.status_code == 200
    assert response.json()["status"] == "active" and response.json()["name"] == "Renamed"
    assert response.json()["api_key_masked"] == "…cdef"
    # Name-only patches keep the stored key.
    assert client.patch(f"{BASE}/{provider['id']}", json={"name": "Again"}).json()["status"] == "active"


def test_duplicate_names_conflict(client: TestClient, fake_provider: FakeUpstream) -> None:
    first = _create(client, fake_provider).json()
    assert_error(_create(client, fake_provider), 409, "name_taken")
    second = _create(client, fake_provider, name="Other").json()
    calls = len(fake_provider.seen)
    assert_error(client.patch(f"{BASE}/{second['id']}", json={"name": first["name"]}), 409, "name_taken")
    assert len(fake_provider.seen) == calls  # refused before the provider is called with the key
    assert [p["name"] for p in client.get(BASE).json()["data"]] == ["Fake", "Other"]


def test_bad_provider_input_is_422(client: TestClient, fake_provider: FakeUpstream) -> None:
    for overrides, field in (
        ({"base_url": "ftp://example.com"}, "base_url"),
        ({"base_url": "example.com/v1"}, "base_url"),
        ({"base_url": "http://"}, "base_url"),
        ({"base_url": "http://[::1"}, "base_url"),
        ({"name": "   "}, "name"),
        ({"api_key": ""}, "api_key"),
        ({"api_key": "sk with spaces"}, "api_key"),
        ({"api_key": "sk-ключ"}, "api_key"),
        ({"extra": 1}, "extra"),
    ):
        body = assert_error(_create(client, fake_provider, **overrides), 422, "invalid_request")
        assert body["errors"][0]["field"] == field, (overrides, body)
    assert client.get(BASE).json()["data"] == []
    assert fake_provider.seen == []  # nothing invalid was sent anywhere


def test_delete_removes_provider_and_models(client: TestClient, fake_provider: FakeUpstream) -> None:
    provider = _create(client, fake_provider).json()
    assert client.delete(f"{BASE}/{provider['id']}").status_code == 204
    assert_error(client.get(f"{BASE}/{provider['id']}"), 404, "not_found")
    assert client.get("/console/api/models").json()["data"] == []
    assert_error(client.delete(f"{BASE}/{provider['id']}"), 404, "not_found")


def test_unknown_ids_are_404(client: TestClient, fake_provider: FakeUpstream) -> None:
    provider = _create(client, fake_provider).json()
    assert_error(client.post(f"{BASE}/nope/validate"), 404, "not_found")
    assert_error(client.patch(f"{BASE}/nope", json={"name": "x"}), 404, "not_found")
    assert_error(
        client.patch(f"{BASE}/{provider['id']}/models/nope", json={"active": True}), 404, "not_found"
    )


@pytest.mark.parametrize(
    ("secret", "masked"),
    [
        ("sk-proj-abcdefghijklmnopq9Qa", "sk-…q9Qa"),  # 28: its kind and last 4
        ("sk-abcdefghijkl9Qa", "…l9Qa"),  # 18
        ("sk-abcdefghi", "…hi"),  # 12: issue 25, item 10 (it used to show 7 of the 12)
        ("abcdefgh", "…gh"),
        ("abcdefg", "…"),
        ("abc", "…"),
        ("", "…"),
    ],
)
def test_mask_secret_never_shows_more_than_a_quarter(secret: str, masked: str) -> None:
    assert mask_secret(secret) == masked
    assert len(masked.replace("…", "")) <= len(secret) // 4


def test_an_internal_services_answer_is_never_echoed(client: TestClient, fake_provider: FakeUpstream) -> None:
    # Seen: a base URL at shellctl or the console itself showed their 401 bodies on the provider.
    fake_provider.models_answer = Raw(b'{"code": "unauthorized", "message": "internal detail 4242"}', 401)
    provider = _create(client, fake_provider).json()
    assert provider["error"] == "HTTP 401: the provider refused the API key."
    assert "internal detail" not in client.get(BASE).text


@pytest.mark.parametrize(
    "moved",
    [
        lambda url: url.replace("127.0.0.1", "localhost"),  # another host
        lambda url: re.sub(r":[0-9]+/", ":9/", url),  # another port
        lambda url: url.replace("http://", "https://"),  # another scheme
    ],
    ids=["host", "port", "scheme"],
)
def test_moving_a_provider_to_another_host_needs_its_key_again(
    client: TestClient, fake_provider: FakeUpstream, moved: Any
) -> None:
    provider = _create(client, fake_provider).json()
    fake_provider.seen.clear()
    elsewhere = moved(fake_provider.base_url)
    # Seen: PATCH {"base_url": <a listener>} alone sent the stored key there.
    body = assert_error(
        client.patch(f"{BASE}/{provider['id']}", json={"base_url": elsewhere}), 422, "invalid_request"
    )
    assert body["errors"][0]["field"] == "api_key" and body["message"].startswith(
        "api_key: Enter the key again"
    )
    assert fake_provider.seen == []  # nothing went anywhere
    assert client.get(f"{BASE}/{provider['id']}").json() == provider  # and nothing changed


def test_a_provider_moved_with_its_key_given_again_or_within_its_host_is_saved(
    client: TestClient, fake_provider: FakeUpstream
) -> None:
    provider = _create(client, fake_provider).json()
    other_host = fake_provider.base_url.replace("127.0.0.1", "localhost")
    moved = client.patch(f"{BASE}/{provider['id']}", json={"base_url": other_host, "api_key": PROVIDER_KEY})
    assert moved.status_code == 200 and moved.json()["base_url"] == other_host
    assert moved.json()["status"] == "active"
    # Another path on the same host (scheme, host and port) keeps the stored key.
    fake_provider.seen.clear()
    same_host = other_host.removesuffix("/v1") + "/elsewhere"
    kept = client.patch(f"{BASE}/{provider['id']}", json={"base_url": same_host})
    assert kept.status_code == 200 and kept.json()["base_url"] == same_host
    assert [(seen.path, seen.headers["authorization"]) for seen in fake_provider.seen] == [
        ("/elsewhere/models", f"Bearer {PROVIDER_KEY}")
    ]


@pytest.mark.parametrize(
    "base_url",
    [
        "http://" + "a" * 1000 + ".example/v1",  # one name of 1,000 characters (schemathesis: a 500)
        "http://" + "a." * 500 + "example/v1",  # 1,000+ characters of short names
        "http://a..example/v1",  # an empty name
        "http://example.com/" + "p" * 2000,  # over 2,000 characters in all
    ],
    ids=["long-label", "long-host", "empty-label", "long-url"],
)
def test_a_base_url_dns_cannot_have_is_a_422_naming_base_url(
    client: TestClient, fake_provider: FakeUpstream, base_url: str
) -> None:
    provider = _create(client, fake_provider).json()
    fake_provider.seen.clear()
    for response in (
        client.patch(f"{BASE}/{provider['id']}", json={"base_url": base_url, "api_key": PROVIDER_KEY}),
        _create(client, fake_provider, name="Long", base_url=base_url),
    ):
        body = assert_error(response, 422, "invalid_request")
        assert body["errors"][0]["field"] == "base_url", body
    assert fake_provider.seen == []
