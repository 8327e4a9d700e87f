"""The scenario agent's access point through the API: its published URLs, its access switches,
API keys, and the service API client "that key" opens."""

from __future__ import annotations

from support.api.models import ApiKey, Model
from support.api.service import ServiceApiClient
from support.api_setup.agents import (
    agent_by_label,
    create_runnable_agent,
    current_agent,
    publish_agent,
    remember_agent,
    remember_public_urls,
    saved_agent,
)
from support.api_setup.tracking import gone_on_404
from support.cleanup import ResourceKind
from support.step_helpers import need
from support.world import PublicUrls, World


def public_urls(world: World) -> PublicUrls:
    """The agent's web app URL and service API base URL, which exist once it is published. Kept
    once read (and at a publish via API), so a scenario can still try them after deleting it."""
    agent = current_agent(world)
    known = world.agent_builder.access_point.public_urls
    if agent.id not in known:
        remember_public_urls(world, saved_agent(world))
    return known[agent.id]


def set_access(
    world: World, *, web_app_enabled: bool | None = None, service_api_enabled: bool | None = None
) -> None:
    """Turn the agent's web app or service API on or off, as another client would."""
    world.console.set_access(
        current_agent(world).id, web_app_enabled=web_app_enabled, service_api_enabled=service_api_enabled
    )


def api_keys(world: World, label: str | None = None) -> list[ApiKey]:
    """The API keys the console lists for "the agent" (or the labelled one)."""
    agent = current_agent(world) if label is None else agent_by_label(world, label)
    return world.console.list_api_keys(agent.id).data


def create_api_key(world: World) -> None:
    """A new API key of the agent: "that key" in later steps."""
    world.agent_builder.access_point.shown_api_key_secret = new_api_key(world)


def create_other_api_key(world: World) -> None:
    """A second API key of the same agent: "the other key" in later steps."""
    world.agent_builder.access_point.other_api_key_secret = new_api_key(world)


def new_api_key(world: World) -> str:
    """A new API key of the agent (tracked for cleanup, redacted from reports); its secret."""
    created = world.console.create_api_key(current_agent(world).id)
    world.secrets.add(created.secret)
    _track_api_key(world, created.id, created.prefix)
    return created.secret


def track_shown_api_key(world: World, secret: str) -> None:
    """Track the key whose secret the page just showed once; "that key" in later steps."""
    world.agent_builder.access_point.shown_api_key_secret = secret
    world.secrets.add(secret)
    agent = current_agent(world)
    (created,) = [
        key for key in world.console.list_api_keys(agent.id).data if secret.startswith(key.masked.rstrip("…"))
    ]
    _track_api_key(world, created.id, created.masked)


def _track_api_key(world: World, key_id: str, label: str) -> None:
    agent_id = current_agent(world).id
    world.track(
        ResourceKind.API_KEY,
        key_id,
        gone_on_404(lambda: world.console.revoke_api_key(agent_id, key_id)),
        label,
    )


def service_api_client(world: World, secret: str | None = None) -> ServiceApiClient:
    """The service API as an integrator holding "that key" (or `secret`) calls it."""
    hint = "no API key exists in this scenario: add 'an API key has been created via API'"
    secret = need(secret or world.agent_builder.access_point.shown_api_key_secret, hint)
    return ServiceApiClient(public_urls(world).service_api, secret)


def another_published_agent_key(world: World, model: Model) -> str:
    """Publish a second runnable agent and return a key of its own; "the agent" stays as it was."""
    agent = current_agent(world)
    create_runnable_agent(world, model, "other")
    publish_agent(world)
    secret = new_api_key(world)
    remember_agent(world, agent, "agent")
    return secret
