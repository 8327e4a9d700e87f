"""Runtime settings: `AGENT_BUILDER_RUNTIME_*` variables, overridden by CLI flags where the CLI
has one (docs/runtime.md lists them)."""

from __future__ import annotations

import logging
from typing import Annotated, Any

from pydantic import BeforeValidator
from pydantic_settings import SettingsConfigDict

from agent_builder.settings import ENV_PREFIX, ConfigError, HttpUrl, ServiceSettings, setting

logger = logging.getLogger(__name__)

MIN_TOKEN_CHARS = 16
TOKEN_VARIABLE = f"{ENV_PREFIX}RUNTIME_TOKEN"
INSECURE_VARIABLE = f"{ENV_PREFIX}RUNTIME_INSECURE_NO_TOKEN"


def _one_or_zero(value: Any) -> Any:
    # Only `1` and `0` (or unset): a switch that opens the runtime to anyone is spelt exactly.
    if isinstance(value, str):
        if value not in ("0", "1"):
            raise ValueError("must be 1 or 0")
        return value == "1"
    return value


class RuntimeConfig(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix=f"{ENV_PREFIX}RUNTIME_")

    # Retries of one model call after its first attempt.
    retry_budget: int = setting(2, "a whole number (0 or more)", flag="--retry-budget", ge=0)
    # Backoff before the first retry; doubles with each further one.
    retry_delay_ms: int = setting(250, "a whole number of milliseconds (0 or more)", ge=0)
    # sandbox_shell command timeout; shellctl accepts at most 120 s.
    shell_timeout_s: float = setting(
        10.0, "a number of seconds in (0, 120] (shellctl's range)", flag="--shell-timeout", gt=0, le=120
    )
    # Longest wait for the provider to connect or send the next chunk.
    model_timeout_s: float = setting(60.0, "a positive number of seconds", gt=0)
    # What a caller (the console) must send as `Authorization: Bearer` to start or cancel a run.
    token: str | None = setting(
        None, f"a token of at least {MIN_TOKEN_CHARS} characters", min_length=MIN_TOKEN_CHARS, repr=False
    )
    # Development only: serve without a token (anyone who reaches the port can run agents).
    insecure_no_token: Annotated[bool, BeforeValidator(_one_or_zero)] = setting(False, "1 or 0")
    # The only shellctl the sandbox_shell tool calls, and the only one that gets the shellctl token.
    shellctl_url: HttpUrl | None = setting(None, "an http(s):// URL")
    # The console's address as the runtime reaches it: knowledge_search calls
    # <console_url>/internal/knowledge/retrieve, with the run's knowledge token, and nothing else.
    console_url: HttpUrl | None = setting(None, "an http(s):// URL")
    # Sent to shellctl as a bearer token; one variable for shellctl, runtime and console alike.
    shellctl_token: str | None = setting(
        None,
        "the token shellctl was started with",
        validation_alias="AGENT_BUILDER_SHELLCTL_TOKEN",
        repr=False,
    )


def check_token(config: RuntimeConfig) -> None:
    """Refuse to serve without a token (ConfigError), unless the insecure switch says so: then warn."""
    if config.token is not None:
        return
    if not config.insecure_no_token:
        raise ConfigError(
            f"{TOKEN_VARIABLE} is not set: without it anyone who reaches this port can run agents "
            f"and use the sandbox. Fix: set {TOKEN_VARIABLE} to a random token of at least "
            f"{MIN_TOKEN_CHARS} characters (e.g. `python -c 'import secrets; "
            f"print(secrets.token_urlsafe(32))'`) and give the console the same value; for local "
            f"development only, set {INSECURE_VARIABLE}=1 to serve without one."
        )
    logger.warning(
        "%s=1: the runtime serves WITHOUT a token; anyone who reaches its port can start and cancel "
        "runs (and use the sandbox through them). Never use this where the port is reachable by others.",
        INSECURE_VARIABLE,
    )
