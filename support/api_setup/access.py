"""The scenario agent's access point through the API: its published URLs, its access switches,
API keys, and the service API client "that key" opens."""

from __future__ import annotations

from support.api.models import ApiKey, MessageEndEvent, Model
from support.api.public_routes import Answer, VisitorConversation, integrator_request, visitor_request
from support.api.seeding_router import SeededConversation
from support.api.service import END_USER, ServiceApiClient, ServiceApiError
from support.api_setup.agents import (
    agent_by_label,
    create_runnable_agent,
    current_agent,
    delete_agent,
    publish_agent,
    remember_agent,
    remember_public_urls,
    saved_agent,
)
from support.api_setup.seeding_router import publish_without_model, seed_exchanges_out_of_order
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


def ask_service_api_blocking(world: World, query: str, conversation_id: str | None) -> None:
    """Ask with "that key" in blocking mode; keep the answer, or the refusal, and what a client
    keeps to go on: the conversation to continue, the message, its usage, outputs and moderation."""
    state = world.agent_builder.service_api_chat
    try:
        answer = service_api_client(world).chat_blocking(query, conversation_id)
    except ServiceApiError as error:
        state.refused, state.answer = error, None
        return
    state.refused, state.answer = None, answer.answer
    state.ended = MessageEndEvent(
        conversation_id=answer.conversation_id,
        message_id=answer.message_id,
        usage=answer.usage,
        outputs=answer.outputs,
        moderated=answer.moderated,
    )


def another_published_agent_key(world: World, model: Model) -> str:
    """Publish a second runnable agent and return a key of its own; "the agent" stays as it was."""
    agent = current_agent(world)
    create_runnable_agent(world, model, "other")
    publish_agent(world)
    secret = new_api_key(world)
    remember_agent(world, agent, "agent")
    return secret


# A site token no agent was ever given: a web app address nobody published.
UNKNOWN_SITE_TOKEN = "no-such-web-app-0123456789"
# An API key in the console's format that it never issued.
UNKNOWN_API_KEY = "app-no-such-key-0123456789abcdefghijklm"
WEB_APP_STATES = ("unknown", "deleted", "disabled", "enabled")
SERVICE_API_STATES = ("unknown", "unpublished", "disabled", "enabled")


def publish_with_visitor_conversation(world: World) -> SeededConversation:
    """Publish the agent (test seeding router) and give a new web app visitor a conversation with
    it: the visitor's browser then takes its cookie (`become_visitor`)."""
    publish_without_model(world)
    return seed_exchanges_out_of_order(world, ["Hello, who are you?"])


def web_app_in_state(world: World, state: str, seeded: SeededConversation) -> None:
    """Bring the agent's web app, whose visitor has the `seeded` conversation, into `state`:
    `unknown` (the visitor uses an address never published), `deleted` (the agent is deleted),
    `disabled` (its web app switch is off) or `enabled`."""
    if state not in WEB_APP_STATES:
        raise AssertionError(f"{state!r} is no web app state: {', '.join(WEB_APP_STATES)}")
    matrix = world.agent_builder.access_matrix
    site_token = public_urls(world).web_app.rstrip("/").rsplit("/", 1)[1]
    matrix.visitor_conversation = VisitorConversation(seeded.id, _reply_id(world, site_token, seeded.id))
    matrix.site_token = UNKNOWN_SITE_TOKEN if state == "unknown" else site_token
    if state == "deleted":
        delete_agent(world)
    elif state == "disabled":
        set_access(world, web_app_enabled=False)


def _reply_id(world: World, site_token: str, conversation_id: str) -> str:
    """The id of the conversation's last reply, as the visitor's page reads it."""
    read = visitor_request(
        world.page.request,
        world.console_url,
        "GET /chat/{site_token}/api/conversations/{conversation_id}/messages",
        site_token,
        VisitorConversation(conversation_id, ""),
    )
    assert read.status == 200, (
        f"the visitor could not read the seeded conversation: {read.status} {read.text}"
    )
    reply_id: str = read.json()["data"][-1]["id"]
    return reply_id


def service_api_in_state(world: World, state: str) -> None:
    """Give the integrator an API key of the agent, with its service API in `state`: `unknown`
    (a key the console never issued), `unpublished` (the agent was never published),
    `disabled` (published, its service API switch off) or `enabled` (published)."""
    if state not in SERVICE_API_STATES:
        raise AssertionError(f"{state!r} is no service API state: {', '.join(SERVICE_API_STATES)}")
    matrix = world.agent_builder.access_matrix
    if state != "unpublished":
        publish_without_model(world)
    matrix.api_key = UNKNOWN_API_KEY if state == "unknown" else new_api_key(world)
    if state == "disabled":
        set_access(world, service_api_enabled=False)


def public_route_answer(world: World, route: str, body: str | None = None) -> Answer:
    """Send `route` as its client would, in the state the scenario set up: a web app route as
    the visitor, a service API route with the integrator's key (and `body` in place of its own)."""
    matrix = world.agent_builder.access_matrix
    if route.startswith("/v1/", route.index(" ") + 1):
        key = need(matrix.api_key, "no integrator key yet: add 'Given the agent's service API is \"...\"'")
        return integrator_request(f"{world.console_url.rstrip('/')}/v1", key, route, END_USER, body)
    if body is not None:
        raise AssertionError(f"{route}: only a service API route is sent a body of the scenario's")
    site_token = need(matrix.site_token, "no web app address yet: add 'Given the agent's web app is \"...\"'")
    conversation = need(matrix.visitor_conversation, "no visitor conversation: add the web app state step")
    return visitor_request(world.page.request, world.console_url, route, site_token, conversation)
