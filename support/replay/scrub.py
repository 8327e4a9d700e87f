"""Secret scrubbing for everything the replay server writes or keys on.

Cassettes are committed, so a recorded provider key, bearer token or cookie would leak. Scrubbing
is by field name (headers and JSON keys that carry credentials), by shape (`sk-...` keys, bearer
tokens, `api_key=...` query parameters) and by value (the exact keys seen while recording).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

SCRUBBED = "<scrubbed>"

# Field names whose value is a credential. Deliberately not a bare "token": usage counters such
# as `prompt_tokens` must survive.
_SECRET_FIELD = re.compile(
    r"(?i)^(?:proxy-)?authorization$|cookie|api[-_]?key|secret|password|passwd"
    r"|^(?:access|refresh|id|session|auth|bearer)[-_]?token$|^x-[a-z0-9-]*-token$"
)
_SECRET_SHAPES = (
    re.compile(r"\bsk-[A-Za-z0-9_-]{8,}"),
    re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{8,}"),
)
_SECRET_PARAM = re.compile(r"(?i)\b(api[-_]?key|access[-_]?token|token|secret|password)=[^&\s\"']+")


def is_secret_field(name: str) -> bool:
    return bool(_SECRET_FIELD.search(name))


# Shorter "secrets" are placeholders (a keyless product may send `x`); replacing them would mangle text.
MIN_SECRET_LENGTH = 8


def scrub_text(text: str, secrets: Iterable[str] = ()) -> str:
    # Exact values first: a real key need not look like `sk-...`.
    for secret in sorted((s for s in secrets if len(s) >= MIN_SECRET_LENGTH), key=len, reverse=True):
        text = text.replace(secret, SCRUBBED)
    for shape in _SECRET_SHAPES:
        text = shape.sub(SCRUBBED, text)
    return _SECRET_PARAM.sub(rf"\1={SCRUBBED}", text)


def scrub(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of a JSON-like value with every credential replaced by `<scrubbed>`."""
    secrets = tuple(secrets)
    if isinstance(value, str):
        return scrub_text(value, secrets)
    if isinstance(value, dict):
        return {
            key: SCRUBBED if is_secret_field(str(key)) and item is not None else scrub(item, secrets)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [scrub(item, secrets) for item in value]
    return value
