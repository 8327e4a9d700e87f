"""The console's own model choices (`system_settings`): which model the build assistant asks
and which one transcribes voice input, and where to call them."""

from __future__ import annotations

import sqlite3

from agent_builder.console.crypto import unseal
from agent_builder.console.db import Database
from agent_builder.console.errors import ApiError
from agent_builder.console.schemas.agents import AgentModelRef
from agent_builder.console.schemas.system_models import SystemModels
from agent_builder.console.services.providers import ModelEndpoint, is_model_active, model_endpoint

_KEYS = ("decision_model", "speech_to_text_model")


def get_system_models(db: Database) -> SystemModels:
    with db.read() as conn:
        rows = conn.execute("SELECT key, value FROM system_settings").fetchall()
    stored = {
        row["key"]: AgentModelRef.model_validate_json(row["value"]) for row in rows if row["key"] in _KEYS
    }
    return SystemModels(**stored)


def set_system_models(db: Database, body: SystemModels) -> SystemModels:
    with db.write() as conn:
        _check(conn, body)
        for key in _KEYS:
            ref: AgentModelRef | None = getattr(body, key)
            if ref is None:
                conn.execute("DELETE FROM system_settings WHERE key = ?", (key,))
            else:
                conn.execute(
                    "INSERT INTO system_settings (key, value) VALUES (?, ?) "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (key, ref.model_dump_json()),
                )
    return body


def _check(conn: sqlite3.Connection, body: SystemModels) -> None:
    decision, speech = body.decision_model, body.speech_to_text_model
    if decision is not None and not is_model_active(conn, decision.provider_id, decision.name):
        raise ApiError(
            409, "invalid_model", f"The decision model {decision.name!r} is not an active chat model."
        )
    if speech is not None and _provider_row(conn, speech.provider_id) is None:
        raise ApiError(409, "invalid_model", "The speech-to-text model's provider does not exist.")


def _provider_row(conn: sqlite3.Connection, provider_id: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        "SELECT base_url, api_key FROM providers WHERE id = ?", (provider_id,)
    ).fetchone()
    return row


def decision_endpoint(db: Database) -> ModelEndpoint:
    """Where the build assistant calls its model. Raises 409 when none is chosen or it is gone."""
    ref = get_system_models(db).decision_model
    if ref is None:
        raise ApiError(
            409,
            "decision_model_not_configured",
            "The build assistant needs a decision model: choose one under Settings → Model providers → Console models.",
        )
    endpoint = model_endpoint(db, ref.provider_id, ref.name)
    if endpoint is None:
        raise ApiError(
            409,
            "decision_model_unavailable",
            f"The decision model {ref.name!r} was deactivated or its provider was removed.",
        )
    return endpoint


def speech_to_text_endpoint(db: Database) -> ModelEndpoint:
    """Where voice input is transcribed. Raises 409 when no speech-to-text model is chosen."""
    ref = get_system_models(db).speech_to_text_model
    with db.read() as conn:
        row = None if ref is None else _provider_row(conn, ref.provider_id)
    if ref is None or row is None:
        raise ApiError(
            409,
            "speech_to_text_not_configured",
            "Voice input needs a speech-to-text model: choose one under Settings → Model providers → Console models.",
        )
    return ModelEndpoint(row["base_url"], unseal(db, row["api_key"]), ref.name)


def speech_to_text_enabled(db: Database) -> bool:
    """Whether pages should offer voice input."""
    try:
        speech_to_text_endpoint(db)
    except ApiError:
        return False
    return True
