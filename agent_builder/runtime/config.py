"""Runtime settings: environment variables, overridden by CLI flags where the CLI has one."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

_Number = TypeVar("_Number", int, float)


@dataclass(frozen=True)
class RuntimeConfig:
    retry_budget: int = 2  # retries of one model call after its first attempt
    retry_delay_ms: int = 250  # backoff before the first retry; doubles with each further one
    shell_timeout_s: float = 10.0  # sandbox_shell command timeout
    model_timeout_s: float = 60.0  # longest wait for the provider to connect or send the next chunk

    def __post_init__(self) -> None:
        if self.retry_budget < 0 or self.retry_delay_ms < 0:
            raise ValueError("the retry budget and the retry delay must not be negative")
        if not 0 < self.shell_timeout_s <= 120:
            raise ValueError("the sandbox shell timeout must be in (0, 120] seconds, shellctl's range")
        if self.model_timeout_s <= 0:
            raise ValueError("the model timeout must be positive")

    @classmethod
    def from_env(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        retry_budget: int | None = None,
        shell_timeout_s: float | None = None,
    ) -> RuntimeConfig:
        """Settings from the environment; the keyword arguments (CLI flags) win when given."""
        env = os.environ if environ is None else environ
        defaults = cls()
        if retry_budget is None:
            retry_budget = _read(env, "AGENT_BUILDER_RUNTIME_RETRY_BUDGET", int, defaults.retry_budget)
        if shell_timeout_s is None:
            shell_timeout_s = _read(
                env, "AGENT_BUILDER_RUNTIME_SHELL_TIMEOUT_S", float, defaults.shell_timeout_s
            )
        return cls(
            retry_budget=retry_budget,
            retry_delay_ms=_read(env, "AGENT_BUILDER_RUNTIME_RETRY_DELAY_MS", int, defaults.retry_delay_ms),
            shell_timeout_s=shell_timeout_s,
            model_timeout_s=_read(
                env, "AGENT_BUILDER_RUNTIME_MODEL_TIMEOUT_S", float, defaults.model_timeout_s
            ),
        )


def _read(env: Mapping[str, str], name: str, kind: Callable[[str], _Number], default: _Number) -> _Number:
    raw = env.get(name)
    if not raw:
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ValueError(
            f"{name} must be {'an integer' if kind is int else 'a number'}, got {raw!r}"
        ) from None
