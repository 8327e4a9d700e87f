"""The public web app of a published agent, as the chat page and its JSON API see it."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from agent_builder.console.db import Database
from agent_builder.console.errors import ApiError
from agent_builder.console.services import agents, system_models

WEB_APP_UNAVAILABLE = "This web app is unavailable."


@dataclass(frozen=True)
class WebAppView:
    agent_name: str
    description: str
    opening_statement: str
    suggested_questions: list[str]
    site_token: str
    voice_input: bool  # a speech-to-text model is configured


def load_web_app_agent(request: Request, site_token: str) -> agents.PublishedAgent:
    """The published agent behind `site_token`. Raises ApiError 404 for an unknown token or an
    agent never published, 403 `web_app_disabled` when its web app switch is off."""
    db: Database = request.app.state.db
    agent = agents.find_published(db, site_token=site_token)
    if agent is None:
        raise ApiError(404, "not_found", "This web app does not exist.")
    if not agent.web_app_enabled:
        raise ApiError(403, "web_app_disabled", WEB_APP_UNAVAILABLE)
    return agent


def load_web_app(request: Request, site_token: str) -> WebAppView:
    """What the chat page shows of `load_web_app_agent` (same errors)."""
    agent = load_web_app_agent(request, site_token)
    return WebAppView(
        agent_name=agent.name,
        description=agent.description,
        opening_statement=agent.config.opening_statement,
        suggested_questions=list(agent.config.suggested_questions),
        site_token=agent.site_token,
        voice_input=system_models.speech_to_text_enabled(request.app.state.db),
    )
