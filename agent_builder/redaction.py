"""Keeping credentials out of what the services show and log: URLs with their password and
secret-looking query values masked, provider answers scrubbed of keys, and a logging filter that
applies both to every log line (httpx, for one, logs every URL it requests)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

MASK = "***"
# Query parameters whose value is a credential by name (`?api-key=...`, `?access_token=...`).
_SECRET_PARAM = re.compile(r"key|token|secret|password|passwd|pwd|auth|sig|credential", re.IGNORECASE)
_URL = re.compile(r"\bhttps?://[^\s\"'<>]+", re.IGNORECASE)
# What a credential looks like in free text: `Bearer <token>`, prefixed keys (`sk-...`, `app-...`),
# and long runs of letters and digits (random tokens) that no readable message contains.
_BEARER = re.compile(r"\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+", re.IGNORECASE)
_PREFIXED_KEY = re.compile(
    r"\b(?:sk|pk|rk|app|key|api|tok|secret)[-_](?=[A-Za-z0-9_\-.*…]*\d)[A-Za-z0-9_\-.*…]{8,}", re.IGNORECASE
)
_RANDOM_RUN = re.compile(r"\b(?=[A-Za-z0-9_\-]*\d)(?=[A-Za-z0-9_\-]*[A-Za-z])[A-Za-z0-9_\-]{24,}\b")


def mask_url(url: str) -> str:
    """`url` with the password of its userinfo and the values of secret-looking query parameters
    replaced by `***` (the user name stays: it is how people recognise the URL)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return MASK
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        user, has_password, _ = userinfo.partition(":")
        netloc = f"{user}:{MASK}@{host}" if has_password else f"{MASK}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(_SECRET_PARAM.search(name) for name, _ in pairs):
            masked = [(name, MASK if _SECRET_PARAM.search(name) else value) for name, value in pairs]
            query = urlencode(masked, safe="*", quote_via=quote)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def scrub(text: str, secrets: Iterable[str] = (), *, random_runs: bool = True) -> str:
    """`text` without the given secrets (also URL-encoded), credential-looking values, or the
    credentials inside URLs. `random_runs=False` keeps long letter-and-digit runs (the ids in
    log lines); prefixed keys and bearer tokens go either way."""
    for secret in secrets:
        if len(secret) >= 4:
            text = text.replace(secret, MASK).replace(quote(secret, safe=""), MASK)
    text = _URL.sub(lambda match: mask_url(match.group(0)), text)
    text = _BEARER.sub(lambda match: f"{match.group(1)} {MASK}", text)
    text = _PREFIXED_KEY.sub(MASK, text)
    return _RANDOM_RUN.sub(MASK, text) if random_runs else text


_FORMATTER = logging.Formatter()


class RedactingFilter(logging.Filter):
    """Rewrites each record's message through `scrub`, so no handler ever writes a credential."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = scrub(message, random_runs=False)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            # Formatters reuse exc_text: a traceback may quote a URL too.
            record.exc_text = scrub(_FORMATTER.formatException(record.exc_info), random_runs=False)
        return True


def redact_logs() -> None:
    """Install RedactingFilter on every handler of the root logger (call after logging is set up)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(existing, RedactingFilter) for existing in handler.filters):
            handler.addFilter(RedactingFilter())
