"""The scenario agent's access point through the API: its published URLs, API keys, and the
service API client "that key" opens."""

from __future__ import annotations

from support.api.models import Access
from support.api.service import ServiceApiClient
from support.api_setup.agents import current_agent
from support.api_setup.tracking import gone_on_404
from support.cleanup import ResourceKind
from support.world import World


def published_access(world: World) -> Access:
    """The agent's access state; its URLs exist once it is published."""
    access = world.console.get_agent(current_agent(world).id).access
    assert access.web_app_url and access.service_api_base_url, (
        f"the agent has no access URLs: publish it first ({access!r})"
    )
    return access


def create_api_key(world: World) -> None:
    """A new API key of the agent; "that key" in later steps."""
    agent = current_agent(world)
    created = world.console.create_api_key(agent.id)
    world.agent_builder.access_point.shown_api_key_secret = created.secret
    world.secrets.add(created.secret)
    _track_api_key(world, created.id, created.prefix)


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


def service_api_client(world: World) -> ServiceApiClient:
    """The service API as an integrator holding "that key" calls it."""
    secret = world.agent_builder.access_point.shown_api_key_secret
    assert secret, "no API key exists in this scenario: add 'an API key has been created via API'"
    base_url = published_access(world).service_api_base_url
    assert base_url is not None
    return ServiceApiClient(base_url, secret)
