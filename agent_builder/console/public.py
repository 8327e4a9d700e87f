"""The public web app of a published agent, as the chat page and its JSON API see it."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from agent_builder.console.db import Database
from agent_builder.console.errors import ApiError
from agent_builder.console.services import agents, system_models

WEB_APP_UNAVAILABLE = "This web app is unavailable."

# The web app's own words in each of its languages (schemas/web_app_settings.py, LANGUAGES).
WEB_APP_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "conversation": "Conversation",
        "suggested_questions": "Suggested questions",
        "message": "Message",
        "placeholder": "Type a message. Enter sends, Shift+Enter adds a line.",
        "send": "Send",
        "stop": "Stop",
        "new_conversation": "New conversation",
        "privacy_policy": "Privacy policy",
    },
    "de": {
        "conversation": "Unterhaltung",
        "suggested_questions": "Vorgeschlagene Fragen",
        "message": "Nachricht",
        "placeholder": "Nachricht eingeben. Enter sendet, Umschalt+Enter fügt eine Zeile hinzu.",
        "send": "Senden",
        "stop": "Stopp",
        "new_conversation": "Neue Unterhaltung",
        "privacy_policy": "Datenschutzerklärung",
    },
    "fr": {
        "conversation": "Conversation",
        "suggested_questions": "Questions suggérées",
        "message": "Message",
        "placeholder": "Écrivez un message. Entrée envoie, Maj+Entrée ajoute une ligne.",
        "send": "Envoyer",
        "stop": "Arrêter",
        "new_conversation": "Nouvelle conversation",
        "privacy_policy": "Politique de confidentialité",
    },
    "es": {
        "conversation": "Conversación",
        "suggested_questions": "Preguntas sugeridas",
        "message": "Mensaje",
        "placeholder": "Escribe un mensaje. Intro envía, Mayús+Intro añade una línea.",
        "send": "Enviar",
        "stop": "Detener",
        "new_conversation": "Nueva conversación",
        "privacy_policy": "Política de privacidad",
    },
    "ja": {
        "conversation": "会話",
        "suggested_questions": "質問の候補",
        "message": "メッセージ",
        "placeholder": "メッセージを入力。Enter で送信、Shift+Enter で改行。",
        "send": "送信",
        "stop": "停止",
        "new_conversation": "新しい会話",
        "privacy_policy": "プライバシーポリシー",
    },
}


@dataclass(frozen=True)
class WebAppView:
    agent_name: str  # what the page is titled: the web app settings' title, else the agent's name
    description: str
    opening_statement: str
    suggested_questions: list[str]
    site_token: str
    voice_input: bool  # a speech-to-text model is configured
    icon: str
    color: str
    copyright: str
    privacy_policy_url: str
    language: str
    words: dict[str, str]


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
    settings = agent.config.web_app
    return WebAppView(
        agent_name=settings.title or agent.name,
        description=settings.description or agent.description,
        opening_statement=agent.config.opening_statement,
        suggested_questions=list(agent.config.suggested_questions),
        site_token=agent.site_token,
        voice_input=system_models.speech_to_text_enabled(request.app.state.db),
        icon=settings.icon,
        color=settings.color,
        copyright=settings.copyright,
        privacy_policy_url=settings.privacy_policy_url,
        language=settings.default_language,
        words=WEB_APP_WORDS[settings.default_language],
    )
