"""shellctl, the sandbox service, as anyone on its network could call it: for checks that it
serves only callers holding its token (docs/runtime.md, "shellctl")."""

from __future__ import annotations

import httpx

from support.settings.network import tls

# A session id nothing else uses; a harmless command in case a broken sandbox runs it.
_PROBE_SESSION = "e2e-token-probe"
_TIMEOUT_S = 15.0


def exec_status(shellctl_url: str, authorization: str | None) -> int:
    """The status shellctl answers a command with, sent with this Authorization header (or none)."""
    headers = {"Authorization": authorization} if authorization else {}
    response = httpx.post(
        f"{shellctl_url.rstrip('/')}/sessions/{_PROBE_SESSION}/exec",
        json={"command": "true"},
        headers=headers,
        timeout=_TIMEOUT_S,
        verify=tls(),
    )
    return response.status_code
