"""The public chat surfaces: the web app's JSON API (no auth, gated by the web app switch) and
the service API (`/v1`, app API keys, gated by the service API switch)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from agent_builder.console.errors import ApiError
from agent_builder.console.public import WebAppView, load_web_app
from agent_builder.console.routes.common import DbDep, errors
from agent_builder.console.schemas import (
    AppInfo,
    AppParameters,
    ChatMessageRequest,
    ChatMessageResponse,
    WebAppMessageRequest,
)
from agent_builder.console.services import agents, api_keys


def _runtime_unavailable() -> ApiError:
    return ApiError(
        503, "runtime_unavailable", "Chat is unavailable: no agent runtime is connected to this console."
    )


web_app_router = APIRouter(
    prefix="/chat/{site_token}/api", tags=["web-app"], responses=errors(403, 404, 422, 503)
)


def _web_app(request: Request, site_token: str) -> WebAppView:
    return load_web_app(request, site_token)


@web_app_router.post("/messages", dependencies=[Depends(_web_app)])
def send_web_app_message(body: WebAppMessageRequest) -> ChatMessageResponse:
    # The web app switch and then the body were checked on the way in; only the runtime is missing.
    raise _runtime_unavailable()


_app_key_scheme = HTTPBearer(
    auto_error=False, scheme_name="AppApiKey", description="An agent's service API key: `Bearer app-...`"
)


def service_agent(
    db: DbDep, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_app_key_scheme)]
) -> agents.PublishedAgent:
    """The published agent the API key belongs to; its service API switch must be on."""
    agent_id = api_keys.authenticate(db, credentials.credentials) if credentials else None
    if agent_id is None:
        raise ApiError(401, "invalid_api_key", "Missing, unknown or revoked API key.")
    agent = agents.find_published(db, agent_id=agent_id)
    if agent is None or not agent.service_api_enabled:
        raise ApiError(403, "service_api_disabled", "The service API of this agent is disabled.")
    return agent


ServiceAgent = Annotated[agents.PublishedAgent, Depends(service_agent)]

service_api_router = APIRouter(prefix="/v1", tags=["service-api"], responses=errors(401, 403, 422))


@service_api_router.get("/info")
def get_app_info(agent: ServiceAgent) -> AppInfo:
    return AppInfo(name=agent.name, description=agent.description)


@service_api_router.get("/parameters")
def get_app_parameters(agent: ServiceAgent) -> AppParameters:
    return AppParameters(
        opening_statement=agent.config.opening_statement,
        suggested_questions=list(agent.config.suggested_questions),
    )


@service_api_router.post("/chat-messages", responses=errors(503), dependencies=[Depends(service_agent)])
def send_chat_message(body: ChatMessageRequest) -> ChatMessageResponse:
    # The key, the switch and then the body were checked on the way in; only the runtime is missing.
    raise _runtime_unavailable()
