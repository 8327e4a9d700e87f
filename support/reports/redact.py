"""Secret redaction for everything a report writes.

By value first: the caller passes the secret values the run knows (admin password, session
token, provider keys, every API key a scenario was shown), and each is replaced wherever it
appears. Then by position, for secrets the run may not know (a key echoed back in an error, a
header in a trace): a value is redacted where it *is* a value, never inside other text:

- after `Bearer`/`Basic`;
- of a credential-named header, field or parameter (`Authorization: ...`, `"api_key": "..."`,
  `token=...`, `password: ...`);
- a key-shaped value (`sk-...`, `app-...`) that is a whole quoted string or follows `:`/`=`.

So `features/agent/runtime-web-app-answers.feature` or a scenario named "app-store-connect
integrations" stays intact: a key shape inside a path or a name is not a value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import Any

REDACTED = "[REDACTED]"
_KEY_SHAPE = r"(?:app-[A-Za-z0-9_-]{16,}|sk-[A-Za-z0-9_-]{8,})"
_END = r"(?![A-Za-z0-9_./-])"  # a whole value: not the start of a longer word or path
# Outside a header, a token after the scheme word has a digit or a symbol: "basic configured" stays.
_AUTH_SCHEME = re.compile(r"(?i)\b(bearer|basic)\s+(?=[A-Za-z]*[0-9._~+/=-])[A-Za-z0-9._~+/=-]{8,}")
# `key` alone, or a compound ending in a credential word (`x-api-key`, `access_token`; not `sort_key`).
_CREDENTIAL_NAME = (
    r"(?:(?:[a-z0-9]+[-_])*(?:api[-_]?key|token|secret|password|passwd|authorization|cookie)|key)"
)
# name, optional quote, `:` or `=`, an optional scheme word, then a quoted or bare value.
_CREDENTIAL_FIELD = re.compile(
    rf"(?i)(?P<name>(?<![A-Za-z0-9_-])[\"']?{_CREDENTIAL_NAME}[\"']?\s*[:=]\s*)"
    r"(?P<quote>[\"']?)(?P<scheme>(?:bearer|basic)\s+)?(?!\[REDACTED\]|(?:bearer|basic)\s)"
    r"(?:(?<=[\"'])[^\"'\n]+(?=[\"'])|[^\s\"',;&<>}\]]+)"
)
_QUOTED_KEY = re.compile(rf"(?P<quote>[\"']){_KEY_SHAPE}(?P=quote)")
_ASSIGNED_KEY = re.compile(rf"(?P<sep>[:=]\s*){_KEY_SHAPE}{_END}")


def _field(match: re.Match[str]) -> str:
    return f"{match['name']}{match['quote']}{match['scheme'] or ''}{REDACTED}"


def redact(text: str, secrets: Iterable[str]) -> str:
    # Longest first, so a secret that contains another is replaced whole.
    for secret in sorted({secret for secret in secrets if secret}, key=len, reverse=True):
        text = text.replace(secret, REDACTED)
    text = _AUTH_SCHEME.sub(lambda match: f"{match[1]} {REDACTED}", text)
    text = _CREDENTIAL_FIELD.sub(_field, text)
    text = _QUOTED_KEY.sub(lambda match: f"{match['quote']}{REDACTED}{match['quote']}", text)
    return _ASSIGNED_KEY.sub(lambda match: f"{match['sep']}{REDACTED}", text)


def redact_json(value: Any, secrets: Iterable[str], *, skip: AbstractSet[str] = frozenset()) -> Any:
    """Every string of a JSON value redacted, before it is serialized (redacting the serialized
    text could cut an escaped quote in half); `skip` names fields holding file bodies (base64)."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {
            key: item if key in skip else redact_json(item, secrets, skip=skip) for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact_json(item, secrets, skip=skip) for item in value]
    return value
