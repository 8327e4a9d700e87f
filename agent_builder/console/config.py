"""Console settings: the CLI gives the database path, the environment gives the rest."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit


@dataclass(frozen=True)
class ConsoleConfig:
    db_path: Path
    admin_email: str = "admin@example.com"
    admin_password: str = "admin-password"
    # Origin for web app / service API URLs; None means "the origin of the request".
    public_url: str | None = None
    # Chat: the agent runtime, the sandbox it should use, and the console's own address as the
    # runtime reaches it (None: the address the console's server is bound to).
    runtime_url: str | None = None
    shellctl_url: str | None = None
    internal_url: str | None = None
    enable_test_seed: bool = False
    max_document_bytes: int = 1_048_576
    max_agent_file_bytes: int = 2_097_152

    @classmethod
    def from_env(cls, db_path: Path | str, environ: Mapping[str, str] | None = None) -> ConsoleConfig:
        env = os.environ if environ is None else environ
        defaults = cls(db_path=Path(db_path))
        return cls(
            db_path=Path(db_path),
            admin_email=env.get("AGENT_BUILDER_ADMIN_EMAIL") or defaults.admin_email,
            admin_password=env.get("AGENT_BUILDER_ADMIN_PASSWORD") or defaults.admin_password,
            public_url=(env.get("AGENT_BUILDER_PUBLIC_URL") or "").rstrip("/") or None,
            runtime_url=_url(env, "AGENT_BUILDER_RUNTIME_URL"),
            shellctl_url=_url(env, "AGENT_BUILDER_SHELLCTL_URL"),
            internal_url=_url(env, "AGENT_BUILDER_INTERNAL_URL"),
            enable_test_seed=env.get("AGENT_BUILDER_ENABLE_TEST_SEED") == "1",
            max_document_bytes=_positive_int(
                env, "AGENT_BUILDER_MAX_DOCUMENT_BYTES", defaults.max_document_bytes
            ),
            max_agent_file_bytes=_positive_int(
                env, "AGENT_BUILDER_MAX_AGENT_FILE_BYTES", defaults.max_agent_file_bytes
            ),
        )


def _positive_int(env: Mapping[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a positive integer, got {raw!r}") from None
    if value <= 0:
        raise ValueError(f"{name} must be a positive integer, got {raw!r}")
    return value


def _url(env: Mapping[str, str], name: str) -> str | None:
    raw = env.get(name)
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{name} must be an http(s):// URL, got {raw!r}")
    return raw.rstrip("/")
