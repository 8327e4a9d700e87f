"""Console settings: `--db` gives the database path, `AGENT_BUILDER_*` variables the rest
(docs/console.md lists them)."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated, Any, Self

from cryptography.fernet import Fernet
from pydantic import AfterValidator, BeforeValidator, model_validator
from pydantic_settings import NoDecode

from agent_builder.settings import HttpUrl, ServiceSettings, setting


def _trimmed_origin(value: Any) -> Any:
    return value.rstrip("/") or None if isinstance(value, str) else value


def _exactly_one(value: Any) -> Any:
    # Only `1` switches it on: anything else, `true` included, leaves the test router unmounted.
    return value == "1" if isinstance(value, str) else value


def _comma_list(value: Any) -> Any:
    # `a, b` in the environment; a list or tuple when given in code.
    if isinstance(value, str):
        return tuple(item.strip() for item in value.split(",") if item.strip())
    return value


CommaList = Annotated[tuple[str, ...], NoDecode, BeforeValidator(_comma_list)]


def _fernet_keys(value: str | None) -> str | None:
    for key in value.split(",") if value is not None else ():
        Fernet(key.strip())  # ValueError for anything but 32 url-safe base64-encoded bytes
    return value


SecretKeys = Annotated[str | None, AfterValidator(_fernet_keys)]


def _proxy_networks(value: tuple[str, ...]) -> tuple[str, ...]:
    # Each an address or network. `*` (or anything else uvicorn would take as a literal) would
    # make the client's own left-most X-Forwarded-For its address, so it could pick a fresh one
    # for every sign-in guess.
    for item in value:
        ipaddress.ip_network(item, strict=False)  # ValueError for `*`, names, typos
    return value


ProxyList = Annotated[CommaList, AfterValidator(_proxy_networks)]


DEFAULT_ADMIN_PASSWORD = "admin-password"


class ConsoleConfig(ServiceSettings):
    db_path: Path = setting(..., "a file path", flag="--db")
    admin_email: str = setting("admin@example.com", "an email address")
    # The default is for local use only: with an https public URL the console refuses it.
    admin_password: str = setting(DEFAULT_ADMIN_PASSWORD, "a password")
    # Origin for web app / service API URLs; None means "the origin of the request".
    public_url: Annotated[str | None, BeforeValidator(_trimmed_origin)] = setting(None, "an origin")
    # Chat: the agent runtime and the token it requires (AGENT_BUILDER_RUNTIME_TOKEN, the same
    # variable the runtime reads; a runtime URL without it refuses to start).
    runtime_url: HttpUrl | None = setting(None, "an http(s):// URL")
    runtime_token: str | None = setting(
        None, "the token the runtime was started with (16 characters or more)", min_length=16, repr=False
    )
    # The sandbox, and the token it requires: removing a deleted agent's workspaces needs both.
    # (The runtime has its own setting for the shellctl it calls: AGENT_BUILDER_RUNTIME_SHELLCTL_URL.)
    shellctl_url: HttpUrl | None = setting(None, "an http(s):// URL")
    shellctl_token: str | None = setting(None, "the token shellctl was started with", repr=False)
    enable_test_seed: Annotated[bool, BeforeValidator(_exactly_one)] = setting(False, "1 or unset")
    max_document_bytes: int = setting(1_048_576, "a positive integer", gt=0)
    max_agent_file_bytes: int = setting(2_097_152, "a positive integer", gt=0)
    max_agent_files: int = setting(20, "a positive integer", gt=0)  # files per agent
    # Voice input: a minute of 48 kHz 16-bit mono WAV is about 5.5 MiB.
    max_audio_bytes: int = setting(10_485_760, "a positive integer", gt=0)
    # Chat (docs/console.md, "Chat"): replies in progress at once per web app visitor (and per
    # service API key and `user`), per web app client address, and per agent over both surfaces;
    # and the characters of earlier turns a run is sent, oldest turns dropped first.
    max_runs_per_visitor: int = setting(2, "a positive integer", gt=0)
    max_runs_per_client: int = setting(10, "a positive integer", gt=0)
    max_runs_per_agent: int = setting(20, "a positive integer", gt=0)
    max_history_chars: int = setting(32_000, "an integer >= 0", ge=0)
    # Security (docs/console.md, "Threat model"): the key(s) that encrypt stored secrets, newest
    # first (None: a key file beside the database); the Host names the console answers to besides
    # its own address and the public URL's host; the proxies whose X-Forwarded-* headers count.
    secret_key: SecretKeys = setting(None, "Fernet keys, comma-separated, newest first", repr=False)
    allowed_hosts: CommaList = setting(("localhost",), "host names, comma-separated")
    trusted_proxies: ProxyList = setting((), "proxy IP addresses or networks, comma-separated")

    @model_validator(mode="after")
    def _no_insecure_setting_in_public(self) -> Self:
        # An https public URL means a deployment others reach: the default password is public,
        # and the test seeding router writes past every check the API makes.
        https = (self.public_url or "").lower().startswith("https:")
        if https and self.admin_password == DEFAULT_ADMIN_PASSWORD:
            raise ValueError(
                f"AGENT_BUILDER_ADMIN_PASSWORD is the default {DEFAULT_ADMIN_PASSWORD!r} while"
                f" AGENT_BUILDER_PUBLIC_URL is {self.public_url}: anyone could sign in as the admin."
                " Fix: set AGENT_BUILDER_ADMIN_PASSWORD to a long random password, e.g. the output of"
                " `python -c 'import secrets; print(secrets.token_urlsafe(24))'`."
            )
        if https and self.enable_test_seed:
            raise ValueError(
                f"AGENT_BUILDER_ENABLE_TEST_SEED=1 while AGENT_BUILDER_PUBLIC_URL is {self.public_url}:"
                " the test seeding router writes data past the API's checks and belongs to the"
                " acceptance suite's own consoles. Fix: unset AGENT_BUILDER_ENABLE_TEST_SEED."
            )
        return self
