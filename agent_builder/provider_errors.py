"""What an OpenAI-compatible provider said when it refused a call, fit to show a user: its error
message (else its body, else the reason phrase) on one bounded line, without the key it was sent.
Shared by the runtime and the console's calls to models, which quote providers the same way."""

from __future__ import annotations

from collections.abc import Iterable

import httpx

from agent_builder.redaction import scrub

_DETAIL_CHARS = 300


def provider_refusal(response: httpx.Response, secrets: Iterable[str]) -> str:
    try:
        error = response.json().get("error")
        detail = error.get("message") if isinstance(error, dict) else error
    except (ValueError, AttributeError):
        detail = None
    text = " ".join(str(detail or response.text or response.reason_phrase).split())
    # Providers sometimes quote the key they rejected; it must not travel on.
    return scrub(text[:_DETAIL_CHARS], secrets)
