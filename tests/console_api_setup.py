"""API setup that the tests of a running console share, over HTTP as its admin: sign in, register
a provider with one of its models active, publish an agent on it, create an API key, index a
document."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]

import httpx

from support.api.console import sign_in
from support.api.polling import poll_until


def signed_in(console_url: str, email: str, password: str, timeout_s: float = 30) -> httpx.Client:
    """An API client with the admin's bearer token (no session cookie)."""
    token = sign_in(console_url, email, password)
    return httpx.Client(base_url=console_url, headers={"Authorization": f"Bearer {token}"}, timeout=timeout_s)


def activate_model(api: httpx.Client, name: str, base_url: str, model: str, key: str) -> dict[str, str]:
    """Registers the provider at `base_url` as `name` and activates its `model`: `{provider_id, name}`."""
    provider = (
        api.post("/console/api/model-providers", json={"name": name, "base_url": base_url, "api_key": key})
        .raise_for_status()
        .json()
    )
    assert provider["status"] == "active", provider
    model_id = next(item["id"] for item in provider["models"] if item["name"] == model)
    api.patch(
        f"/console/api/model-providers/{provider['id']}/models/{model_id}", json={"active": True}
    ).raise_for_status()
    return {"provider_id": provider["id"], "name": model}


def publish_agent(api: httpx.Client, model: dict[str, str], name: str = "Chat agent", **config: Any) -> Json:
    """A published agent on `model` (config fields override the defaults); returns AgentDetail."""
    agent = api.post("/console/api/agents", json={"name": name}).raise_for_status().json()
    draft = agent["draft"]
    body = {
        "revision": draft["revision"],
        "config": {**draft["config"], "instructions": "You are a test agent.", "model": model, **config},
    }
    api.put(f"/console/api/agents/{agent['id']}/draft", json=body).raise_for_status()
    api.post(f"/console/api/agents/{agent['id']}/publish").raise_for_status()
    published: Json = api.get(f"/console/api/agents/{agent['id']}").raise_for_status().json()
    return published


def api_key(api: httpx.Client, agent: Json) -> dict[str, str]:
    """Service API headers with a new key of `agent`."""
    secret = (
        api.post(f"/console/api/agents/{agent['id']}/api-keys", json={}).raise_for_status().json()["secret"]
    )
    return {"Authorization": f"Bearer {secret}"}


def site_token(agent: Json) -> str:
    web_app_url: str = agent["access"]["web_app_url"]
    return web_app_url.rsplit("/", 1)[-1]


def indexed_document(
    api: httpx.Client, dataset_name: str, filename: str, content: bytes
) -> tuple[Json, Json]:
    """A new dataset holding one document, once its indexing completed: (Dataset, Document)."""
    dataset = api.post("/console/api/datasets", json={"name": dataset_name}).raise_for_status().json()
    files = {"file": (filename, content)}
    document = api.post(f"/console/api/datasets/{dataset['id']}/documents", files=files).raise_for_status()
    url = f"/console/api/datasets/{dataset['id']}/documents/{document.json()['id']}"
    indexed = poll_until(
        lambda: api.get(url).raise_for_status().json(),
        lambda found: found["indexing_status"] == "completed",
        timeout_s=10,
        interval_s=0.05,
        failure=lambda found: f"indexing did not complete: {found}",
    )
    return dataset, indexed
