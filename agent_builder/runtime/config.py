"""Runtime settings: `AGENT_BUILDER_RUNTIME_*` variables, overridden by CLI flags where the CLI
has one (docs/runtime.md lists them)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from agent_builder.settings import ENV_PREFIX, ServiceSettings, setting


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
    # Sent to shellctl as a bearer token; one variable for shellctl, runtime and console alike.
    shellctl_token: str | None = setting(
        None,
        "the token shellctl was started with",
        validation_alias="AGENT_BUILDER_SHELLCTL_TOKEN",
        repr=False,
    )
