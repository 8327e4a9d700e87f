"""The runtime's settings: `AGENT_BUILDER_RUNTIME_*` variables, CLI flags that win over them, and
errors that name the variable or flag and the fix."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import pytest

from agent_builder.runtime.config import RuntimeConfig, check_token
from agent_builder.settings import ConfigError

_VARIABLES = (
    "RETRY_BUDGET",
    "RETRY_DELAY_MS",
    "SHELL_TIMEOUT_S",
    "MODEL_TIMEOUT_S",
    "TOKEN",
    "INSECURE_NO_TOKEN",
    "SHELLCTL_URL",
    "CONSOLE_URL",
)


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
        ("AGENT_BUILDER_RUNTIME_INSECURE_NO_TOKEN", "yes"),
        ("AGENT_BUILDER_RUNTIME_SHELLCTL_URL", "shellctl:5004"),
        ("AGENT_BUILDER_RUNTIME_CONSOLE_URL", "ftp://console"),
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
    result = _runtime_command({"AGENT_BUILDER_RUNTIME_MODEL_TIMEOUT_S": "soon"}, "--shell-timeout", "500")
    assert result.returncode == 2
    assert "--shell-timeout must be a number of seconds in (0, 120]" in result.stderr
    assert "AGENT_BUILDER_RUNTIME_MODEL_TIMEOUT_S must be a positive number of seconds" in result.stderr
    assert "AGENT_BUILDER_READY" not in result.stdout


def test_the_service_urls_and_the_token_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_TOKEN", "a-runtime-token-of-32-characters")
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_SHELLCTL_URL", "http://shellctl:5004/")
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_CONSOLE_URL", "http://console:5001")
    config = RuntimeConfig.load()
    assert (config.shellctl_url, config.console_url) == ("http://shellctl:5004", "http://console:5001")
    assert config.token == "a-runtime-token-of-32-characters"
    assert "a-runtime-token" not in repr(config)
    check_token(config)  # a token: nothing to refuse


def test_a_short_token_is_refused_without_being_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_TOKEN", "short-secret")
    with pytest.raises(ConfigError) as error:
        RuntimeConfig.load()
    assert str(error.value).startswith(
        "AGENT_BUILDER_RUNTIME_TOKEN must be a token of at least 16 characters"
    )
    assert "short-secret" not in str(error.value)


def test_without_a_token_the_runtime_refuses_to_serve_unless_told_it_is_insecure(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with pytest.raises(ConfigError) as error:
        check_token(RuntimeConfig.load())
    message = str(error.value)
    assert message.startswith("AGENT_BUILDER_RUNTIME_TOKEN is not set")
    assert (
        "AGENT_BUILDER_RUNTIME_INSECURE_NO_TOKEN=1" in message
        and "Fix: set AGENT_BUILDER_RUNTIME_TOKEN" in message
    )
    monkeypatch.setenv("AGENT_BUILDER_RUNTIME_INSECURE_NO_TOKEN", "1")
    with caplog.at_level(logging.WARNING):
        check_token(RuntimeConfig.load())
    assert "serves WITHOUT a token" in caplog.text


def _runtime_command(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {key: value for key, value in os.environ.items() if not key.startswith("AGENT_BUILDER_")}
    return subprocess.run(
        [sys.executable, "-m", "agent_builder", "runtime", "--port", "0", *args],
        env=clean | env,
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_runtime_command_without_a_token_exits_2_naming_the_variable() -> None:
    result = _runtime_command({})
    assert result.returncode == 2
    assert "AGENT_BUILDER_RUNTIME_TOKEN is not set" in result.stderr
    assert "AGENT_BUILDER_READY" not in result.stdout
