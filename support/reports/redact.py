"""Secret redaction for everything a report writes.

The caller passes the secret values it knows (passwords, session tokens, provider keys);
patterns catch the well-known key shapes it may not know (app API keys shown once,
provider keys, bearer tokens echoed in an error).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

REDACTED = "[REDACTED]"
_PATTERNS = (
    # The lookbehind keeps words like "webapp-..." or "task-..." intact.
    re.compile(r"(?<![A-Za-z0-9])app-[A-Za-z0-9_-]{16,}"),
    re.compile(r"(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{8,}"),
)
_BEARER = re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]+")


def redact(text: str, secrets: Iterable[str]) -> str:
    # Longest first, so a secret that contains another is replaced whole.
    for secret in sorted({secret for secret in secrets if secret}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    for pattern in _PATTERNS:
        text = pattern.sub(REDACTED, text)
    return _BEARER.sub(lambda match: f"{match[1]} {REDACTED}", text)
