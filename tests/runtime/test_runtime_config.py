"""The runtime's settings: `AGENT_BUILDER_RUNTIME_*` variables, CLI flags that win over them, and
errors that name the variable or flag and the fix."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from agent_builder.runtime.config import RuntimeConfig
from agent_builder.settings import ConfigError

_VARIABLES = ("RETRY_BUDGET", "RETRY_DELAY_MS", "SHELL_TIMEOUT_S", "MODEL_TIMEOUT_S")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _VARIABLES:
        monkeypatch.delenv(f"AGENT_BUILDER_RUNTIME_{name}", raising=False)


def test_defaults() -> None:
    config = RuntimeConfig.load(retry_budget=None, shell_timeout_s=None)
    assert (config.retry_budget, config.retry_delay_ms, config.shell_timeout_s, config.model_timeout_s) == (
        2,
        250,
        10.0,
        60.0,
    )


def test_variables_are_read_and_flags_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_RETRY_BUDGET", "5")
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_RETRY_DELAY_MS", "10")
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_SHELL_TIMEOUT_S", "30")
    config = RuntimeConfig.load(retry_budget=1, shell_timeout_s=None)
    assert (config.retry_budget, config.retry_delay_ms, config.shell_timeout_s) == (1, 10, 30.0)


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("AGENT_BUILDER_RUNTIME_RETRY_BUDGET", "two"),
        ("AGENT_BUILDER_RUNTIME_RETRY_BUDGET", "-1"),
        ("AGENT_BUILDER_RUNTIME_RETRY_DELAY_MS", "0.5"),
        ("AGENT_BUILDER_RUNTIME_SHELL_TIMEOUT_S", "121"),
        ("AGENT_BUILDER_RUNTIME_SHELL_TIMEOUT_S", "0"),
        ("AGENT_BUILDER_RUNTIME_MODEL_TIMEOUT_S", "soon"),
    ],
)
def test_an_invalid_variable_is_named_with_the_fix(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ConfigError) as error:
        RuntimeConfig.load()
    message = str(error.value)
    assert message.startswith(f"{variable} must be ")
    assert f", got {value!r}. Fix: set {variable} to " in message


def test_an_invalid_flag_is_named_as_the_flag() -> None:
    with pytest.raises(ConfigError) as error:
        RuntimeConfig.load(shell_timeout_s=500.0)
    assert str(error.value) == (
        "--shell-timeout must be a number of seconds in (0, 120] (shellctl's range), got 500.0. "
        "Fix: pass a number of seconds in (0, 120] (shellctl's range), or leave --shell-timeout out."
    )


def test_the_runtime_command_exits_2_naming_the_bad_setting() -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("AGENT_BUILDER_")}
    env["AGENT_BUILDER_RUNTIME_MODEL_TIMEOUT_S"] = "soon"
    result = subprocess.run(
        [sys.executable, "-m", "agent_builder", "runtime", "--port", "0", "--shell-timeout", "500"],
        env=env,
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "--shell-timeout must be a number of seconds in (0, 120]" in result.stderr
    assert "AGENT_BUILDER_RUNTIME_MODEL_TIMEOUT_S must be a positive number of seconds" in result.stderr
    assert "AGENT_BUILDER_READY" not in result.stdout
