"""A console wired to real chat services, for the chat tests (backend and browser): the reference
model, shellctl and the runtime as processes, a scripted provider in this process (its answers
chosen per test: text, an HTTP error, a stall), and a console process configured with all of
them. Plus the API setup the tests share: publish an agent on a model, create an API key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from support.replay.server import BackgroundServer
from tests.runtime.runtime_testing import ScriptedProvider
from tests.runtime.service_process import PYTHON, agent_builder, service, workspaces_folder

ADMIN = {"email": "chat-tests@example.com", "password": "chat-tests-password"}
REFERENCE_MODEL = "gpt-4o-mini"
SCRIPTED_MODEL = "scripted-chat"
SHELL_TIMEOUT_S = 1
SHELLCTL_TOKEN = "chat-tests-shellctl-token"  # shared by shellctl, the runtime and the console


@dataclass(frozen=True)
class ChatStack:
    console_url: str
    api: httpx.Client  # signed in as the admin (bearer token)
    scripted: ScriptedProvider
    reference_model: dict[str, str]  # {provider_id, name}: the deterministic reference model
    scripted_model: dict[str, str]  # {provider_id, name}: answers from `scripted`'s script
    logs: Path
    shellctl: httpx.Client  # shellctl's own API, with its token


def scripted_provider_app(provider: ScriptedProvider) -> FastAPI:
    """The runtime tests' scripted provider, plus the model list a console validates it with."""
    app = provider.app()

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {"object": "list", "data": [{"id": SCRIPTED_MODEL, "object": "model"}]}

    return app


@contextmanager
def chat_stack(workdir: Path, console_env: dict[str, str] | None = None) -> Iterator[ChatStack]:
    scripted = ScriptedProvider()
    with ExitStack() as stack:
        scripted_url = stack.enter_context(BackgroundServer(scripted_provider_app(scripted))).url
        reference = stack.enter_context(
            service(
                [PYTHON, "-m", "support.replay.reference_model", "--port", "0"],
                "REFERENCE_MODEL_READY",
                workdir / "reference-model.log",
            )
        )
        token = {"AGENT_BUILDER_SHELLCTL_TOKEN": SHELLCTL_TOKEN}
        workspaces = stack.enter_context(workspaces_folder())
        shellctl = stack.enter_context(
            service(
                agent_builder("shellctl", "--port", "0", "--workspaces", str(workspaces)),
                "AGENT_BUILDER_READY",
                workdir / "shellctl.log",
                env=token,
            )
        )
        runtime = stack.enter_context(
            service(
                agent_builder("runtime", "--port", "0", "--shell-timeout", str(SHELL_TIMEOUT_S)),
                "AGENT_BUILDER_READY",
                workdir / "runtime.log",
                env={"AGENT_BUILDER_RUNTIME_RETRY_DELAY_MS": "10", **token},
            )
        )
        console = stack.enter_context(
            service(
                agent_builder("console", "--port", "0", "--db", str(workdir / "console.db")),
                "AGENT_BUILDER_READY",
                workdir / "console.log",
                env={
                    "AGENT_BUILDER_ADMIN_EMAIL": ADMIN["email"],
                    "AGENT_BUILDER_ADMIN_PASSWORD": ADMIN["password"],
                    "AGENT_BUILDER_RUNTIME_URL": runtime.url,
                    "AGENT_BUILDER_SHELLCTL_URL": shellctl.url,
                    "AGENT_BUILDER_PUBLIC_URL": "",
                    "AGENT_BUILDER_INTERNAL_URL": "",  # derived from the bound address
                    **token,
                    **(console_env or {}),
                },
            )
        )
        api = stack.enter_context(httpx.Client(base_url=console.url, timeout=30))
        access = api.post("/console/api/login", json=ADMIN).raise_for_status().json()["access_token"]
        api.headers["Authorization"] = f"Bearer {access}"
        shellctl_api = stack.enter_context(
            httpx.Client(base_url=shellctl.url, headers={"Authorization": f"Bearer {SHELLCTL_TOKEN}"})
        )
        yield ChatStack(
            console_url=console.url,
            api=api,
            scripted=scripted,
            reference_model=active_model(api, "Reference model", reference.url, REFERENCE_MODEL),
            scripted_model=active_model(api, "Scripted model", f"{scripted_url}/v1", SCRIPTED_MODEL),
            logs=workdir,
            shellctl=shellctl_api,
        )


def active_model(api: httpx.Client, name: str, base_url: str, model: str) -> dict[str, str]:
    provider = api.post(
        "/console/api/model-providers", json={"name": name, "base_url": base_url, "api_key": "sk-chat-tests"}
    ).raise_for_status()
    assert provider.json()["status"] == "active", provider.json()
    model_id = next(item["id"] for item in provider.json()["models"] if item["name"] == model)
    provider_id = provider.json()["id"]
    api.patch(
        f"/console/api/model-providers/{provider_id}/models/{model_id}", json={"active": True}
    ).raise_for_status()
    return {"provider_id": provider_id, "name": model}


def publish_agent(api: httpx.Client, model: dict[str, str], name: str = "Chat agent", **config: Any) -> dict:
    """A published agent on `model` (config fields override the defaults); returns AgentDetail."""
    agent = api.post("/console/api/agents", json={"name": name}).raise_for_status().json()
    draft = agent["draft"]
    body = {
        "revision": draft["revision"],
        "config": {**draft["config"], "instructions": "You are a test agent.", "model": model, **config},
    }
    api.put(f"/console/api/agents/{agent['id']}/draft", json=body).raise_for_status()
    api.post(f"/console/api/agents/{agent['id']}/publish").raise_for_status()
    return api.get(f"/console/api/agents/{agent['id']}").raise_for_status().json()


def api_key(api: httpx.Client, agent: dict) -> dict[str, str]:
    """Service API headers with a new key of `agent`."""
    secret = (
        api.post(f"/console/api/agents/{agent['id']}/api-keys", json={}).raise_for_status().json()["secret"]
    )
    return {"Authorization": f"Bearer {secret}"}


def site_token(agent: dict) -> str:
    return agent["access"]["web_app_url"].rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Event:
    name: str
    data: Any


def read_events(lines: Iterator[str]) -> Iterator[Event]:
    """Server-sent events from a response's lines, as they arrive."""
    name, data = "", []
    for line in lines:
        if line.startswith("event: "):
            name = line.removeprefix("event: ")
        elif line.startswith("data: "):
            data.append(line.removeprefix("data: "))
        elif not line and name:
            yield Event(name, json.loads("\n".join(data)))
            name, data = "", []
