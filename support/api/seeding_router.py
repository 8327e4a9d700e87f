"""The console's test seeding router (`/__test__`): state a scenario cannot create through the
product's API. Embedded consoles mount it (AGENT_BUILDER_ENABLE_TEST_SEED=1); a deployment
without it answers 404, and the call fails saying so. Its bodies are not in /openapi.json (the
router is absent from the published schema), so they are written here."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import httpx

from support.api.console import ConsoleApiError
from support.settings.network import tls

SEED_PREFIX = "/__test__"


@dataclass(frozen=True)
class SeededConversation:
    id: str
    visitor_token: str  # the conversation is this web app visitor's: their cookie value


class SeedingRouterClient:
    def __init__(self, base_url: str, token: str) -> None:
        self._http = httpx.Client(
            base_url=base_url.rstrip("/") + SEED_PREFIX,
            headers={"Authorization": f"Bearer {token}"},
            timeout=15.0,
            verify=tls(),
        )

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self._http.post(path, json=body)
        if response.status_code == 404 and response.json().get("message") == "No such route.":
            raise AssertionError(
                f"the console at {self._http.base_url} has no test seeding router: start it with "
                "AGENT_BUILDER_ENABLE_TEST_SEED=1 (embedded consoles do)"
            )
        if not response.is_success:
            body = response.json()
            raise ConsoleApiError(
                "POST", SEED_PREFIX + path, response.status_code, body["code"], body["message"]
            )
        result: dict[str, Any] = response.json()
        return result

    def publish(self, agent_id: str, note: str = "") -> int:
        """Publishes the draft without the publish checks (no model needed); returns the version."""
        return int(self._post(f"/agents/{agent_id}/publish", {"note": note})["version"])

    def conversation(
        self, agent_id: str, created_at: datetime, messages: list[dict[str, str]]
    ) -> SeededConversation:
        """A backdated web app conversation of a new visitor; each message may carry its own
        `created_at`."""
        body = {"agent_id": agent_id, "created_at": created_at.isoformat(), "messages": messages}
        created = self._post("/conversations", body)
        return SeededConversation(str(created["id"]), str(created["visitor_token"]))

    def close(self) -> None:
        self._http.close()
