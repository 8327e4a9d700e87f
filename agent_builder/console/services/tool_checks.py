"""Checking a tool credential against its provider, as the runtime would use it: web search
POSTs `{"query": ...}` to `<base URL>/search` with the secret as a bearer token and expects a JSON
object with a `results` list. The outcome is kept on the credential: a credential that failed its
last check makes its tool `invalid` (services/tools.py) and is not used for runs until it passes."""

from __future__ import annotations

import httpx

from agent_builder.console.crypto import unseal
from agent_builder.console.db import Database, utc_now
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.tools import ToolCredential
from agent_builder.console.services.tools import credential

CHECK_TIMEOUT_SECONDS = 10.0
NO_BASE_URL = (
    "no base URL: web search sends its queries to <base URL>/search; add the credential again with one"
)


def check_credential(db: Database, credential_id: str) -> ToolCredential:
    """Check the credential now and keep the outcome; 404 for an unknown one."""
    with db.read() as conn:
        row = conn.execute("SELECT * FROM tool_credentials WHERE id = ?", (credential_id,)).fetchone()
    if row is None:
        raise not_found("Tool credential")
    if row["tool"] != "web_search":
        raise ApiError(400, "invalid_request", f"The {row['tool']} tool has no credential check.")
    base_url = row["base_url"]
    secret = unseal(db, row["secret"])
    problem = NO_BASE_URL if base_url is None else _probe_search(base_url, secret)
    with db.write() as conn:
        conn.execute(
            "UPDATE tool_credentials SET check_status = ?, check_message = ?, checked_at = ? WHERE id = ?",
            ("invalid" if problem else "valid", problem, utc_now(), credential_id),
        )
        updated = conn.execute("SELECT * FROM tool_credentials WHERE id = ?", (credential_id,)).fetchone()
    if updated is None:  # deleted while it was being checked
        raise not_found("Tool credential")
    return credential(db, updated)


def _probe_search(base_url: str, secret: str) -> str | None:
    """Why a search through the provider fails, or None when it answers as expected. The status
    and what it means, never the body: the base URL may be any service the console reaches."""
    try:
        response = httpx.post(
            f"{base_url.rstrip('/')}/search",
            json={"query": "connection check"},
            headers={"Authorization": f"Bearer {secret}", "Accept": "application/json"},
            timeout=CHECK_TIMEOUT_SECONDS,
        )
    except httpx.TimeoutException:
        return f"timed out after {CHECK_TIMEOUT_SECONDS:g} s"
    except httpx.ConnectError as exc:
        return "connection refused" if "refused" in str(exc).lower() else "connection failed"
    except (httpx.HTTPError, httpx.InvalidURL, ValueError):
        return "request failed: the base URL cannot be reached"
    if response.status_code in (401, 403):
        return f"HTTP {response.status_code}: the provider refused the secret"
    if not response.is_success:
        return f"HTTP {response.status_code}: the provider did not answer the search"
    try:
        payload = response.json()
    except ValueError:
        return "invalid response: the body is not JSON"
    if not isinstance(payload, dict) or not isinstance(payload.get("results"), list):
        return 'invalid response: expected a JSON object with a "results" list'
    return None
