"""The web app's own JSON API (`/chat/<site token>/api`), as the page calls it: no session, the
site token is the address. For checks of what a visitor's browser could read."""

from __future__ import annotations

import httpx

from support.settings.network import tls

_TIMEOUT_S = 15.0


def _messages_url(web_app_url: str, conversation_id: str) -> str:
    return f"{web_app_url.rstrip('/')}/api/conversations/{conversation_id}/messages"


def conversation_status(web_app_url: str, conversation_id: str) -> int:
    """The status the web app answers a request for that conversation's messages with."""
    return httpx.get(
        _messages_url(web_app_url, conversation_id), timeout=_TIMEOUT_S, verify=tls()
    ).status_code
