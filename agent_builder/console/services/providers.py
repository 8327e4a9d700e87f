"""Model providers (OpenAI-compatible endpoints) and their chat models. A provider is validated
by a real `GET {base_url}/models`; whatever goes wrong becomes `status: invalid` with a
readable `error`, never an exception for the caller."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import httpx

from agent_builder.console.crypto import seal, unseal
from agent_builder.console.db import Database, new_id, to_model, utc_now
from agent_builder.console.errors import ApiError, not_found
from agent_builder.console.schemas.model_providers import Model, Provider, ProviderCreate, ProviderUpdate
from agent_builder.console.services.masking import mask_secret
from agent_builder.redaction import mask_url, scrub

VALIDATION_TIMEOUT_SECONDS = 10.0
_DEFAULT_PORTS = {"http": 80, "https": 443}
# Model ids containing these are embeddings, audio, images or moderation, not chat models.
_NON_CHAT_MARKERS = ("embed", "whisper", "tts", "dall-e", "moderation", "rerank", "transcribe", "image")


@dataclass(frozen=True)
class ProbeResult:
    error: str | None
    model_names: tuple[str, ...] = ()


def probe(base_url: str, api_key: str) -> ProbeResult:
    """List the provider's chat models, or say in one line why that failed (without the key, or
    anything else credential-like the provider or the URL put in it)."""
    result = _probe(base_url, api_key)
    if result.error is None:
        return result
    return ProbeResult(scrub(result.error, [api_key, *_url_credentials(base_url)]))


def same_origin(url: str, other: str) -> bool:
    """Whether two URLs reach the same scheme, host and port (a stored key is sent to no other)."""
    return _origin(url) == _origin(other)


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port or _DEFAULT_PORTS.get(scheme)
    except ValueError:
        port = None
    return scheme, (parts.hostname or "").lower(), port


def key_required_for_new_host(field: str, what: str) -> ApiError:
    """422 for a URL moved to another host without its key given again: the stored key was
    saved for the old host, and the console never sends it to another one."""
    message = (
        f"Enter the key again: the base URL now points at another host, and the {what}'s stored "
        "key is only ever sent to the host it was saved for."
    )
    return ApiError(
        422, "invalid_request", f"{field}: {message}", errors=[{"field": field, "message": message}]
    )


def _url_credentials(base_url: str) -> list[str]:
    """The password and query values inside a base URL: a provider may quote them back."""
    parts = urlsplit(base_url)
    values = [parts.password, *(value for _, value in parse_qsl(parts.query))]
    return [value for value in values if value]


def _probe(base_url: str, api_key: str) -> ProbeResult:
    try:
        response = httpx.get(
            f"{base_url}/models",
            headers={"Authorization": f"Bearer {api_key}", "Accept": "application/json"},
            timeout=VALIDATION_TIMEOUT_SECONDS,
        )
    except httpx.TimeoutException:
        return ProbeResult(f"timed out after {VALIDATION_TIMEOUT_SECONDS:g} s")
    except httpx.ConnectError as exc:
        return ProbeResult(
            "connection refused" if "refused" in str(exc).lower() else f"connection failed: {exc}"
        )
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        return ProbeResult(f"request failed: {exc}")
    except ValueError:  # e.g. a host name DNS cannot have (stored before the schema refused it)
        return ProbeResult("request failed: the base URL's host name is not valid")
    if not response.is_success:
        # The status and what it usually means, never the body: the base URL may be any service
        # the console reaches (an internal one's answer is not for the admin page to show).
        return ProbeResult(f"HTTP {response.status_code}: {_status_reason(response.status_code)}")
    try:
        payload = response.json()
    except ValueError:
        return ProbeResult("invalid response: the body is not JSON")
    items = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(items, list):
        return ProbeResult('invalid response: expected a JSON object with a "data" list of models')
    names = {
        item["id"]
        for item in items
        if isinstance(item, dict) and isinstance(item.get("id"), str) and 0 < len(item["id"]) <= 200
    }
    chat = sorted(name for name in names if not any(marker in name.lower() for marker in _NON_CHAT_MARKERS))
    return ProbeResult(None, tuple(chat))


def _status_reason(status: int) -> str:
    if status in (401, 403):
        return "the provider refused the API key."
    if status == 404:
        return "no model list at this base URL (GET /models). Check the URL."
    if status == 429:
        return "too many requests. Try again later."
    if status >= 500:
        return "the provider failed. Try again later."
    return "the provider refused the request."


_MODEL_SELECT = (
    "SELECT m.id, m.provider_id, p.name AS provider_name, m.name, m.active "
    "FROM models m JOIN providers p ON p.id = m.provider_id"
)


def _provider(db: Database, conn: sqlite3.Connection, row: sqlite3.Row) -> Provider:
    models = conn.execute(f"{_MODEL_SELECT} WHERE m.provider_id = ? ORDER BY m.name", (row["id"],)).fetchall()
    api_key = unseal(db, row["api_key"])
    error = row["error"]
    return to_model(
        Provider,
        row,
        base_url=mask_url(row["base_url"]),
        api_key_masked=mask_secret(api_key),
        # Also for errors stored by an older console, which kept the provider's words verbatim.
        error=None if error is None else scrub(error, [api_key, *_url_credentials(row["base_url"])]),
        models=[to_model(Model, model) for model in models],
    )


def list_providers(db: Database) -> list[Provider]:
    with db.read() as conn:
        rows = conn.execute("SELECT * FROM providers ORDER BY created_at, id").fetchall()
        return [_provider(db, conn, row) for row in rows]


def get_provider(db: Database, provider_id: str) -> Provider:
    with db.read() as conn:
        return _provider(db, conn, _provider_row(conn, provider_id))


def _provider_row(conn: sqlite3.Connection, provider_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute("SELECT * FROM providers WHERE id = ?", (provider_id,)).fetchone()
    if row is None:
        raise not_found("Model provider")
    return row


def _name_taken(name: str) -> ApiError:
    return ApiError(409, "name_taken", f"A model provider named {name!r} already exists.")


def _check_name_free(db: Database, name: str, except_id: str | None = None) -> None:
    with db.read() as conn:
        row = conn.execute("SELECT id FROM providers WHERE name = ?", (name,)).fetchone()
    if row is not None and row["id"] != except_id:
        raise _name_taken(name)


def _apply_probe(conn: sqlite3.Connection, provider_id: str, result: ProbeResult) -> None:
    """Record the outcome; on success sync the model list (new models start inactive)."""
    status = "invalid" if result.error else "active"
    conn.execute(
        "UPDATE providers SET status = ?, error = ?, validated_at = ? WHERE id = ?",
        (status, result.error, utc_now(), provider_id),
    )
    if result.error:
        return  # a failed check says nothing about which models exist: keep them
    known = {
        row["name"] for row in conn.execute("SELECT name FROM models WHERE provider_id = ?", (provider_id,))
    }
    listed = set(result.model_names)
    for name in listed - known:
        conn.execute(
            "INSERT INTO models (id, provider_id, name, active) VALUES (?, ?, ?, 0)",
            (new_id(), provider_id, name),
        )
    for name in known - listed:
        conn.execute("DELETE FROM models WHERE provider_id = ? AND name = ?", (provider_id, name))


def create_provider(db: Database, body: ProviderCreate) -> Provider:
    _check_name_free(db, body.name)
    result = probe(body.base_url, body.api_key)  # outside the lock: it may take seconds
    provider_id = new_id()
    try:
        with db.write() as conn:
            conn.execute(
                "INSERT INTO providers (id, name, base_url, api_key, status, created_at) "
                "VALUES (?, ?, ?, ?, 'invalid', ?)",
                (provider_id, body.name, body.base_url, seal(db, body.api_key), utc_now()),
            )
            _apply_probe(conn, provider_id, result)
    except sqlite3.IntegrityError:
        raise _name_taken(body.name) from None
    return get_provider(db, provider_id)


def update_provider(db: Database, provider_id: str, body: ProviderUpdate) -> Provider:
    with db.read() as conn:
        row = _provider_row(conn, provider_id)
    name = body.name or row["name"]
    # The masked URL the console showed, sent back unchanged, means "keep the stored one".
    stored_url: str = row["base_url"]
    new_url = body.base_url
    base_url = stored_url if new_url is None or new_url == mask_url(stored_url) else new_url
    if body.api_key is None and not same_origin(base_url, stored_url):
        raise key_required_for_new_host("api_key", "model provider")
    api_key = body.api_key or unseal(db, row["api_key"])
    if name != row["name"]:
        _check_name_free(db, name, except_id=provider_id)
    result = probe(base_url, api_key)
    try:
        with db.write() as conn:
            _provider_row(conn, provider_id)
            conn.execute(
                "UPDATE providers SET name = ?, base_url = ?, api_key = ? WHERE id = ?",
                (name, base_url, seal(db, api_key), provider_id),
            )
            _apply_probe(conn, provider_id, result)
    except sqlite3.IntegrityError:
        raise _name_taken(name) from None
    return get_provider(db, provider_id)


def revalidate_provider(db: Database, provider_id: str) -> Provider:
    with db.read() as conn:
        row = _provider_row(conn, provider_id)
    result = probe(row["base_url"], unseal(db, row["api_key"]))
    with db.write() as conn:
        _provider_row(conn, provider_id)
        _apply_probe(conn, provider_id, result)
    return get_provider(db, provider_id)


def delete_provider(db: Database, provider_id: str) -> None:
    with db.write() as conn:
        if conn.execute("DELETE FROM providers WHERE id = ?", (provider_id,)).rowcount == 0:
            raise not_found("Model provider")


def set_model_active(db: Database, provider_id: str, model_id: str, active: bool) -> Model:
    with db.write() as conn:
        updated = conn.execute(
            "UPDATE models SET active = ? WHERE id = ? AND provider_id = ?",
            (int(active), model_id, provider_id),
        ).rowcount
        if updated == 0:
            raise not_found("Model")
        return to_model(Model, conn.execute(f"{_MODEL_SELECT} WHERE m.id = ?", (model_id,)).fetchone())


def list_models(db: Database, active: bool | None = None) -> list[Model]:
    where, params = ("WHERE m.active = ?", (int(active),)) if active is not None else ("", ())
    with db.read() as conn:
        rows = conn.execute(f"{_MODEL_SELECT} {where} ORDER BY p.name, m.name", params).fetchall()
    return [to_model(Model, row) for row in rows]


def is_model_active(conn: sqlite3.Connection, provider_id: str, name: str) -> bool:
    row = conn.execute(
        "SELECT active FROM models WHERE provider_id = ? AND name = ?", (provider_id, name)
    ).fetchone()
    return row is not None and bool(row["active"])


@dataclass(frozen=True)
class ModelEndpoint:
    base_url: str
    api_key: str
    name: str


def model_endpoint(db: Database, provider_id: str, name: str) -> ModelEndpoint | None:
    """Where to call an active model, with the provider's stored key; None if it is gone or inactive."""
    with db.read() as conn:
        row = conn.execute(
            "SELECT p.base_url, p.api_key FROM models m JOIN providers p ON p.id = m.provider_id "
            "WHERE m.provider_id = ? AND m.name = ? AND m.active = 1",
            (provider_id, name),
        ).fetchone()
    return None if row is None else ModelEndpoint(row["base_url"], unseal(db, row["api_key"]), name)
