"""The console's one call to shellctl: an agent's sandbox workspaces go when the agent goes.

The runtime files each conversation's workspace under the agent's id (`services.shellctl_owner`),
so one `DELETE /owners/{agent_id}` removes them all."""

from __future__ import annotations

import logging
import re

import httpx

from agent_builder.console.config import ConsoleConfig
from agent_builder.console.errors import ApiError

logger = logging.getLogger(__name__)

_OWNER = re.compile(r"[A-Za-z0-9_-]{1,64}")  # shellctl's rule; agent ids (hex) follow it
_TIMEOUT_S = 10.0


def remove_workspaces(config: ConsoleConfig, agent_id: str) -> None:
    """Remove the agent's workspaces; 503 when shellctl cannot. Ids that cannot be an agent's have
    no workspaces (the agent lookup then answers 404)."""
    if config.shellctl_url is None or not _OWNER.fullmatch(agent_id):
        return
    headers = {"Authorization": f"Bearer {config.shellctl_token}"} if config.shellctl_token else {}
    try:
        response = httpx.delete(
            f"{config.shellctl_url}/owners/{agent_id}", headers=headers, timeout=_TIMEOUT_S
        )
        response.raise_for_status()
    except httpx.HTTPError as exc:
        # The exception names the URL and status, never the token (it is only in a header).
        logger.warning("agent %s: its sandbox workspaces were not removed: %s", agent_id, exc)
        raise ApiError(
            503,
            "sandbox_unavailable",
            "The agent's sandbox workspaces could not be removed, so the agent was kept. "
            "Try again once the sandbox (shellctl) is reachable.",
        ) from None
    logger.info("agent %s: %s sandbox workspaces removed", agent_id, response.json().get("removed"))
